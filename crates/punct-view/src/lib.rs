//! A position as the page draws it. The server sends these fields in a
//! game's state; the page's WebAssembly build (`punct-wasm`) makes the same
//! fields from a move it applies itself, so both come from this one place
//! and cannot drift apart.

use punct_core::{Cell, Kind, Move, Position, Side};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

pub mod analysis;
pub mod date;
pub mod learn;

/// The fields that describe the board of `pos`: the variant, the position
/// string, who is to move and whether it is over, the reserves, the central
/// counts, the pieces (each with its cells, level, whether it bridges a gap
/// and whether a legal move moves it) and the stacks cell by cell. Returned
/// with the legal moves (none when `over`), which callers write as they
/// need them.
pub fn board(pos: &Position, over: bool) -> (Map<String, Value>, Vec<Move>) {
    let legal: Vec<Move> = if over { Vec::new() } else { pos.legal_moves() };
    let movable: HashSet<Cell> = legal
        .iter()
        .filter_map(|m| match m {
            Move::Relocate { from, .. } => Some(*from),
            _ => None,
        })
        .collect();
    let pieces: Vec<Value> = pos
        .pieces()
        .iter()
        .map(|p| {
            json!({
                "side": p.side.name(),
                "kind": p.kind.to_string(),
                "punct": p.placement.punct.to_string(),
                "rotation": p.placement.rotation,
                "level": p.placement.level,
                "cells": p.cells.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                "bridge": pos.is_bridge(p),
                "movable": movable.contains(&p.placement.punct)
                    && pos.top_piece(p.placement.punct).is_some_and(|t| t == *p),
            })
        })
        .collect();
    let mut stacks = Map::new();
    for cell in Cell::all() {
        let dots = pos.stack(cell);
        if !dots.is_empty() {
            let dots = dots.iter().map(|d| {
                json!({
                    "side": d.side.name(),
                    "kind": d.kind.to_string(),
                    "level": d.level,
                    "punct": d.is_punct,
                })
            });
            stacks.insert(cell.to_string(), Value::Array(dots.collect()));
        }
    }
    let reserve = |side: Side| {
        let mut m = Map::new();
        for k in Kind::ALL {
            m.insert(k.to_string(), json!(pos.reserve(side, k)));
        }
        Value::Object(m)
    };
    let Value::Object(fields) = json!({
        "variant": pos.variant().name(),
        "position": pos.to_position_string(),
        "to_move": if over { Value::Null } else { json!(pos.side_to_move().name()) },
        "status": if over { "over" } else { "ongoing" },
        "reserves": {"white": reserve(Side::White), "black": reserve(Side::Black)},
        "central": {
            "white": pos.central_count(Side::White),
            "black": pos.central_count(Side::Black),
        },
        "pieces": pieces,
        "stacks": stacks,
    }) else {
        unreachable!("a JSON object")
    };
    (fields, legal)
}

/// How the rules ended the game in `pos` (a connection, the central
/// count, a draw), as a state's `result` shows it, or `None` while it
/// goes on. Ends that are not on the board (a resignation, the clock) are
/// the server's.
pub fn board_result(pos: &Position) -> Option<Value> {
    use punct_core::{Outcome, Status, Variant};
    let status = pos.status();
    if !status.is_over() {
        return None;
    }
    let outcome = Outcome::from_status(status);
    let winner = match status {
        Status::Won(side) => json!(side.name()),
        _ => Value::Null,
    };
    let central = json!({
        "white": pos.central_count(Side::White),
        "black": pos.central_count(Side::Black),
    });
    let count = format!(
        "{}–{}",
        pos.central_count(Side::White),
        pos.central_count(Side::Black)
    );
    Some(match status {
        Status::Won(side) => match pos.connection(side) {
            Some(c) => {
                let (a, b) = c.sides;
                json!({
                    "score": outcome.token(),
                    "winner": winner,
                    "reason": "connection",
                    "sides": [a.name(), b.name()],
                    "chain": c.cells.cells().map(|x| x.to_string()).collect::<Vec<_>>(),
                    "text": format!("{side} connects {} and {}", a.name(), b.name()),
                })
            }
            None => json!({
                "score": outcome.token(),
                "winner": winner,
                "reason": "central count",
                "central": central,
                "text": format!("no connection: {side} wins the central count {count}"),
            }),
        },
        _ => {
            let basic = pos.variant() == Variant::Basic;
            json!({
                "score": outcome.token(),
                "winner": Value::Null,
                "reason": if basic { "no connection" } else { "central count" },
                "central": central,
                "text": if basic {
                    "no connection: a draw".to_string()
                } else {
                    format!("no connection: the central count is tied {count}")
                },
            })
        }
    })
}

/// The legal moves grouped, about a third of their list's size: additions
/// under `"T/0"` (kind and rotation) as the cells of their PÜNCT
/// (`"B3 C4 …"`), every other move under `"moves"` (`"G5-G9/4 G5-G5/3 …"`,
/// or `"pass"`). The page's `legal_compact`.
pub fn compact_legal(legal: &[Move]) -> BTreeMap<String, String> {
    let mut groups: BTreeMap<String, String> = BTreeMap::new();
    let mut key = String::new();
    for m in legal {
        key.clear();
        let text = match *m {
            Move::Add {
                kind,
                punct,
                rotation,
            } => {
                let _ = write!(key, "{kind}/{rotation}");
                punct.to_string()
            }
            other => {
                key.push_str("moves");
                other.to_string()
            }
        };
        let group = match groups.get_mut(key.as_str()) {
            Some(g) => {
                g.push(' ');
                g
            }
            None => groups.entry(key.clone()).or_default(),
        };
        group.push_str(&text);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Variant;

    #[test]
    fn the_start_has_every_addition_grouped_and_no_piece() {
        let pos = Position::new(Variant::Standard);
        let (fields, legal) = board(&pos, false);
        assert_eq!(fields["to_move"], "white");
        assert_eq!(fields["pieces"], json!([]));
        assert_eq!(fields["reserves"]["white"]["T"], 6);
        let groups = compact_legal(&legal);
        let listed: usize = groups.values().map(|g| g.split(' ').count()).sum();
        assert_eq!(listed, legal.len());
        assert!(!groups.contains_key("moves"), "nothing to move yet");
    }

    #[test]
    fn a_piece_on_the_board_is_listed_with_its_stack_and_moves() {
        let mut pos = Position::new(Variant::Standard);
        pos.play("E@C5/2".parse().unwrap()).unwrap();
        pos.play("T@O12/0".parse().unwrap()).unwrap();
        let (fields, legal) = board(&pos, false);
        let piece = &fields["pieces"][0];
        assert_eq!(piece["punct"], "C5");
        assert_eq!(piece["movable"], true);
        assert_eq!(fields["stacks"]["C5"][0]["punct"], true);
        let groups = compact_legal(&legal);
        assert!(groups["moves"].split(' ').any(|m| m.starts_with("C5-")));
        let (over, none) = board(&pos, true);
        assert_eq!(over["status"], "over");
        assert!(none.is_empty());
    }
}
