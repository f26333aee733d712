//! Presence: who watches a game live. A live socket holds a seat once it
//! says so (`{"type": "hello", "token": …}` with that seat's token);
//! until then, and with a token that holds no seat, it is a spectator.
//! Each game's slot counts the sockets per side and the spectators and
//! pushes every change to all of the game's sockets as a `presence`
//! message, bursts coalesced. Presence is not part of the game's state:
//! it has no version.
//!
//! Where instances share a database, a player's socket may be on any of
//! them: each instance writes its own counts of a game to the database
//! (a row per game and instance, confirmed every few seconds while it
//! serves sockets; punct-store's presence.rs) and reads the others', so
//! the connected flags, the time away and the spectators shown, and the
//! abandonment decided, are every instance's, not one's.
//!
//! On it rests abandonment: in an online real-time game, a player whose
//! opponent has had no live socket for `--abandon-after` may claim the win.

use crate::clock::TimeControl;
use crate::games::{now_ms, EndReason, GameError, LiveGame, Mode, Over};
use punct_core::Side;
use punct_store::{PresenceRow, Storage, StoreError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// A change is pushed this long after it happened (more changes meanwhile
/// go with it), longer on games with many sockets.
const COALESCE_MS: u64 = 100;
/// How often an instance confirms its rows and reads the others'.
pub(crate) const RENEW_EVERY: Duration = Duration::from_secs(5);
/// A row not confirmed for this long is a dead instance's: its sockets
/// count as closed from then.
pub(crate) const EXPIRES_MS: i64 = 15_000;

/// One game's live sockets, counted.
pub(crate) struct Presence {
    counts: Mutex<Counts>,
    /// Ticks once per pushed change; each socket then sends the presence
    /// as it is when sent.
    changed: watch::Sender<u64>,
    /// Where other instances serve the same games' sockets.
    share: Option<Share>,
}

/// This presence's place in the database other instances share.
pub(crate) struct Share {
    store: Arc<dyn Storage>,
    /// This instance's name, and the game's id.
    instance: String,
    game: String,
    /// One write at a time, each with the counts as they are when it
    /// starts: a later write never carries older counts.
    writing: tokio::sync::Mutex<()>,
}

impl Share {
    /// `None` unless `store` is shared ([`Storage::presence`]).
    pub(crate) fn of(store: &Arc<dyn Storage>, instance: &str, game: &str) -> Option<Share> {
        store.presence()?;
        Some(Share {
            store: store.clone(),
            instance: instance.to_string(),
            game: game.to_string(),
            writing: Default::default(),
        })
    }
}

#[derive(Default)]
struct Counts {
    /// Sockets holding each side's seat (white, black).
    sockets: [u32; 2],
    spectators: u32,
    /// Whether a person holds each seat (not the AI, not an open seat).
    person: [bool; 2],
    /// Since when each person's seat has had no socket here (ms since
    /// 1970).
    away_since: [Option<i64>; 2],
    /// When each side's last socket here closed.
    left: [Option<i64>; 2],
    /// The counts changed since this instance last wrote them.
    unwritten: bool,
    /// Other instances' rows of this game, as last read.
    others: Vec<PresenceRow>,
    /// What was last pushed: the connected flags and the spectators
    /// (a dead instance's sockets vanish with time, not with a change).
    shown: ([bool; 2], u32),
    /// A push is on its way.
    pending: bool,
    ticks: u64,
}

fn index(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

fn person(game: &LiveGame, side: Side) -> bool {
    game.ai_side() != Some(side) && game.invite_open() != Some(side)
}

/// Whether `row`'s instance still confirms it.
fn live(row: &PresenceRow, now: i64) -> bool {
    now - row.seen < EXPIRES_MS
}

impl Counts {
    /// Whether seat `i` has a socket here or on a live instance.
    fn connected(&self, i: usize, now: i64) -> bool {
        self.sockets[i] > 0 || self.others.iter().any(|r| r.sockets[i] > 0 && live(r, now))
    }

    /// Since when person seat `i` has had no socket anywhere: the latest
    /// of this instance's view and each other instance's last socket (a
    /// dead instance's from when its row expired). `None` while connected,
    /// and for the AI's side or an open seat.
    fn away_since(&self, i: usize, now: i64) -> Option<i64> {
        if self.connected(i, now) {
            return None;
        }
        let mut since = self.away_since[i]?;
        for r in &self.others {
            let gone = if r.sockets[i] > 0 {
                Some(r.seen + EXPIRES_MS)
            } else {
                r.left[i]
            };
            since = since.max(gone.unwrap_or(since));
        }
        Some(since)
    }

    fn view(&self, now: i64) -> ([bool; 2], u32) {
        (
            [self.connected(0, now), self.connected(1, now)],
            self.spectators(now),
        )
    }

    fn spectators(&self, now: i64) -> u32 {
        self.others
            .iter()
            .filter(|r| live(r, now))
            .fold(self.spectators, |n, r| n.saturating_add(r.spectators))
    }
}

impl Presence {
    /// Nobody connected yet: a person's seat is away from now.
    pub(crate) fn new(game: &LiveGame, share: Option<Share>) -> Presence {
        let now = now_ms();
        let mut c = Counts::default();
        for side in [Side::White, Side::Black] {
            let i = index(side);
            c.person[i] = person(game, side);
            c.away_since[i] = c.person[i].then_some(now);
        }
        Presence {
            counts: Mutex::new(c),
            changed: watch::channel(0).0,
            share,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game changed: a seat newly claimed is away from now until its
    /// player connects.
    pub(crate) fn seats_changed(self: &Arc<Self>, game: &LiveGame) {
        let mut c = self.lock();
        let mut changed = false;
        for side in [Side::White, Side::Black] {
            let i = index(side);
            let now_person = person(game, side);
            if now_person != c.person[i] {
                c.person[i] = now_person;
                c.away_since[i] = (now_person && c.sockets[i] == 0).then(now_ms);
                changed = true;
            }
        }
        if changed {
            self.push(&mut c);
        }
    }

    /// Schedules a push of the counts to every socket (one for a burst),
    /// and their write for the other instances if they changed here.
    fn push(self: &Arc<Self>, c: &mut Counts) {
        c.ticks += 1;
        c.shown = c.view(now_ms());
        if c.pending {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        c.pending = true;
        let presence = self.clone();
        let wait = COALESCE_MS + (self.changed.receiver_count() as u64 / 10).min(1900);
        runtime.spawn(async move {
            tokio::time::sleep(Duration::from_millis(wait)).await;
            let (ticks, unwritten) = {
                let mut c = presence.lock();
                c.pending = false;
                (c.ticks, c.unwritten)
            };
            presence.changed.send_replace(ticks);
            if unwritten {
                presence.write().await;
            }
        });
    }

    /// Writes this instance's counts for the other instances (a shared
    /// database); a failed write is tried again at the next renewal.
    pub(crate) async fn write(&self) {
        let Some(share) = &self.share else {
            return;
        };
        let Some(board) = share.store.presence() else {
            return;
        };
        let _one = share.writing.lock().await;
        let row = {
            let mut c = self.lock();
            c.unwritten = false;
            PresenceRow {
                instance: share.instance.clone(),
                sockets: c.sockets,
                spectators: c.spectators,
                left: c.left,
                seen: now_ms(),
            }
        };
        if let Err(e) = board.publish(&share.game, &row).await {
            self.lock().unwritten = true;
            tracing::warn!("game {}: sharing who is connected: {e}", share.game);
        }
    }

    /// Reads the other instances' rows of this game again (a shared
    /// database; elsewhere there are none).
    pub(crate) async fn refresh(self: &Arc<Self>) -> Result<(), StoreError> {
        let Some(share) = &self.share else {
            return Ok(());
        };
        let Some(board) = share.store.presence() else {
            return Ok(());
        };
        let rows = board.read(std::slice::from_ref(&share.game)).await?;
        self.set_others(rows.into_iter().map(|(_, row)| row).collect());
        Ok(())
    }

    /// The other instances' rows of this game, as just read (this
    /// instance's own among them is left out), shown to the sockets.
    pub(crate) fn set_others(self: &Arc<Self>, mut rows: Vec<PresenceRow>) {
        let Some(share) = &self.share else {
            return;
        };
        rows.retain(|r| r.instance != share.instance);
        let mut c = self.lock();
        let same = c.others == rows;
        c.others = rows;
        if !same || c.view(now_ms()) != c.shown {
            self.push(&mut c);
        }
    }

    /// Whether this instance has sockets on the game, or counts still to
    /// write: its row is to be confirmed or written.
    pub(crate) fn to_renew(&self) -> bool {
        let c = self.lock();
        c.unwritten || c.sockets.iter().any(|&n| n > 0) || c.spectators > 0
    }

    pub(crate) fn unwritten(&self) -> bool {
        self.lock().unwritten
    }

    /// Tells when the presence changed.
    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The `presence` message as of `now`:
    /// `{"type":"presence","white":{"connected":true,"away_ms":null},
    /// "black":{"connected":false,"away_ms":12000},"spectators":2}`.
    pub(crate) fn message(&self, now: i64) -> String {
        let c = self.lock();
        let side = |i: usize| {
            let away = match c.away_since(i, now) {
                Some(t) => (now - t).max(0).to_string(),
                None => "null".to_string(),
            };
            format!(
                r#"{{"connected":{},"away_ms":{away}}}"#,
                c.connected(i, now)
            )
        };
        format!(
            r#"{{"type":"presence","white":{},"black":{},"spectators":{}}}"#,
            side(0),
            side(1),
            c.spectators(now)
        )
    }

    /// How long `side`'s player has had no live socket on any instance
    /// (`None` while connected, and for the AI's side or an open seat).
    pub(crate) fn away_ms(&self, side: Side, now: i64) -> Option<i64> {
        let c = self.lock();
        c.away_since(index(side), now).map(|t| (now - t).max(0))
    }
}

/// A live socket counted in its game's presence (as a spectator until it
/// holds seats) until dropped.
pub(crate) struct Member {
    presence: Arc<Presence>,
    seats: Vec<Side>,
}

impl Member {
    /// A new socket, counted as a spectator. The first on this instance
    /// reads the other instances' sockets, to show them.
    pub(crate) fn join(presence: &Arc<Presence>) -> Member {
        let member = Member {
            presence: presence.clone(),
            seats: Vec::new(),
        };
        member.count(1);
        let first = {
            let c = presence.lock();
            c.spectators + c.sockets[0] + c.sockets[1] == 1
        };
        if first && presence.share.is_some() {
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                let presence = presence.clone();
                runtime.spawn(async move {
                    if let Err(e) = presence.refresh().await {
                        tracing::warn!("reading who is connected on other instances: {e}");
                    }
                });
            }
        }
        member
    }

    /// The socket now holds `seats` (none: a spectator).
    pub(crate) fn hold(&mut self, seats: Vec<Side>) {
        if seats == self.seats {
            return;
        }
        self.count(-1);
        self.seats = seats;
        self.count(1);
    }

    fn count(&self, by: i32) {
        let mut c = self.presence.lock();
        let now = now_ms();
        if self.seats.is_empty() {
            c.spectators = c.spectators.saturating_add_signed(by);
        }
        for &side in &self.seats {
            let i = index(side);
            c.sockets[i] = c.sockets[i].saturating_add_signed(by);
            if c.sockets[i] == 0 {
                c.left[i] = Some(now);
            }
            // Away since the last socket closed (or still since the same
            // time if it was away already).
            let was = c.away_since[i];
            c.away_since[i] = (c.sockets[i] == 0 && c.person[i]).then(|| was.unwrap_or(now));
        }
        c.unwritten = true;
        self.presence.push(&mut c);
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        self.count(-1);
    }
}

// ------------------------------------------------------------ abandonment

impl LiveGame {
    /// The holder of `token` claims the win because the opponent has had
    /// no live socket for `after_ms` (`away` says how long, `None` while
    /// connected). Online real-time games only.
    pub fn abandon(
        &mut self,
        token: &str,
        away: impl FnOnce(Side) -> Option<i64>,
        after_ms: i64,
    ) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Over(Over::Ended));
        }
        let seats = self.seats(token);
        let Some(&side) = seats.first() else {
            return Err(GameError::NoSeat);
        };
        if self.row.mode != Mode::Online {
            return Err(GameError::NotOnline(self.row.mode.name()));
        }
        match self.time_control() {
            Some(TimeControl::Realtime { .. }) => {}
            tc => {
                return Err(GameError::NoClock {
                    correspondence: tc.is_some(),
                })
            }
        }
        let opponent = side.opponent();
        if self.invite_open() == Some(opponent) {
            return Err(GameError::NoOpponent {
                side: opponent,
                leave: true,
            });
        }
        match away(opponent) {
            Some(ms) if ms >= after_ms => {
                self.end(EndReason::Abandonment(opponent));
                Ok(())
            }
            gone_ms => Err(GameError::NotAbandoned {
                opponent,
                gone_ms,
                after_ms,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::End;
    use punct_core::{Outcome, Position, Variant};
    use punct_store::GameRow;

    fn online(both_seats: bool) -> LiveGame {
        let row = GameRow {
            id: "g".into(),
            variant: "standard".into(),
            mode: Mode::Online,
            white_token: Some("w".into()),
            black_token: both_seats.then(|| "b".into()),
            invite: (!both_seats).then(|| "code".into()),
            start: Position::new(Variant::Standard).to_position_string(),
            version: 1,
            ..GameRow::default()
        };
        let mut g = LiveGame::new(row, Position::new(Variant::Standard)).unwrap();
        g.set_time_control(Some(TimeControl::Realtime {
            initial: 60,
            increment: 0,
        }));
        g
    }

    #[tokio::test]
    async fn sockets_count_per_side_and_spectators() {
        let game = online(true);
        let p = Arc::new(Presence::new(&game, None));
        let t0 = now_ms();
        assert!(p.away_ms(Side::White, t0 + 5).is_some());
        let mut white = Member::join(&p);
        let _spectator = Member::join(&p);
        white.hold(vec![Side::White]);
        let msg: serde_json::Value = serde_json::from_str(&p.message(now_ms())).unwrap();
        assert_eq!(msg["type"], "presence");
        assert_eq!(msg["white"]["connected"], true);
        assert_eq!(msg["white"]["away_ms"], serde_json::Value::Null);
        assert_eq!(msg["black"]["connected"], false);
        assert!(msg["black"]["away_ms"].as_i64().is_some());
        assert_eq!(msg["spectators"], 1);
        assert_eq!(p.away_ms(Side::White, now_ms()), None);
        let left = now_ms();
        drop(white);
        assert!(p.away_ms(Side::White, left + 1000).unwrap() >= 1000);
        let msg: serde_json::Value = serde_json::from_str(&p.message(now_ms())).unwrap();
        assert_eq!(msg["spectators"], 1);
    }

    #[test]
    fn other_instances_sockets_count_until_their_rows_expire() {
        let game = online(true);
        let p = Presence::new(&game, None);
        let t0 = now_ms();
        let row = |white: u32, left: Option<i64>, seen: i64| PresenceRow {
            instance: "other".into(),
            sockets: [white, 0],
            spectators: 2,
            left: [left, None],
            seen,
        };
        let away_since = |p: &Presence, now: i64| p.lock().away_since(0, now);
        let base = p.lock().away_since[0].unwrap();
        // White connected on a live instance: not away, seen, counted.
        p.lock().others = vec![row(1, None, t0)];
        assert_eq!(away_since(&p, t0 + 1000), None);
        assert_eq!(p.lock().view(t0 + 1000), ([true, false], 2));
        // Its last socket there closed later than anything seen here: away
        // from then.
        p.lock().others = vec![row(0, Some(base + 5000), t0)];
        assert_eq!(away_since(&p, t0 + 9000), Some(base + 5000));
        // An older closing time does not make the player away longer.
        p.lock().others = vec![row(0, Some(base - 5000), t0)];
        assert_eq!(away_since(&p, t0 + 9000), Some(base));
        // An instance that stopped confirming its row: its sockets count
        // until the row expires, and White is away from then.
        p.lock().others = vec![row(1, None, t0)];
        assert_eq!(away_since(&p, t0 + EXPIRES_MS - 1), None);
        assert_eq!(away_since(&p, t0 + EXPIRES_MS + 10), Some(t0 + EXPIRES_MS));
        assert_eq!(p.lock().view(t0 + EXPIRES_MS + 10), ([false, false], 0));
        // The AI's side or an open seat is never away.
        p.lock().person[0] = false;
        p.lock().away_since[0] = None;
        assert_eq!(away_since(&p, t0 + EXPIRES_MS + 10), None);
    }

    #[test]
    fn abandonment_needs_an_opponent_gone_long_enough() {
        let mut g = online(true);
        let code = |r: Result<(), GameError>| r.err().map(|e| crate::error::ApiError::from(e).code);
        assert_eq!(code(g.abandon("x", |_| Some(0), 1000)), Some("bad_token"));
        assert_eq!(code(g.abandon("w", |_| None, 1000)), Some("not_abandoned"));
        let e = g.abandon("w", |_| Some(400), 2000).unwrap_err();
        assert!(e.to_string().contains("in 2 s"), "{e}");
        g.abandon("w", |_| Some(2000), 2000).unwrap();
        assert_eq!(
            g.row.end,
            Some(End {
                outcome: Outcome::WhiteWins,
                reason: EndReason::Abandonment(Side::Black)
            })
        );
        assert_eq!(g.row.clock_since, None);
        assert_eq!(code(g.abandon("w", |_| Some(9999), 1)), Some("game_over"));

        let mut waiting = online(false);
        assert_eq!(
            code(waiting.abandon("w", |_| Some(9999), 1)),
            Some("no_opponent")
        );
        let mut untimed = online(true);
        untimed.set_time_control(None);
        assert_eq!(
            code(untimed.abandon("w", |_| Some(9999), 1)),
            Some("no_clock")
        );
    }
}
