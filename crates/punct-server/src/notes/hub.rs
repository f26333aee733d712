//! Notifications on this instance, without the `App` (so `app.rs`'s
//! commit and `challenges.rs` can make them without knowing the rest):
//! which notes a committed change makes ([`of_change`]), the warning of a
//! clock running low ([`time_low`]), keeping notes in the store and
//! telling the account's sockets here ([`keep`], [`deliver`]), and the
//! sockets listening per account ([`Hub`]).
//!
//! A note is kept once per event (the store's key), whichever instances
//! see it. Its account's sockets hear it from the instance holding them:
//! on PostgreSQL every instance hears the store's announcement
//! (`Change::Note`, `app::follow_changes`); on SQLite the one process
//! tells its own sockets when the store says the note is new.

use crate::clock::TimeControl;
use crate::games::LiveGame;
use punct_core::Side;
use punct_store::{EndReason, NoteRow, Storage};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Messages waiting for one account's sockets; a socket that falls
/// further behind is sent the unread count again.
const QUEUE: usize = 32;

/// The sockets of each account open here.
#[derive(Default)]
pub(crate) struct Hub {
    listeners: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
}

/// One socket's place in the hub, left when dropped.
pub(crate) struct Listener {
    hub: Arc<Hub>,
    user: String,
    pub(crate) news: broadcast::Receiver<Arc<str>>,
}

impl Hub {
    /// A socket of `user` opens here: its messages from now on.
    pub(crate) fn listen(self: &Arc<Self>, user: &str) -> Listener {
        let mut listeners = self.listeners.lock().expect("notes lock");
        let news = listeners
            .entry(user.to_string())
            .or_insert_with(|| broadcast::channel(QUEUE).0)
            .subscribe();
        Listener {
            hub: self.clone(),
            user: user.to_string(),
            news,
        }
    }

    /// Whether a socket of `user` is open here.
    pub(crate) fn listening(&self, user: &str) -> bool {
        self.listeners
            .lock()
            .expect("notes lock")
            .get(user)
            .is_some_and(|tx| tx.receiver_count() > 0)
    }

    fn send(&self, user: &str, message: Arc<str>) {
        if let Some(tx) = self.listeners.lock().expect("notes lock").get(user) {
            let _ = tx.send(message);
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let mut listeners = self.hub.listeners.lock().expect("notes lock");
        // This socket's receiver is still counted until the field drops.
        if listeners
            .get(&self.user)
            .is_some_and(|tx| tx.receiver_count() <= 1)
        {
            listeners.remove(&self.user);
        }
    }
}

/// A note as the API shows it.
pub(crate) fn view(note: &NoteRow) -> Value {
    let mut v = json!({
        "id": note.id,
        "kind": note.kind,
        "other": note.other,
        "created": note.created,
        "read": note.read.is_some(),
    });
    if note.kind == "challenge" {
        v["challenge"] = json!(note.subject);
    } else {
        v["game"] = json!(note.subject);
        v["ply"] = json!(note.ply);
    }
    v
}

/// The socket's message of `user`'s unread count, with the new note if any.
pub(crate) fn message(note: Option<&NoteRow>, unread: u64) -> Value {
    match note {
        Some(n) => json!({"type": "notification", "notification": view(n), "unread": unread}),
        None => json!({"type": "unread", "unread": unread}),
    }
}

/// Keeps `notes` (each once per event), telling the accounts' sockets of
/// the new ones where nothing else will (SQLite); a failure is logged, the
/// change that made them stands.
pub(crate) async fn keep(store: &dyn Storage, hub: &Hub, notes: Vec<NoteRow>) {
    for note in notes {
        let user = note.user.clone();
        match store.notes().add_note(note).await {
            Ok(Some(id)) if store.changes().is_none() => deliver(store, hub, &user, Some(id)).await,
            Ok(_) => {}
            Err(e) => tracing::warn!("keeping a notification: {e}"),
        }
    }
}

/// Tells `user`'s sockets here of note `id` (new) or of their unread count
/// (`None`: some were read), if any are open here.
pub(crate) async fn deliver(store: &dyn Storage, hub: &Hub, user: &str, id: Option<i64>) {
    if !hub.listening(user) {
        return;
    }
    let note = match id {
        Some(id) => match store.notes().note(user, id).await {
            Ok(note) => note,
            Err(e) => {
                tracing::warn!("reading a notification: {e}");
                return;
            }
        },
        None => None,
    };
    match store.notes().unread(user).await {
        Ok(unread) => hub.send(user, message(note.as_ref(), unread).to_string().into()),
        Err(e) => tracing::warn!("counting notifications: {e}"),
    }
}

/// The account of `side`'s seat, if a person holds it (not a bot).
fn person(game: &LiveGame, side: Side) -> Option<&str> {
    game.user(side).filter(|_| !game.bots[side.index()])
}

fn name(game: &LiveGame, side: Side) -> Option<String> {
    match side {
        Side::White => game.row.white_name.clone(),
        Side::Black => game.row.black_name.clone(),
    }
}

fn note(game: &LiveGame, user: &str, kind: &str, other: Side, now: i64) -> NoteRow {
    NoteRow {
        user: user.to_string(),
        kind: kind.to_string(),
        subject: game.row.id.clone(),
        ply: game.row.plies,
        other: name(game, other),
        created: now,
        ..NoteRow::default()
    }
}

/// The notes a committed change (`before` → `after`) makes:
/// - `game_over` for each person's seat of a game that just ended, but
///   not for the player whose own act ended it (a resignation, the claim
///   of an abandoned game, the move that ended it): they know;
/// - `your_turn` for the person to move in a correspondence game after a
///   move (only there: a real-time game's players are at the board).
pub(crate) fn of_change(before: &LiveGame, after: &LiveGame, now: i64) -> Vec<NoteRow> {
    let mut notes = Vec::new();
    let moved = after.row.plies != before.row.plies;
    if after.is_over() && !before.is_over() {
        let ended_by = match after.row.end.map(|e| e.reason) {
            Some(EndReason::Resignation(side)) => Some(side),
            Some(EndReason::Abandonment(left)) => Some(left.opponent()),
            Some(_) => None,
            // Ended on the board: by the last move's player.
            None if moved => Some(after.position().side_to_move().opponent()),
            None => None,
        };
        // (One account at both seats is the one who ended it.)
        let ender = ended_by.and_then(|side| after.user(side));
        for side in [Side::White, Side::Black] {
            if Some(side) == ended_by || (ender.is_some() && after.user(side) == ender) {
                continue;
            }
            if let Some(user) = person(after, side) {
                notes.push(note(after, user, "game_over", side.opponent(), now));
            }
        }
    } else if moved && !after.is_over() && correspondence(after) {
        let to_move = after.position().side_to_move();
        if let Some(user) = person(after, to_move) {
            notes.push(note(after, user, "your_turn", to_move.opponent(), now));
        }
    }
    notes
}

fn correspondence(game: &LiveGame) -> bool {
    matches!(
        game.time_control(),
        Some(TimeControl::Correspondence { .. })
    )
}

/// The warning to the person to move in a correspondence game whose
/// clock runs low at `now`: less than `limit_ms` left, or less than
/// `percent` of the time per move if that is less. One per turn (its
/// ply is the key's).
pub(crate) fn time_low(game: &LiveGame, now: i64, limit_ms: i64, percent: u32) -> Option<NoteRow> {
    let Some(TimeControl::Correspondence { days }) = game.time_control() else {
        return None;
    };
    if game.is_over() {
        return None;
    }
    // Only while the clock runs (both seats taken, the game going on).
    game.clock_deadline()?;
    let per_move = i64::from(days) * 86_400_000;
    let threshold = limit_ms.min(per_move * i64::from(percent) / 100);
    let left = game.time_left(now)?;
    if left <= 0 || left >= threshold {
        return None;
    }
    let to_move = game.position().side_to_move();
    let user = person(game, to_move)?;
    Some(note(game, user, "time_low", to_move.opponent(), now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::now_ms;
    use punct_core::{Position, Variant};
    use punct_store::{GameRow, Mode};

    /// An online game between accounts `ann` (White, token `w`) and `bob`
    /// (Black, `b`), with `clock`.
    fn game(clock: Option<TimeControl>) -> LiveGame {
        let start = Position::new(Variant::Standard);
        let mut g = LiveGame::new(
            GameRow {
                id: "g1".into(),
                variant: "standard".into(),
                mode: Mode::Online,
                start: start.to_position_string(),
                white_token: Some("w".into()),
                black_token: Some("b".into()),
                white_user: Some("ann".into()),
                black_user: Some("bob".into()),
                white_name: Some("Ann".into()),
                black_name: Some("Bob".into()),
                version: 1,
                ..GameRow::default()
            },
            start,
        )
        .unwrap();
        g.set_time_control(clock);
        g
    }

    fn first_move(g: &LiveGame) -> String {
        g.position().legal_moves()[0].to_string()
    }

    fn kinds(notes: &[NoteRow]) -> Vec<(&str, &str, i64)> {
        notes
            .iter()
            .map(|n| (n.user.as_str(), n.kind.as_str(), n.ply))
            .collect()
    }

    const DAYS: Option<TimeControl> = Some(TimeControl::Correspondence { days: 1 });

    #[test]
    fn a_correspondence_move_tells_the_player_to_move_only() {
        let before = game(DAYS);
        let mut after = before.clone();
        after.play("w", &first_move(&before), None).unwrap();
        let notes = of_change(&before, &after, 5);
        assert_eq!(kinds(&notes), [("bob", "your_turn", 1)]);
        assert_eq!(notes[0].other.as_deref(), Some("Ann"));
        // A real-time game's, an untimed game's: none.
        for clock in [
            Some(TimeControl::Realtime {
                initial: 60,
                increment: 0,
            }),
            None,
        ] {
            let before = game(clock);
            let mut after = before.clone();
            after.play("w", &first_move(&before), None).unwrap();
            assert!(of_change(&before, &after, 5).is_empty());
        }
        // A bot to move hears nothing.
        let mut before = game(DAYS);
        before.bots = [false, true];
        let mut after = before.clone();
        after.play("w", &first_move(&before), None).unwrap();
        assert!(of_change(&before, &after, 5).is_empty());
    }

    #[test]
    fn a_resignation_tells_the_opponent_only() {
        let before = game(None);
        let mut after = before.clone();
        after.resign("b").unwrap();
        let notes = of_change(&before, &after, 5);
        assert_eq!(kinds(&notes), [("ann", "game_over", 0)]);
        assert_eq!(notes[0].other.as_deref(), Some("Bob"));
        // A change that is not the end: nothing more.
        assert!(of_change(&after, &after.clone(), 6).is_empty());
    }

    #[test]
    fn a_clock_running_low_warns_the_player_to_move_once_below_the_threshold() {
        let mut g = game(DAYS);
        let now = now_ms();
        // 20 % of a day is 4.8 h, less than 12 h: the threshold.
        g.row.clock_since = Some(now - 19 * 3_600_000);
        assert_eq!(time_low(&g, now, 12 * 3_600_000, 20), None, "5 h left");
        g.row.clock_since = Some(now - 20 * 3_600_000);
        let note = time_low(&g, now, 12 * 3_600_000, 20).expect("4 h left");
        assert_eq!(kinds(&[note]), [("ann", "time_low", 0)]);
        // Run out: the flag's, not a warning.
        g.row.clock_since = Some(now - 25 * 3_600_000);
        assert_eq!(time_low(&g, now, 12 * 3_600_000, 20), None);
        // No clock running (the game not begun), or over: none.
        g.row.clock_since = None;
        assert_eq!(time_low(&g, now, 12 * 3_600_000, 100), None);
    }
}
