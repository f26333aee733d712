//! What operators watch, counted: requests, moves, live sockets, games in
//! memory, the AI's queue and how long jobs wait in it, database latency
//! (`Timed`, a `Storage` that times every call of the real one), in
//! Prometheus' text format. `ops.rs` serves them.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use punct_store::{
    AccountError, AccountStore, ApplyError, BlockRow, BotUpgrade, BoxFuture, CeremonyRow, Change,
    ConductRow, ErrorKind, GameRow, HistoryPoint, JobKind, JobQueue, Lease, ListFilter, Lobby,
    NoteRow, Notes, PasskeyRemoval, PasskeyRow, PresenceBoard, PresenceRow, RatedResult, RatingRow,
    SaveError, SeekRow, SessionRow, StatLine, Storage, StoreError, TokenRow, UserRow,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    /// One of the methods HTTP defines, or `other`: a label never holds
    /// what a client made up (each new value would be a series kept for
    /// good).
    method: &'static str,
    status: u16,
}

/// A request method's label: a method HTTP defines, else `other`.
pub(crate) fn method_label(method: &axum::http::Method) -> &'static str {
    match method.as_str() {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "DELETE" => "DELETE",
        "PATCH" => "PATCH",
        "OPTIONS" => "OPTIONS",
        "CONNECT" => "CONNECT",
        "TRACE" => "TRACE",
        _ => "other",
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DatabaseLabels {
    op: &'static str,
}

/// The server's metrics; gauges are read off the app when scraped.
pub(crate) struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    moves: Counter,
    live_sockets: Gauge,
    games_in_memory: Gauge,
    ai_running: Gauge,
    ai_waiting: Gauge,
    /// How long AI jobs waited for a worker (seconds); the scheduler
    /// observes it.
    pub(crate) ai_wait: Histogram,
    database: Family<DatabaseLabels, Histogram>,
    /// Jobs taken over from other instances (jobs.rs).
    pub(crate) jobs_taken: Counter,
    /// Positions post-game reviews searched (review.rs).
    pub(crate) reviewed: Counter,
}

impl Metrics {
    pub(crate) fn new() -> Metrics {
        let mut registry = Registry::with_prefix("punct");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method and status",
            requests.clone(),
        );
        let moves = Counter::default();
        registry.register(
            "moves",
            "Moves played (people's and the AI's)",
            moves.clone(),
        );
        let live_sockets = Gauge::default();
        registry.register("live_sockets", "Live sockets open", live_sockets.clone());
        let games_in_memory = Gauge::default();
        registry.register(
            "games_in_memory",
            "Games held in memory",
            games_in_memory.clone(),
        );
        let ai_running = Gauge::default();
        registry.register("ai_jobs_running", "AI searches running", ai_running.clone());
        let ai_waiting = Gauge::default();
        registry.register(
            "ai_jobs_waiting",
            "AI jobs waiting for a worker",
            ai_waiting.clone(),
        );
        // 1 ms to about 65 s.
        let ai_wait = Histogram::new(exponential_buckets(0.001, 2.0, 17));
        registry.register_with_unit(
            "ai_wait",
            "How long AI jobs waited for a worker",
            prometheus_client::registry::Unit::Seconds,
            ai_wait.clone(),
        );
        // 0.1 ms to about 3 s.
        let database = Family::<DatabaseLabels, Histogram>::new_with_constructor(|| {
            Histogram::new(exponential_buckets(0.0001, 2.0, 16))
        });
        registry.register_with_unit(
            "database",
            "Latency of database calls, by operation",
            prometheus_client::registry::Unit::Seconds,
            database.clone(),
        );
        let jobs_taken = Counter::default();
        registry.register(
            "jobs_taken_over",
            "AI moves and post-game reviews this instance took over (their claim ran out, or \
             they waited unclaimed)",
            jobs_taken.clone(),
        );
        let reviewed = Counter::default();
        registry.register(
            "review_positions",
            "Positions searched by post-game reviews (a review taken over goes on from the \
             positions saved, not from the first)",
            reviewed.clone(),
        );
        Metrics {
            jobs_taken,
            reviewed,
            registry,
            requests,
            moves,
            live_sockets,
            games_in_memory,
            ai_running,
            ai_waiting,
            ai_wait,
            database,
        }
    }

    /// Counts `n` moves played.
    pub(crate) fn moved(&self, n: u64) {
        self.moves.inc_by(n);
    }

    /// Counts one answer to a request.
    /// (`method`: its [label](method_label).)
    pub(crate) fn answered(&self, method: &'static str, status: u16) {
        self.requests
            .get_or_create(&RequestLabels { method, status })
            .inc();
    }

    /// The metrics in Prometheus' text format, with the gauges read now.
    pub(crate) fn encode(&self, now: Gauges) -> Result<String, std::fmt::Error> {
        self.live_sockets.set(now.live_sockets as i64);
        self.games_in_memory.set(now.games_in_memory as i64);
        self.ai_running.set(now.ai_running as i64);
        self.ai_waiting.set(now.ai_waiting as i64);
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

/// What the gauges show, read when the metrics are asked for.
pub(crate) struct Gauges {
    pub(crate) live_sockets: usize,
    pub(crate) games_in_memory: usize,
    pub(crate) ai_running: usize,
    pub(crate) ai_waiting: usize,
}

/// A database whose calls are timed into the metrics.
pub(crate) struct Timed {
    inner: Arc<dyn Storage>,
    database: Family<DatabaseLabels, Histogram>,
    /// How long a call may take (`--db-timeout`).
    limit: Duration,
}

impl Timed {
    /// Every call of `inner` timed, and given up after `limit`.
    pub(crate) fn new(inner: Arc<dyn Storage>, metrics: &Metrics, limit: Duration) -> Timed {
        Timed {
            inner,
            database: metrics.database.clone(),
            limit,
        }
    }

    /// `call` (a read's or a write's), timed; past the limit, the error
    /// `timed_out` makes.
    fn time<'a, T: Send + 'a, E: From<StoreError> + Send + 'a>(
        &'a self,
        op: &'static str,
        call: BoxFuture<'a, Result<T, E>>,
    ) -> BoxFuture<'a, Result<T, E>> {
        Box::pin(async move {
            let t0 = Instant::now();
            let out = tokio::time::timeout(self.limit, call)
                .await
                .unwrap_or_else(|_| Err(self.timed_out(op).into()));
            self.database
                .get_or_create(&DatabaseLabels { op })
                .observe(t0.elapsed().as_secs_f64());
            out
        })
    }

    fn timed_out(&self, op: &str) -> StoreError {
        StoreError::new(
            ErrorKind::Timeout,
            format!(
                "{}: no answer to {op} within {} s",
                self.inner.describe(),
                self.limit.as_secs_f64()
            ),
        )
    }
}

impl Storage for Timed {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn insert(&self, row: GameRow) -> BoxFuture<'_, Result<(), SaveError>> {
        self.time("insert", self.inner.insert(row))
    }

    fn update(&self, row: GameRow, expected: i64) -> BoxFuture<'_, Result<(), SaveError>> {
        self.time("update", self.inner.update(row, expected))
    }

    fn update_and_insert(
        &self,
        row: GameRow,
        expected: i64,
        new: GameRow,
    ) -> BoxFuture<'_, Result<(), SaveError>> {
        self.time(
            "update_and_insert",
            self.inner.update_and_insert(row, expected, new),
        )
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<GameRow>, StoreError>> {
        self.time("load", self.inner.load(id))
    }

    fn list<'a>(
        &'a self,
        filter: &'a ListFilter,
    ) -> BoxFuture<'a, Result<Vec<GameRow>, StoreError>> {
        self.time("list", self.inner.list(filter))
    }

    fn clocks_due(&self, by: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        self.time("clocks_due", self.inner.clocks_due(by))
    }

    fn page<'a>(
        &'a self,
        after: Option<&'a str>,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<GameRow>, StoreError>> {
        self.inner.page(after, limit)
    }

    fn heartbeat<'a>(&'a self, instance: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time("heartbeat", self.inner.heartbeat(instance))
    }

    fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<Change>> {
        self.inner.changes()
    }

    fn jobs(&self) -> Option<&dyn JobQueue> {
        self.inner.jobs().map(|_| self as &dyn JobQueue)
    }

    fn presence(&self) -> Option<&dyn PresenceBoard> {
        self.inner.presence().map(|_| self as &dyn PresenceBoard)
    }

    fn accounts(&self) -> &dyn AccountStore {
        self
    }

    fn lobby(&self) -> &dyn Lobby {
        self
    }

    fn notes(&self) -> &dyn Notes {
        self
    }
}

// The shared jobs and presence, timed and bounded like the games' calls
// (only asked for where the inner store has them).

impl JobQueue for Timed {
    fn claim<'a>(
        &'a self,
        id: &'a str,
        kind: JobKind,
        version: i64,
        claim: &'a str,
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let jobs = self.inner.jobs().expect("a job queue");
        self.time("job_claim", jobs.claim(id, kind, version, claim, lease))
    }

    fn take<'a>(
        &'a self,
        limit: u32,
        unclaimed_for: Duration,
        claim: &'a str,
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<Vec<(String, JobKind)>, StoreError>> {
        let jobs = self.inner.jobs().expect("a job queue");
        self.time("job_take", jobs.take(limit, unclaimed_for, claim, lease))
    }

    fn renew<'a>(
        &'a self,
        claims: &'a [String],
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        let jobs = self.inner.jobs().expect("a job queue");
        self.time("job_renew", jobs.renew(claims, lease))
    }

    fn progress<'a>(&'a self, claim: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        let jobs = self.inner.jobs().expect("a job queue");
        self.time("job_progress", jobs.progress(claim))
    }

    fn keep_progress<'a>(
        &'a self,
        claim: &'a str,
        progress: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let jobs = self.inner.jobs().expect("a job queue");
        self.time("job_keep_progress", jobs.keep_progress(claim, progress))
    }

    fn release<'a>(&'a self, claim: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        let jobs = self.inner.jobs().expect("a job queue");
        self.time("job_release", jobs.release(claim))
    }
}

impl PresenceBoard for Timed {
    fn publish<'a>(
        &'a self,
        game: &'a str,
        row: &'a PresenceRow,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let board = self.inner.presence().expect("a presence board");
        self.time("presence_publish", board.publish(game, row))
    }

    fn read<'a>(
        &'a self,
        games: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<(String, PresenceRow)>, StoreError>> {
        let board = self.inner.presence().expect("a presence board");
        self.time("presence_read", board.read(games))
    }

    fn renew<'a>(
        &'a self,
        instance: &'a str,
        games: &'a [String],
        seen: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let board = self.inner.presence().expect("a presence board");
        self.time("presence_renew", board.renew(instance, games, seen))
    }

    fn forget(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        let board = self.inner.presence().expect("a presence board");
        self.time("presence_forget", board.forget(before))
    }
}

// The accounts and ratings, timed and bounded like the games' calls: the
// timed accounts (`TimedAccounts`) are the `Timed` store itself, each call
// passed to the inner store's accounts.

impl AccountStore for Timed {
    fn create_user(&self, user: UserRow) -> BoxFuture<'_, Result<(), AccountError>> {
        self.time("create_user", self.inner.accounts().create_user(user))
    }

    fn create_user_with_passkey(
        &self,
        user: UserRow,
        passkey: PasskeyRow,
    ) -> BoxFuture<'_, Result<(), AccountError>> {
        self.time(
            "create_user_with_passkey",
            self.inner
                .accounts()
                .create_user_with_passkey(user, passkey),
        )
    }

    fn user<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<UserRow>, StoreError>> {
        self.time("user", self.inner.accounts().user(id))
    }

    fn user_by_key<'a>(
        &'a self,
        name_key: &'a str,
    ) -> BoxFuture<'a, Result<Option<UserRow>, StoreError>> {
        self.time("user_by_key", self.inner.accounts().user_by_key(name_key))
    }

    fn users<'a>(&'a self, ids: &'a [String]) -> BoxFuture<'a, Result<Vec<UserRow>, StoreError>> {
        self.time("users", self.inner.accounts().users(ids))
    }

    fn set_password<'a>(
        &'a self,
        user: &'a str,
        phc: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time(
            "set_password",
            self.inner.accounts().set_password(user, phc),
        )
    }

    fn set_seen<'a>(&'a self, user: &'a str, seen: i64) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time("set_seen", self.inner.accounts().set_seen(user, seen))
    }

    fn delete_user<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time("delete_user", self.inner.accounts().delete_user(user))
    }

    fn create_session(&self, session: SessionRow) -> BoxFuture<'_, Result<(), StoreError>> {
        self.time(
            "create_session",
            self.inner.accounts().create_session(session),
        )
    }

    fn session<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Option<(SessionRow, UserRow)>, StoreError>> {
        self.time("session", self.inner.accounts().session(hash, now))
    }

    fn touch_session<'a>(
        &'a self,
        hash: &'a str,
        seen: i64,
        expires: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time(
            "touch_session",
            self.inner.accounts().touch_session(hash, seen, expires),
        )
    }

    fn sessions<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<SessionRow>, StoreError>> {
        self.time("sessions", self.inner.accounts().sessions(user))
    }

    fn delete_session<'a>(&'a self, hash: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.time("delete_session", self.inner.accounts().delete_session(hash))
    }

    fn delete_sessions<'a>(
        &'a self,
        user: &'a str,
        except: Option<&'a str>,
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        self.time(
            "delete_sessions",
            self.inner.accounts().delete_sessions(user, except),
        )
    }

    fn expire_sessions(&self, now: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.time(
            "expire_sessions",
            self.inner.accounts().expire_sessions(now),
        )
    }

    fn add_passkey(&self, passkey: PasskeyRow) -> BoxFuture<'_, Result<(), AccountError>> {
        self.time("add_passkey", self.inner.accounts().add_passkey(passkey))
    }

    fn passkeys<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<PasskeyRow>, StoreError>> {
        self.time("passkeys", self.inner.accounts().passkeys(user))
    }

    fn passkey<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<PasskeyRow>, StoreError>> {
        self.time("passkey", self.inner.accounts().passkey(id))
    }

    fn update_passkey<'a>(
        &'a self,
        id: &'a str,
        data: &'a str,
        used: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time(
            "update_passkey",
            self.inner.accounts().update_passkey(id, data, used),
        )
    }

    fn remove_passkey<'a>(
        &'a self,
        user: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<PasskeyRemoval, StoreError>> {
        self.time(
            "remove_passkey",
            self.inner.accounts().remove_passkey(user, id),
        )
    }

    fn put_ceremony(&self, ceremony: CeremonyRow) -> BoxFuture<'_, Result<(), StoreError>> {
        self.time("put_ceremony", self.inner.accounts().put_ceremony(ceremony))
    }

    fn take_ceremony<'a>(
        &'a self,
        id: &'a str,
        kind: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Option<CeremonyRow>, StoreError>> {
        self.time(
            "take_ceremony",
            self.inner.accounts().take_ceremony(id, kind, now),
        )
    }

    fn expire_ceremonies(&self, now: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.time(
            "expire_ceremonies",
            self.inner.accounts().expire_ceremonies(now),
        )
    }

    fn add_token(&self, token: TokenRow) -> BoxFuture<'_, Result<(), StoreError>> {
        self.time("add_token", self.inner.accounts().add_token(token))
    }

    fn token<'a>(
        &'a self,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<Option<(TokenRow, UserRow)>, StoreError>> {
        self.time("token", self.inner.accounts().token(hash))
    }

    fn touch_token<'a>(
        &'a self,
        hash: &'a str,
        used: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time("touch_token", self.inner.accounts().touch_token(hash, used))
    }

    fn tokens<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<TokenRow>, StoreError>> {
        self.time("tokens", self.inner.accounts().tokens(user))
    }

    fn make_bot<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<BotUpgrade, StoreError>> {
        self.time("make_bot", self.inner.accounts().make_bot(user))
    }

    fn remove_token<'a>(
        &'a self,
        user: &'a str,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.time(
            "remove_token",
            self.inner.accounts().remove_token(user, hash),
        )
    }

    fn ratings<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<RatingRow>, StoreError>> {
        self.time("ratings", self.inner.accounts().ratings(user))
    }

    fn apply_rating(&self, result: RatedResult) -> BoxFuture<'_, Result<(), ApplyError>> {
        self.time("apply_rating", self.inner.accounts().apply_rating(result))
    }

    fn rating_history<'a>(
        &'a self,
        user: &'a str,
        category: &'a str,
    ) -> BoxFuture<'a, Result<Vec<HistoryPoint>, StoreError>> {
        self.time(
            "rating_history",
            self.inner.accounts().rating_history(user, category),
        )
    }

    fn game_rating<'a>(
        &'a self,
        game: &'a str,
    ) -> BoxFuture<'a, Result<Vec<HistoryPoint>, StoreError>> {
        self.time("game_rating", self.inner.accounts().game_rating(game))
    }

    fn leaderboard<'a>(
        &'a self,
        category: &'a str,
        active_since: i64,
        max_deviation: f64,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<(UserRow, RatingRow)>, StoreError>> {
        self.time(
            "leaderboard",
            self.inner
                .accounts()
                .leaderboard(category, active_since, max_deviation, limit),
        )
    }

    fn user_stats<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<StatLine>, StoreError>> {
        self.time("user_stats", self.inner.accounts().user_stats(user))
    }

    fn block<'a>(
        &'a self,
        user: &'a str,
        other: &'a str,
        at: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time("block", self.inner.accounts().block(user, other, at))
    }

    fn unblock<'a>(
        &'a self,
        user: &'a str,
        other: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.time("unblock", self.inner.accounts().unblock(user, other))
    }

    fn blocks<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<BlockRow>, StoreError>> {
        self.time("blocks", self.inner.accounts().blocks(user))
    }

    fn add_conduct(&self, row: ConductRow) -> BoxFuture<'_, Result<(), StoreError>> {
        self.time("add_conduct", self.inner.accounts().add_conduct(row))
    }

    fn conduct<'a>(
        &'a self,
        user: &'a str,
        since: i64,
    ) -> BoxFuture<'a, Result<Vec<ConductRow>, StoreError>> {
        self.time("conduct", self.inner.accounts().conduct(user, since))
    }
}

// The lobby, timed and bounded like the games' calls: each call passed to
// the inner store's lobby.

impl Notes for Timed {
    fn add_note(&self, note: NoteRow) -> BoxFuture<'_, Result<Option<i64>, StoreError>> {
        self.time("notes_add", self.inner.notes().add_note(note))
    }

    fn notes<'a>(
        &'a self,
        user: &'a str,
        offset: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<NoteRow>, StoreError>> {
        self.time("notes_list", self.inner.notes().notes(user, offset, limit))
    }

    fn note<'a>(
        &'a self,
        user: &'a str,
        id: i64,
    ) -> BoxFuture<'a, Result<Option<NoteRow>, StoreError>> {
        self.time("notes_one", self.inner.notes().note(user, id))
    }

    fn unread<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<u64, StoreError>> {
        self.time("notes_unread", self.inner.notes().unread(user))
    }

    fn mark_read<'a>(
        &'a self,
        user: &'a str,
        ids: Option<&'a [i64]>,
        at: i64,
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        self.time("notes_read", self.inner.notes().mark_read(user, ids, at))
    }

    fn prune_notes(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.time("notes_prune", self.inner.notes().prune_notes(before))
    }
}

impl Lobby for Timed {
    fn add_seek(&self, seek: SeekRow) -> BoxFuture<'_, Result<(), StoreError>> {
        self.time("lobby_add", self.inner.lobby().add_seek(seek))
    }

    fn seeks(&self, limit: u32) -> BoxFuture<'_, Result<Vec<SeekRow>, StoreError>> {
        self.time("lobby_seeks", self.inner.lobby().seeks(limit))
    }

    fn seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SeekRow>, StoreError>> {
        self.time("lobby_seek", self.inner.lobby().seek(id))
    }

    fn challenges<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<SeekRow>, StoreError>> {
        self.time("lobby_challenges", self.inner.lobby().challenges(user))
    }

    fn remove_seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.time("lobby_remove", self.inner.lobby().remove_seek(id))
    }

    fn take_seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SeekRow>, StoreError>> {
        self.time("lobby_take", self.inner.lobby().take_seek(id))
    }

    fn take_pair<'a>(
        &'a self,
        a: &'a str,
        b: &'a str,
    ) -> BoxFuture<'a, Result<Option<(SeekRow, SeekRow)>, StoreError>> {
        self.time("lobby_take_pair", self.inner.lobby().take_pair(a, b))
    }

    fn pool<'a>(
        &'a self,
        variant: &'a str,
        clock: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Vec<SeekRow>, StoreError>> {
        self.time("lobby_pool", self.inner.lobby().pool(variant, clock))
    }

    fn renew<'a>(&'a self, instance: &'a str, seen: i64) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time("lobby_renew", self.inner.lobby().renew(instance, seen))
    }

    fn forget(&self, before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        self.time("lobby_forget", self.inner.lobby().forget(before))
    }

    fn announce_paired<'a>(
        &'a self,
        seek: &'a str,
        game: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time(
            "lobby_announce_paired",
            self.inner.lobby().announce_paired(seek, game),
        )
    }

    fn announce_declined<'a>(&'a self, seek: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.time(
            "lobby_announce_declined",
            self.inner.lobby().announce_declined(seek),
        )
    }
}
