//! A live game's change as a move, not a state: what a watcher that holds
//! the state before needs to make the state after with its own rules (the
//! page's WebAssembly). The board (pieces, stacks, reserves, legal moves)
//! follows from the moves, so it is never sent; everything else that
//! changed is. A change a watcher cannot follow that way — the game's
//! end, a different start — gets the full state instead.

use serde_json::{json, Map, Value};

/// The fields a watcher derives from the start and the moves (punct-view's
/// board, and the legal moves in any form), and those the update names
/// itself.
const DERIVED: &[&str] = &[
    "variant",
    "position",
    "to_move",
    "status",
    "reserves",
    "central",
    "pieces",
    "stacks",
    "legal_moves",
    "legal_compact",
    "moves",
    "ply",
    "last_move",
    "version",
];

/// The update that takes a watcher from `before` to `after` (both a
/// state's fields, legal moves left out): `{"type": "update", "version",
/// "previous", "ply", "move"?, "changes"}`, where `move` is the one move
/// played (absent when none was, or when moves were taken back: `ply` is
/// then lower) and `changes` every other field whose value changed (a
/// field gone is null). `None` when the watcher needs the whole state:
/// either state is over or a replay, the start or variant differs, or
/// the moves are neither the same, one more, nor fewer.
pub(crate) fn update(before: &Map<String, Value>, after: &Map<String, Value>) -> Option<String> {
    let ongoing = |s: &Map<String, Value>| {
        s.get("status").and_then(Value::as_str) == Some("ongoing") && s.get("replay").is_none()
    };
    if !ongoing(before) || !ongoing(after) {
        return None;
    }
    for key in ["start", "variant", "id"] {
        if before.get(key) != after.get(key) {
            return None;
        }
    }
    let moves = |s: &Map<String, Value>| s.get("moves").and_then(Value::as_array).cloned();
    let (old, new) = (moves(before)?, moves(after)?);
    let played = if new.len() == old.len() + 1 && new.starts_with(&old) {
        new.last().cloned()
    } else if new.len() <= old.len() && old.starts_with(&new) {
        None
    } else {
        return None;
    };
    let mut changes = Map::new();
    for (key, value) in after {
        if !DERIVED.contains(&key.as_str()) && before.get(key) != Some(value) {
            changes.insert(key.clone(), value.clone());
        }
    }
    for key in before.keys() {
        if !DERIVED.contains(&key.as_str()) && !after.contains_key(key) {
            changes.insert(key.clone(), Value::Null);
        }
    }
    let mut message = json!({
        "type": "update",
        "version": after.get("version")?,
        "previous": before.get("version")?,
        "ply": new.len(),
        "changes": changes,
    });
    if let Some(mv) = played {
        message["move"] = mv;
    }
    Some(message.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(version: i64, moves: &[&str], extra: Value) -> Map<String, Value> {
        let mut s = json!({
            "id": "g1", "start": "standard:w:0:-", "variant": "standard",
            "status": "ongoing", "version": version, "moves": moves, "ply": moves.len(),
            "pieces": [{"punct": moves.len()}], "position": format!("p{}", moves.len()),
            "draw_offer": null, "updated": version * 10,
        });
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        s.as_object().unwrap().clone()
    }

    fn parse(text: Option<String>) -> Value {
        serde_json::from_str(&text.expect("an update")).unwrap()
    }

    #[test]
    fn a_move_is_sent_as_the_move_and_what_else_changed() {
        let before = state(3, &["E@C5/2"], json!({"draw_offer": "white"}));
        let after = state(4, &["E@C5/2", "T@O12/0"], json!({}));
        let u = parse(update(&before, &after));
        assert_eq!(u["move"], "T@O12/0");
        assert_eq!(
            (u["version"].as_i64(), u["previous"].as_i64()),
            (Some(4), Some(3))
        );
        assert_eq!(u["ply"], 2);
        // The offer lapsed and the time moved; the board is not sent.
        assert_eq!(u["changes"], json!({"draw_offer": null, "updated": 40}));
    }

    #[test]
    fn an_offer_changes_no_board_and_a_takeback_names_the_ply() {
        let before = state(3, &["E@C5/2", "T@O12/0"], json!({}));
        let offer = state(4, &["E@C5/2", "T@O12/0"], json!({"draw_offer": "black"}));
        let u = parse(update(&before, &offer));
        assert!(u.get("move").is_none());
        assert_eq!(u["changes"]["draw_offer"], "black");
        let back = state(5, &["E@C5/2"], json!({}));
        let u = parse(update(&offer, &back));
        assert_eq!(u["ply"], 1);
        assert!(u.get("move").is_none());
        // A field gone is null.
        let mut gone = state(6, &["E@C5/2"], json!({}));
        gone.remove("draw_offer");
        assert_eq!(
            parse(update(&back, &gone))["changes"]["draw_offer"],
            Value::Null
        );
    }

    #[test]
    fn what_a_watcher_cannot_follow_is_a_whole_state() {
        let before = state(3, &["E@C5/2"], json!({}));
        let two = state(4, &["E@C5/2", "T@O12/0", "C@B7/2"], json!({}));
        assert!(update(&before, &two).is_none(), "two moves at once");
        let other = state(4, &["T@O12/0", "C@B7/2"], json!({}));
        assert!(update(&before, &other).is_none(), "different moves");
        let over = state(4, &["E@C5/2"], json!({"status": "over"}));
        assert!(update(&before, &over).is_none(), "the game's end");
        let start = state(4, &["E@C5/2"], json!({"start": "basic:w:0:-"}));
        assert!(update(&before, &start).is_none(), "another start");
    }
}
