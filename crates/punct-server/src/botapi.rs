//! Bots: programs that play as a bot account through their API token
//! (`api/bot.rs` reads the requests). What they see are two kinds of
//! stream, one JSON object per line: the account's **event stream**
//! ([`events`]: `gameStart` when a game of the account begins, `gameFinish`
//! when one ends — on whichever instance it happens, as the database
//! announces it) and a game's **game stream** ([`game_stream`]:
//! `gameFull` first, then `gameState` after every change, until the game
//! ends). What they do — move, resign, seek a game in the lobby — goes
//! through the same change path and the same rules as a browser's
//! requests: a move is played with the token of the seat the account
//! holds.
//!
//! The events are an open set: a client ignores types it does not know.
//! Direct challenges to the bot are events too: `challenge` when one is
//! offered (and, when the stream opens, for each still open), and
//! `challengeCanceled` when one offered to it is no longer open (withdrawn
//! by its challenger, or answered: an accepted one's game follows as
//! `gameStart`). The bot answers over HTTP ([`accept`], [`decline`]).
//!
//! A bot's seek lasts while one of its event streams is open on the
//! instance that took the seek (or until it is cancelled or accepted):
//! it is withdrawn when the account's last event stream there closes.

mod hub;

pub(crate) use hub::{Hub, Place};

use crate::app::{App, Published, Slot};
use crate::challenges;
use crate::error::ApiError;
use crate::games::{now_ms, Account, GameError, LiveGame};
use crate::limits::{ClientKey, Held};
use crate::lobby::{self, LobbyEvent, Seeker, Wanted, SEEKS_PER_SOCKET};
use crate::presence::Member;
use punct_core::Side;
use punct_store::UserRow;
use serde_json::{json, Map, Value};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

/// Streams of either kind one account holds open on an instance.
pub(crate) const STREAMS_PER_ACCOUNT: usize = 8;
/// A stream that has had nothing to say for this long writes an empty
/// line, so that the bot (and any proxy) knows it is alive.
const KEEP_ALIVE: Duration = Duration::from_secs(7);
/// Ongoing games an event stream tells of when it opens, at most.
const ONGOING_MAX: u32 = 100;
/// Lines waiting to be written to one stream.
pub(crate) const LINES_QUEUE: usize = 32;

/// What a stream holds while it is open: its place among the account's
/// streams and among the client's live connections.
pub(crate) struct Open {
    pub(crate) _place: Place,
    pub(crate) _held: Held,
}

/// Queues one line of a stream (an empty one keeps it alive); false when
/// the stream is gone, or its reader took nothing for the socket send
/// timeout (it is then closed).
async fn emit(app: &App, out: &mpsc::Sender<String>, line: String) -> bool {
    out.send_timeout(line, app.config.ws_send_timeout)
        .await
        .is_ok()
}

/// The side whose seat `user` holds in `game` (the side to move when it
/// holds both), if any.
pub(crate) fn seat_of(game: &LiveGame, user: &str) -> Option<Side> {
    let to_move = game.position().side_to_move();
    [to_move, to_move.opponent()]
        .into_iter()
        .find(|&side| game.user(side) == Some(user))
}

fn not_your_game(id: &str) -> ApiError {
    ApiError::forbidden(
        "not_your_game",
        "this bot plays no seat of this game: it may stream and move only in its own games",
    )
    .with("game", id)
}

/// The game `id` and the side the bot `user` plays in it: 404
/// `unknown_game`, 403 `not_your_game`.
pub(crate) async fn own_game(
    app: &Arc<App>,
    user: &str,
    id: &str,
) -> Result<(Arc<Slot>, Side), ApiError> {
    let slot = app.slot(id).await?;
    let side = seat_of(&*slot.game.lock().await, user).ok_or_else(|| not_your_game(id))?;
    Ok((slot, side))
}

// ------------------------------------------------------------ what a bot does

/// The token of the seat `user` holds, for the rules that act by tokens.
fn seat_token(game: &LiveGame, user: &str) -> Result<String, GameError> {
    let side = seat_of(game, user).ok_or(GameError::NoSeat)?;
    let token = match side {
        Side::White => &game.row.white_token,
        Side::Black => &game.row.black_token,
    };
    token.clone().ok_or(GameError::NoSeat)
}

/// Does `act` with the token of the seat the bot `user` holds in game
/// `id`, as a request sent with that token would: the same rules, the
/// same change path. Answers the new game state line.
async fn act_for(
    app: &Arc<App>,
    client: ClientKey,
    user: &str,
    id: &str,
    act: impl Fn(&mut LiveGame, &str) -> Result<(), GameError>,
) -> Result<Value, ApiError> {
    own_game(app, user, id).await?;
    let changed = app
        .change_by(client, id, |g| {
            let token = seat_token(g, user)?;
            act(g, &token)
        })
        .await?;
    state_line(&changed.state)
}

/// Plays `mv` for the bot `user` in game `id`.
pub(crate) async fn play(
    app: &Arc<App>,
    client: ClientKey,
    user: &str,
    id: &str,
    mv: &str,
) -> Result<Value, ApiError> {
    act_for(app, client, user, id, |g, token| g.play(token, mv, None)).await
}

/// Resigns game `id` for the bot `user`.
pub(crate) async fn resign(
    app: &Arc<App>,
    client: ClientKey,
    user: &str,
    id: &str,
) -> Result<Value, ApiError> {
    act_for(app, client, user, id, |g, token| g.resign(token)).await
}

/// Aborts game `id` for the bot `user` (before each side has moved).
pub(crate) async fn abort(
    app: &Arc<App>,
    client: ClientKey,
    user: &str,
    id: &str,
) -> Result<Value, ApiError> {
    act_for(app, client, user, id, |g, token| g.abort(token)).await
}

/// A change's answer (the game's state as JSON text) as a `gameState`.
fn state_line(state: &str) -> Result<Value, ApiError> {
    match serde_json::from_str::<Value>(state) {
        Ok(Value::Object(fields)) => Ok(game_state(&fields, now_ms())),
        _ => Err(ApiError::internal(
            "a game's state that is not a JSON object",
        )),
    }
}

/// Opens a seek in the lobby for the bot `user` (never quick pairing):
/// anyone may accept it, and the game it becomes is announced on the
/// bot's event stream, which must be open here (409 `no_event_stream`).
pub(crate) async fn seek(
    app: &Arc<App>,
    user: &UserRow,
    wanted: Wanted,
) -> Result<String, ApiError> {
    if !app.bot_hub.listens(&user.id) {
        return Err(ApiError::conflict(
            "no_event_stream",
            "open the event stream first (GET /api/bot/stream/event): a bot's seek lasts while \
             it listens, and its game is announced there",
        ));
    }
    let open = {
        let mine = app.lobby.mine.lock().expect("lobby lock");
        app.bot_hub
            .seeks(&user.id)
            .iter()
            .filter(|s| mine.contains_key(*s))
            .count()
    };
    if open >= SEEKS_PER_SOCKET {
        return Err(ApiError::conflict(
            "too_many_seeks",
            format!("a bot holds at most {SEEKS_PER_SOCKET} seeks at once"),
        )
        .with("max", SEEKS_PER_SOCKET));
    }
    let seeker = bot_seeker(user);
    // The pairing's own message (the seat's token) has nowhere to go: the
    // bot acts by its account, and hears of the game on its event stream.
    let (nowhere, _) = mpsc::channel(1);
    let id = lobby::seek(app, &seeker, wanted, nowhere).await?;
    app.bot_hub.add_seek(&user.id, &id);
    Ok(id)
}

/// Withdraws the bot's seek `seek` (404 `no_seek` for one it did not make
/// here, or that is gone).
pub(crate) async fn cancel(app: &Arc<App>, user: &str, seek: &str) -> Result<(), ApiError> {
    let open = app
        .lobby
        .mine
        .lock()
        .expect("lobby lock")
        .contains_key(seek);
    if !app.bot_hub.forget_seek(user, seek) || !open {
        return Err(
            ApiError::not_found("no_seek", "this bot has no open seek of this id here")
                .with("seek", seek),
        );
    }
    lobby::withdraw(app, &[seek.to_string()]).await;
    Ok(())
}

/// The bot `user` accepts challenge `id` offered to it: the game's id
/// (announced on its event stream as `gameStart`, like any of its games).
pub(crate) async fn accept(app: &Arc<App>, user: &UserRow, id: &str) -> Result<String, ApiError> {
    let paired = challenges::accept(app, &bot_seeker(user), id).await?;
    Ok(paired.game)
}

/// The bot `user` declines challenge `id` offered to it.
pub(crate) async fn decline(app: &Arc<App>, user: &UserRow, id: &str) -> Result<(), ApiError> {
    challenges::decline(app, &account(user), id).await
}

fn account(user: &UserRow) -> Account {
    Account {
        id: user.id.clone(),
        name: user.name.clone(),
    }
}

fn bot_seeker(user: &UserRow) -> Seeker {
    Seeker {
        account: Some(account(user)),
        name: None,
        bot: true,
    }
}

// ------------------------------------------------------------ the lines

/// A time control as the streams show it: the state's clock without its
/// running times.
fn time_control(clock: &Value) -> Value {
    let Value::Object(c) = clock else {
        return Value::Null;
    };
    let kept: Map<String, Value> = c
        .iter()
        .filter(|(k, _)| matches!(k.as_str(), "type" | "initial" | "increment" | "days"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Value::Object(kept)
}

/// A `gameState` line from a game's state (the API's, as the page gets
/// it) at time `now`: the moves, each side's time left in ms (`wtime`,
/// `btime`; null untimed) and increment, whose turn it is, the status and
/// the result.
pub(crate) fn game_state(f: &Map<String, Value>, now: i64) -> Value {
    let clock = at(f, "clock");
    let left = |side: &str| -> Value {
        let Some(ms) = clock[format!("{side}_ms")].as_i64() else {
            return Value::Null;
        };
        let running = clock["running"].as_str() == Some(side);
        let used = match clock["since"].as_i64() {
            Some(since) if running => (now - since).max(0),
            _ => 0,
        };
        json!((ms - used).max(0))
    };
    let increment = match clock["increment"].as_i64() {
        Some(s) => json!(s * 1000),
        None if clock.is_object() => json!(0),
        None => Value::Null,
    };
    let result = f.get("result").cloned().unwrap_or(Value::Null);
    json!({
        "type": "gameState",
        "version": at(f, "version"),
        "moves": at(f, "moves"),
        "ply": at(f, "ply"),
        "to_move": at(f, "to_move"),
        "wtime": left("white"),
        "btime": left("black"),
        "winc": increment,
        "binc": increment,
        "status": at(f, "status"),
        "winner": result["winner"],
        "result": result,
        "draw_offer": at(f, "draw_offer"),
        "takeback_request": at(f, "takeback_request"),
    })
}

/// A `gameFull` line: who plays (names, accounts, bots), the variant, the
/// time control, the start position, the bot's side, and the state now.
pub(crate) fn game_full(f: &Map<String, Value>, you: Side, now: i64) -> Value {
    let player = |side: &str| {
        let p = &at(f, "players")[side];
        json!({
            "name": p["name"],
            "user": at(f, &format!("{side}_user")),
            "bot": p["bot"],
            "ai": p["ai"],
        })
    };
    json!({
        "type": "gameFull",
        "id": at(f, "id"),
        "variant": at(f, "variant"),
        "mode": at(f, "mode"),
        "rated": at(f, "rated"),
        "clock": time_control(at(f, "clock")),
        "white": player("white"),
        "black": player("black"),
        "start": at(f, "start"),
        "you": you.name(),
        "state": game_state(f, now),
    })
}

/// What a bot's event stream says, one line each, named by its `type`;
/// clients ignore types they do not know.
pub(crate) enum Event {
    /// A game of the bot's began (or was going on when the stream opened).
    GameStart(Value),
    /// A game of the bot's ended.
    GameFinish(Value),
    /// A challenge offered to the bot (the lobby's seek, with `to`).
    Challenge(Value),
    /// A challenge offered to the bot is no longer open (`{"id"}`).
    ChallengeCanceled(Value),
}

impl Event {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Event::GameStart(_) => "gameStart",
            Event::GameFinish(_) => "gameFinish",
            Event::Challenge(_) => "challenge",
            Event::ChallengeCanceled(_) => "challengeCanceled",
        }
    }

    /// The event's line: `{"type": …, "game": {…}}` or `{"type": …,
    /// "challenge": {…}}`.
    pub(crate) fn line(&self) -> String {
        match self {
            Event::GameStart(v) | Event::GameFinish(v) => {
                json!({"type": self.kind(), "game": v}).to_string()
            }
            Event::Challenge(v) | Event::ChallengeCanceled(v) => {
                json!({"type": self.kind(), "challenge": v}).to_string()
            }
        }
    }
}

/// A `gameStart` event: the game, the bot's side and its opponent.
fn game_start(game: &LiveGame, you: Side) -> Event {
    let view = game.view();
    let f = view.fields();
    let them = you.opponent().name();
    Event::GameStart(json!({
            "id": game.row.id,
            "side": you.name(),
            "opponent": {
                "name": at(f, "players")[them]["name"],
                "user": at(f, &format!("{them}_user")),
                "bot": at(f, "players")[them]["bot"],
                "ai": at(f, "players")[them]["ai"],
            },
            "variant": at(f, "variant"),
            "rated": at(f, "rated"),
            "clock": time_control(at(f, "clock")),
            "start": at(f, "start"),
            "ply": at(f, "ply"),
            "to_move": at(f, "to_move"),
            "my_turn": at(f, "to_move").as_str() == Some(you.name()),
    }))
}

/// A `gameFinish` event from an ended game's state.
fn game_finish(f: &Map<String, Value>, you: Side) -> Event {
    Event::GameFinish(json!({
        "id": at(f, "id"),
        "side": you.name(),
        "ply": at(f, "ply"),
        "result": at(f, "result"),
    }))
}

/// A state's field, null when it has none.
fn at<'a>(f: &'a Map<String, Value>, key: &str) -> &'a Value {
    const NULL: &Value = &Value::Null;
    f.get(key).unwrap_or(NULL)
}

fn is_over(f: &Map<String, Value>) -> bool {
    f.get("status").and_then(Value::as_str) == Some("over")
}

// ------------------------------------------------------------ the event stream

/// The bot `user`'s event stream, `listening` already (`Hub::listen`,
/// before its answer was sent: a seek posted right after finds it),
/// written to `out` until its reader goes, the server stops or it falls
/// silent: `gameStart` for each of the
/// account's games going on when it opens and each begun later (on any
/// instance), `gameFinish` when one of them ends, `challenge` for each
/// challenge offered to it (open when the stream opens, or made later on
/// any instance) and `challengeCanceled` when one of those goes, an empty
/// line when there is nothing else to say. Withdraws the bot's seeks made
/// here when it is the account's last event stream here.
pub(crate) async fn events(
    app: Arc<App>,
    user: UserRow,
    listening: (u64, mpsc::Receiver<String>),
    out: mpsc::Sender<String>,
    open: Open,
) {
    let _open = open;
    let (listener, mut news) = listening;
    let mut stopping = app.stopping.subscribe();
    let mut told: HashSet<String> = HashSet::new();
    // Listening to the lobby before its challenges are read: one made
    // meanwhile is heard twice at worst, never missed.
    let mut lobby_news = app.lobby.subscribe();
    let mut offered = Offered::default();
    let ongoing = app
        .store
        .list(&punct_store::ListFilter {
            user: Some(user.id.clone()),
            over: Some(false),
            limit: ONGOING_MAX,
            ..Default::default()
        })
        .await;
    let mut alive = true;
    match ongoing {
        Ok(rows) => {
            // Oldest first, as they began.
            for row in rows.iter().rev() {
                alive = alive && start(&app, &user.id, &row.id, &out, &mut told).await;
            }
        }
        Err(e) => tracing::warn!("user {}: listing its ongoing games: {e}", user.id),
    }
    match app.store.lobby().challenges(&user.id).await {
        Ok(rows) => {
            for row in rows
                .iter()
                .filter(|r| r.to_user.as_deref() == Some(&user.id))
            {
                let line = offered.offer(challenges::view(row, &user.name));
                if let Some(line) = line {
                    alive = alive && emit(&app, &out, line.line()).await;
                }
            }
        }
        Err(e) => tracing::warn!("user {}: listing its challenges: {e}", user.id),
    }
    let mut keep_alive =
        tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    while alive {
        alive = tokio::select! {
            _ = stopping.changed() => false,
            _ = out.closed() => false,
            Some(id) = news.recv() => start(&app, &user.id, &id, &out, &mut told).await,
            heard = lobby_news.recv() => match heard {
                Ok(event) => match offered.hear(&event, &user) {
                    Some(line) => emit(&app, &out, line.line()).await,
                    None => true,
                },
                // Too far behind to know what it missed: the bot reads the
                // open challenges again when its stream reopens.
                Err(broadcast::error::RecvError::Lagged(_)) => false,
                Err(broadcast::error::RecvError::Closed) => false,
            },
            _ = keep_alive.tick() => emit(&app, &out, String::new()).await,
        };
    }
    let seeks = app.bot_hub.leave(&user.id, listener);
    lobby::withdraw(&app, &seeks).await;
}

/// The challenges an event stream has told its bot of and that are still
/// open, by id: each is told once, and its going once.
#[derive(Default)]
struct Offered(HashSet<String>);

impl Offered {
    /// A challenge (its public JSON) offered to the bot: its event, unless
    /// told already.
    fn offer(&mut self, challenge: Value) -> Option<Event> {
        let id = challenge["id"].as_str()?.to_string();
        self.0.insert(id).then_some(Event::Challenge(challenge))
    }

    /// What the lobby said, as the bot `user`'s event, if it is about a
    /// challenge offered to it.
    fn hear(&mut self, event: &LobbyEvent, user: &UserRow) -> Option<Event> {
        match event {
            LobbyEvent::Challenge { to, seek } if *to == user.id => {
                let mut challenge: Value = serde_json::from_str(seek).ok()?;
                challenge["to"] = json!(user.name);
                self.offer(challenge)
            }
            LobbyEvent::Removed(id) if self.0.remove(id) => {
                Some(Event::ChallengeCanceled(json!({ "id": id })))
            }
            _ => None,
        }
    }
}

/// Tells the event stream `out` of game `id` (once) and watches for its
/// end; false when the stream is gone.
async fn start(
    app: &Arc<App>,
    user: &str,
    id: &str,
    out: &mpsc::Sender<String>,
    told: &mut HashSet<String>,
) -> bool {
    if !told.insert(id.to_string()) {
        return true;
    }
    let slot = match app.slot(id).await {
        Ok(slot) => slot,
        Err(e) => {
            tracing::warn!(
                "game {id}: reading it for a bot's event stream: {}",
                e.message
            );
            return true;
        }
    };
    // Listening before the state is read: an end just after is not missed.
    let updates = slot.updates.subscribe();
    let (line, side, over) = {
        let game = slot.game.lock().await;
        let Some(side) = seat_of(&game, user) else {
            return true;
        };
        (game_start(&game, side), side, game.is_over())
    };
    if !emit(app, out, line.line()).await {
        return false;
    }
    if over {
        let f = slot.game.lock().await.view();
        return emit(app, out, game_finish(f.fields(), side).line()).await;
    }
    tokio::spawn(watch_end(app.clone(), slot, side, updates, out.clone()));
    true
}

/// Writes `gameFinish` to `out` when the game of `slot` ends (holding the
/// game in memory meanwhile, as a live socket does, so that another
/// instance's changes reach it); gives up when the stream is gone.
async fn watch_end(
    app: Arc<App>,
    slot: Arc<Slot>,
    side: Side,
    mut updates: broadcast::Receiver<Published>,
    out: mpsc::Sender<String>,
) {
    let mut stopping = app.stopping.subscribe();
    loop {
        let published = tokio::select! {
            _ = stopping.changed() => return,
            _ = out.closed() => return,
            update = updates.recv() => match update {
                Ok(p) => p,
                Err(broadcast::error::RecvError::Lagged(_)) => Published::of(&*slot.game.lock().await),
                Err(broadcast::error::RecvError::Closed) => return,
            },
        };
        if is_over(published.fields()) {
            emit(&app, &out, game_finish(published.fields(), side).line()).await;
            return;
        }
    }
}

// ------------------------------------------------------------ the game stream

/// The game stream of `slot`'s game for the bot playing `side`: `first`
/// (its `gameFull` line, made when `updates` was already listening) was
/// written; then a `gameState` line after every change, and an empty line
/// when there is nothing else to say, until the game ends, its reader
/// goes or the server stops. While it is open the bot is present at its
/// seat, as a player whose live socket said `hello` (so its opponent
/// cannot claim the game as abandoned).
pub(crate) async fn game_stream(
    app: Arc<App>,
    (slot, side): (Arc<Slot>, Side),
    mut updates: broadcast::Receiver<Published>,
    over: bool,
    out: mpsc::Sender<String>,
    open: Open,
) {
    let _open = open;
    if over {
        return;
    }
    let mut present = Member::join(&slot.presence);
    present.hold(vec![side]);
    let mut stopping = app.stopping.subscribe();
    let mut keep_alive =
        tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    let mut version = 0;
    loop {
        let published = tokio::select! {
            _ = stopping.changed() => return,
            _ = out.closed() => return,
            _ = keep_alive.tick() => {
                if emit(&app, &out, String::new()).await {
                    continue;
                }
                return;
            }
            update = updates.recv() => match update {
                Ok(p) => p,
                // Fell behind: the state now stands for those missed.
                Err(broadcast::error::RecvError::Lagged(_)) => Published::of(&*slot.game.lock().await),
                Err(broadcast::error::RecvError::Closed) => return,
            },
        };
        let f = published.fields();
        // (A state seen already, as after a lag, is not repeated.)
        let v = at(f, "version").as_i64().unwrap_or(0);
        if v <= version {
            continue;
        }
        version = v;
        if !emit(&app, &out, game_state(f, now_ms()).to_string()).await || is_over(f) {
            return;
        }
        keep_alive.reset();
    }
}

/// Opens the game stream of game `id` for the bot `user`: the first line
/// (`gameFull`), and the stream's task to run once that line is queued.
pub(crate) async fn open_game_stream(
    app: &Arc<App>,
    user: &str,
    id: &str,
) -> Result<
    (
        String,
        (Arc<Slot>, Side),
        broadcast::Receiver<Published>,
        bool,
    ),
    ApiError,
> {
    let (slot, _) = own_game(app, user, id).await?;
    let updates = slot.updates.subscribe();
    let game = slot.game.lock().await;
    let side = seat_of(&game, user).ok_or_else(|| not_your_game(id))?;
    let view = game.view();
    let first = game_full(view.fields(), side, now_ms()).to_string();
    let over = game.is_over();
    drop(game);
    Ok((first, (slot, side), updates, over))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_state_line_counts_the_running_clock_down() {
        let f = fields(json!({
            "version": 5, "moves": ["C@B7/2"], "ply": 1, "to_move": "black", "status": "ongoing",
            "result": null, "draw_offer": null, "takeback_request": null,
            "clock": {"type": "realtime", "initial": 60, "increment": 2,
                      "white_ms": 58000, "black_ms": 60000, "running": "black", "since": 1000},
        }));
        let s = game_state(&f, 4000);
        assert_eq!(s["type"], "gameState");
        assert_eq!(
            (s["wtime"].as_i64(), s["btime"].as_i64()),
            (Some(58000), Some(57000))
        );
        assert_eq!(
            (s["winc"].as_i64(), s["binc"].as_i64()),
            (Some(2000), Some(2000))
        );
        assert_eq!(s["moves"], json!(["C@B7/2"]));
        assert_eq!(s["winner"], Value::Null);
        // Out of time is 0, never less; untimed is null.
        assert_eq!(game_state(&f, 100_000)["btime"], 0);
        let mut untimed = f.clone();
        untimed.insert("clock".into(), Value::Null);
        let s = game_state(&untimed, 4000);
        assert_eq!(
            (s["wtime"].clone(), s["winc"].clone()),
            (Value::Null, Value::Null)
        );
    }

    #[test]
    fn events_are_lines_of_their_type_and_game() {
        let f = fields(json!({"id": "g1", "ply": 9, "result": {"winner": "black"}}));
        let line: Value = serde_json::from_str(&game_finish(&f, Side::Black).line()).unwrap();
        assert_eq!(
            line,
            json!({"type": "gameFinish", "game": {"id": "g1", "side": "black", "ply": 9,
                   "result": {"winner": "black"}}})
        );
        assert_eq!(Event::GameStart(json!({})).kind(), "gameStart");
    }

    #[test]
    fn a_full_line_names_both_players_and_the_bots_side() {
        let f = fields(json!({
            "id": "g1", "variant": "standard", "mode": "online", "rated": false, "start": "standard:w:0:-",
            "white_user": "u1", "black_user": null, "version": 1, "moves": [], "ply": 0,
            "to_move": "white", "status": "ongoing", "result": null, "clock": null,
            "players": {"white": {"name": "Robo", "ai": false, "bot": true},
                        "black": {"name": "Ada", "ai": false, "bot": false}},
        }));
        let full = game_full(&f, Side::White, 0);
        assert_eq!(full["you"], "white");
        assert_eq!(
            full["white"],
            json!({"name": "Robo", "user": "u1", "bot": true, "ai": false})
        );
        assert_eq!(full["black"]["name"], "Ada");
        assert_eq!(full["clock"], Value::Null);
        assert_eq!(full["state"]["type"], "gameState");
    }
}
