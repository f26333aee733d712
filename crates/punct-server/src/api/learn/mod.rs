//! Learning the game over HTTP: the rules page's diagrams, the tutorial's
//! lessons and the puzzles of `punct-learn` (judged there, not in the
//! page), each part with its own routes under `/api/learn/…`; the
//! positions they show are drawn from the states built here.

mod diagrams;
mod puzzles;
mod tutorial;

use super::Route;
use crate::view::position_view;
use punct_core::{Move, Position, Side, Status, Variant};
use serde_json::{json, Value};

pub(crate) fn routes() -> Vec<Route> {
    let mut all = diagrams::routes();
    all.extend(tutorial::routes());
    all.extend(puzzles::routes());
    all
}

/// The state of `pos` as a game's shows it after `last` (the move just
/// played, outlined; `None`: none), with its result; `with_legal`: the
/// legal moves too.
fn played_state(pos: &Position, last: Option<Move>, with_legal: bool) -> Value {
    let mut state = position_view(pos);
    state.set("last_move", json!(last.map(|m| m.to_string())));
    state.set("result", result_json(pos));
    state.into_value(with_legal)
}

/// How the game ended in `pos` (null while it goes on): the winner and, for
/// a connection, the two sides joined and the chain (the board draws it);
/// for the end by count, the central count.
fn result_json(pos: &Position) -> Value {
    let central = json!({
        "white": pos.central_count(Side::White),
        "black": pos.central_count(Side::Black),
    });
    match pos.status() {
        Status::Ongoing => Value::Null,
        Status::Won(side) => match pos.connection(side) {
            Some(c) => json!({
                "winner": side.name(),
                "reason": "connection",
                "sides": [c.sides.0.name(), c.sides.1.name()],
                "chain": c.cells.cells().map(|x| x.to_string()).collect::<Vec<_>>(),
            }),
            None => json!({"winner": side.name(), "reason": "central count", "central": central}),
        },
        Status::Draw => json!({
            "winner": Value::Null,
            "reason": if pos.variant() == Variant::Basic { "no connection" } else { "central count" },
            "central": central,
        }),
    }
}
