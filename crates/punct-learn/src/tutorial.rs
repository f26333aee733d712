//! The tutorial behind `/learn`: the lessons and their judge.
//!
//! Each lesson is a real position, reached by legal moves from the empty
//! board (the tests replay them), in which White — the learner — is asked
//! for one move that shows one rule or idea: add a piece, turn it, move it
//! along a line, jump on top, cover a piece, bridge a gap, connect, block,
//! win on the central count. The judge here decides, with the rules crate
//! and by the outcome of the move rather than by a stored answer, whether
//! the move does what the lesson asks; every right move is accepted. A
//! wrong one gets a message code (`tutorial.…`, texts in the page's
//! catalogue) with its parameters: for an illegal move the rule it breaks
//! (`tutorial.illegal.<IllegalMove::code>`), for a legal one what it
//! misses ("C4 is still empty", "Black can still win with L@D12/4").

use punct_core::{Edge, IllegalMove, Move, PieceView, Position, Side, Status};
use punct_engine::puzzle::winning_moves;
use punct_engine::tactics::move_footprint;
use serde_json::{json, Map, Value};

// ------------------------------------------------------------ lessons

/// What a lesson asks of the learner's one move.
#[derive(Clone, Copy, Debug)]
pub enum Goal {
    /// Add a piece with a dot on one of the six sides.
    AddOnSide,
    /// Add a piece so that all these cells show the mover's colour.
    Fill(&'static [&'static str]),
    /// Move a piece already on the board so that a dot covers the cell.
    Reach(&'static str),
    /// Turn a piece in place (its PÜNCT stays) so that a dot covers the cell.
    TurnInPlace(&'static str),
    /// Move a piece on top of others so that it covers the cell.
    JumpOnto(&'static str),
    /// Cover a dot of the opponent's piece seen on the cell, so it cannot move.
    Pin(&'static str),
    /// Move a piece so that it bridges a gap.
    Bridge,
    /// Win at once by connecting two opposite sides.
    Win,
    /// Leave the opponent no move that wins at once.
    Block,
    /// End the game now and win it on the central count.
    CentralWin,
}

impl Goal {
    /// Whether the lesson is about moving a piece already on the board.
    fn wants_relocation(self) -> bool {
        matches!(
            self,
            Goal::Reach(_) | Goal::TurnInPlace(_) | Goal::JumpOnto(_) | Goal::Bridge
        )
    }

    /// Whether the lesson is about adding a piece.
    fn wants_add(self) -> bool {
        matches!(self, Goal::AddOnSide | Goal::Fill(_))
    }
}

pub struct Lesson {
    /// The lesson's name in addresses (`/learn/<id>`) and message keys
    /// (`tutorial.lesson.<id>.title`, `.goal`, `.hint`, `.done`).
    pub id: &'static str,
    /// The position (a position string, docs/NOTATION.md).
    pub position: &'static str,
    /// Moves from the empty board of the standard game that reach
    /// `position`: the tests replay them, so the position can occur.
    pub moves: &'static str,
    /// Cells the page marks on the board: the ones the goal names.
    pub marks: &'static [&'static str],
    /// One right answer (the page's "show me"; the tests check it is right).
    pub example: &'static str,
    pub goal: Goal,
}

/// The lessons, in order. White is always the learner.
pub const LESSONS: &[Lesson] = &[
    // An empty board: any addition outside the central hexagon that
    // touches one of the six coloured sides.
    Lesson {
        id: "add",
        position: "standard:w:0:-",
        moves: "",
        marks: &[],
        example: "T@A5/3",
        goal: Goal::AddOnSide,
    },
    // Three empty cells in a row between two white pieces: only a straight
    // piece turned along the row fills them (C@D4/2, E@C4/5, E@E4/2).
    Lesson {
        id: "rotate",
        position: "standard:w:0:wT@B4/0,wT@F4/3,bT@M12/0,bE@N9/0",
        moves: "T@B4/0 T@M12/0 T@F4/3 E@N9/0",
        marks: &["C4", "D4", "E4"],
        example: "E@C4/5",
        goal: Goal::Fill(&["C4", "D4", "E4"]),
    },
    // C4 is far down column C from the E piece's PÜNCT on C10.
    Lesson {
        id: "reach",
        position: "standard:w:0:wE@C10/5,bT@E5/0,wT@F3/0,bC@K14/0",
        moves: "E@C10/5 T@E5/0 T@F3/0 C@K14/0",
        marks: &["C4"],
        example: "C10-C4/0",
        goal: Goal::Reach("C4"),
    },
    // The E piece on D8 covers C7 only turned in place to rotation 1.
    Lesson {
        id: "turn",
        position: "standard:w:0:wT@B3/0,bT@C5/0,wE@D8/5,bE@E11/3",
        moves: "T@B3/0 T@C5/0 E@D8/5 E@E11/3",
        marks: &["C7"],
        example: "D8-D8/1",
        goal: Goal::TurnInPlace("C7"),
    },
    // The T on L8 lands flat on G3 (white), F2 and F3 (black): the PÜNCT
    // on its own colour, the minor dots on the opponent's.
    Lesson {
        id: "jump",
        position: "standard:w:0:bE@D7/0,bT@F3/0,wE@G3/0,wT@L8/0",
        moves: "E@G3/0 E@D7/0 T@L8/0 T@F3/0",
        marks: &["F3"],
        example: "L8-G3/1",
        goal: Goal::JumpOnto("F3"),
    },
    // Black's E on M14: the white E from L6 lies flat on L13, M14 and N15.
    // White's own E on N11 is covered by Black's T on P12 and cannot move.
    Lesson {
        id: "pin",
        position: "standard:w:0:wE@L6/0,wT@L13/2,bE@M14/4,wE@N11/5,bE@P12/2,bT@P12/1^1",
        moves: "E@L6/0 E@M14/4 T@L13/2 E@P12/2 E@C11/0 T@D12/4 C11-N11/5 D12-P12/1",
        marks: &["M14"],
        example: "L6-L13/4",
        goal: Goal::Pin("M14"),
    },
    // The E on F4 spans L5 from K4 to M6 (F4-K4/4), or J4 from K4 to I4.
    Lesson {
        id: "bridge",
        position: "standard:w:0:wE@F4/0,bE@I4/0,wT@K4/0,bT@M6/3,bT@N10/0",
        moves: "E@F4/0 E@I4/0 T@A4/3 T@M6/3 A4-K4/0 T@N10/0",
        marks: &["L5"],
        example: "F4-K4/4",
        goal: Goal::Bridge,
    },
    // White's chain runs from column A to O11; one more piece reaches
    // column Q (44 additions win).
    Lesson {
        id: "connect",
        position: "standard:w:0:wE@A6/5,wE@D6/5,bT@D8/0,wE@G6/4,bE@H4/0,wE@J9/4,bE@K6/5,bT@L13/0,wC@N11/2,bM@P13/0",
        moves: "E@A6/5 T@D8/0 E@D6/5 E@H4/0 E@B1/3 E@K6/5 B1-G6/4 T@L13/0 E@B1/3 M@P13/0 B1-J9/4 D8-D8/1 C@N11/2 D8-D8/0",
        marks: &[],
        example: "T@P11/5",
        goal: Goal::Win,
    },
    // White's chain up column H is cut by Black's T on H11; a white piece
    // lying on top of it wins (D10-H10/2, D10-H10/3).
    Lesson {
        id: "top",
        position: "standard:w:0:bE@C4/0,wT@D10/0,bE@G10/3,wE@H1/3,wE@H4/3,wE@H7/3,wL@H10/1,bT@H11/4,wC@H13/0,wT@H15/1,wR@H16/1,bE@J5/0,bT@K14/0,bL@N8/0",
        moves: "T@D10/0 E@C4/0 E@H1/3 E@G10/3 E@H4/3 T@A4/3 E@A7/5 A4-H11/4 A7-H7/3 E@J5/0 L@A3/3 T@K14/0 A3-H10/1 L@A8/5 C@H13/0 A8-N8/0 T@H15/1 C4-C4/1 R@H16/1 C4-C4/0",
        marks: &["H11"],
        example: "D10-H10/3",
        goal: Goal::Win,
    },
    // Black's chain from M5 ends on G13 and wins by covering F13, E13 and
    // D12; White takes those cells first (or breaks the chain).
    Lesson {
        id: "block",
        position: "standard:w:0:wE@D5/0,wT@F12/1,wT@G14/2,bC@H13/2,wT@H14/3,wT@K7/0,bE@L13/2,bE@M5/3,bE@M8/3,bE@M11/3",
        moves: "E@D5/0 C@H13/2 T@F12/1 E@L13/2 T@G14/2 E@M5/3 T@H14/3 E@M8/3 T@K7/0 E@M11/3",
        marks: &[],
        example: "R@F13/4",
        goal: Goal::Block,
    },
    // White has one piece left and leads the central count 6 to 5: adding
    // it ends the game and wins.
    Lesson {
        id: "central",
        position: "standard:w:0:wT@B4/0,bT@C8/0,bT@D5/0,wE@D10/0,wC@F2/1,bT@F7/0,wE@F12/0,bT@G7/5,bE@G12/0,wE@H8/3,bE@I4/0,wT@J11/1,bE@J15/2,bE@K9/3,bC@L6/0,wM@L15/0,wL@N7/0,bT@N12/0,wT@O11/0,wR@P13/0,wT@B4/0^1,wE@D10/0^1,wC@F2/1^1,wM@L15/0^1,wL@N7/0^1,wT@O11/0^1,wR@P13/0^1",
        moves: "T@B4/0 T@C8/0 E@D10/0 T@D5/0 C@F2/1 T@F7/0 E@F12/0 T@A7/3 E@B2/5 A7-G7/5 B2-H8/3 E@G12/0 T@C11/0 E@I4/0 C11-J11/1 E@J15/2 M@L15/0 E@B9/4 L@N7/0 B9-K9/3 T@O11/0 C@L6/0 R@P13/0 T@N12/0 T@A4/3 C8-C8/1 A4-B4/0 C8-C8/0 E@A7/0 C8-C8/1 A7-D10/0 C8-C8/0 C@B2/2 C8-C8/1 B2-F2/1 C8-C8/0 M@B5/0 C8-C8/1 B5-L15/0 C8-C8/0 L@A7/3 C8-C8/1 A7-N7/0 C8-C8/0 T@C11/0 C8-C8/1 C11-O11/0 C8-C8/0 R@D1/0 C8-C8/1 D1-P13/0 C8-C8/0",
        marks: &[],
        example: "T@B6/0",
        goal: Goal::CentralWin,
    },
];

pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

impl Lesson {
    /// The lesson's position.
    pub fn start(&self) -> Position {
        Position::from_position_string(self.position).expect("a lesson's position is valid")
    }
}

// ------------------------------------------------------------ the judge

/// The judge's answer: right or not, a message code (`tutorial.…`) with
/// its parameters, and for some wrong moves the opponent's answer that
/// shows what is wrong (the page draws it).
#[derive(Debug)]
pub struct Judgement {
    pub correct: bool,
    pub code: String,
    pub params: Map<String, Value>,
    pub reply: Option<Move>,
}

fn verdict(correct: bool, code: String, params: Value) -> Judgement {
    let Value::Object(params) = params else {
        unreachable!("params are an object")
    };
    Judgement {
        correct,
        code,
        params,
        reply: None,
    }
}

fn wrong(code: &str, params: Value) -> Judgement {
    verdict(false, format!("tutorial.wrong.{code}"), params)
}

fn cell(name: &str) -> punct_core::Cell {
    name.parse().expect("a lesson's cells are cells")
}

/// Why an illegal move is illegal: `tutorial.illegal.<IllegalMove::code>`
/// with the reason's parameters, and for the two rules about heights the
/// three target cells too (`c1`, `c2`, `c3`, in the order of `h1`–`h3`).
pub fn illegal(pos: &Position, mv: Move, e: &IllegalMove) -> Judgement {
    let mut params = Map::new();
    for (name, value) in e.params() {
        params.insert(name.to_string(), Value::String(value));
    }
    if matches!(
        e,
        IllegalMove::Uneven { .. } | IllegalMove::TriangleBridge { .. }
    ) {
        if let Some(cells) = move_footprint(pos, mv) {
            for (i, c) in cells.iter().enumerate() {
                params.insert(format!("c{}", i + 1), Value::String(c.to_string()));
            }
        }
    }
    Judgement {
        correct: false,
        code: format!("tutorial.illegal.{}", e.code()),
        params,
        reply: None,
    }
}

/// The piece a relocation to `to` put there (its PÜNCT is on top of `to`).
fn moved_piece(after: &Position, to: punct_core::Cell) -> PieceView {
    after
        .top_piece(to)
        .expect("a relocated piece's PÜNCT is on top of its cell")
}

/// Judges the learner's move `mv` in the lesson's position `pos`; also
/// answers the position after it when it is legal.
pub fn judge(lesson: &Lesson, pos: &Position, mv: Move) -> (Judgement, Option<Position>) {
    let goal = lesson.goal;
    match mv {
        Move::Add { .. } if goal.wants_relocation() => {
            return (wrong("not_a_move", json!({})), None)
        }
        Move::Relocate { .. } if goal.wants_add() => return (wrong("not_an_add", json!({})), None),
        _ => {}
    }
    if let Err(e) = pos.check_move(mv) {
        return (illegal(pos, mv, &e), None);
    }
    let mut after = pos.clone();
    after.make(mv);
    let verdict = outcome(lesson, pos, mv, &after);
    (verdict, Some(after))
}

/// Whether the legal move `mv` (giving `after`) does what the lesson asks.
fn outcome(lesson: &Lesson, pos: &Position, mv: Move, after: &Position) -> Judgement {
    let me = pos.side_to_move();
    let done = || {
        verdict(
            true,
            format!("tutorial.lesson.{}.done", lesson.id),
            json!({}),
        )
    };
    if after.status() == Status::Won(me.opponent()) {
        // Lifting a piece uncovered the opponent's chain.
        return wrong("gave_win", json!({}));
    }
    let mine = |c: &str| after.visible_side(cell(c)) == Some(me);
    match lesson.goal {
        Goal::AddOnSide => {
            let cells = move_footprint(pos, mv).expect("a legal addition fits");
            let on_side = cells.iter().any(|&c| {
                Edge::PAIRS
                    .iter()
                    .any(|&(a, b)| a.contains(c) || b.contains(c))
            });
            if on_side {
                done()
            } else {
                wrong("not_on_side", json!({}))
            }
        }
        Goal::Fill(cells) => {
            let missing: Vec<&str> = cells.iter().copied().filter(|c| !mine(c)).collect();
            if missing.is_empty() {
                done()
            } else {
                wrong(
                    "not_filled",
                    json!({"cells": missing.join(", "), "count": missing.len()}),
                )
            }
        }
        Goal::Reach(target) => {
            if mine(target) {
                done()
            } else {
                wrong("not_covering", json!({"cell": target}))
            }
        }
        Goal::TurnInPlace(target) => {
            let Move::Relocate { from, to, .. } = mv else {
                unreachable!("only relocations get here")
            };
            if from != to {
                wrong("punct_moved", json!({"cell": from.to_string()}))
            } else if mine(target) {
                done()
            } else {
                wrong("not_covering", json!({"cell": target}))
            }
        }
        Goal::JumpOnto(target) => {
            let Move::Relocate { to, .. } = mv else {
                unreachable!("only relocations get here")
            };
            if moved_piece(after, to).placement.level == 0 {
                wrong("not_on_top", json!({}))
            } else if mine(target) {
                done()
            } else {
                wrong("not_covering", json!({"cell": target}))
            }
        }
        Goal::Pin(target) => {
            let victim = pos
                .top_piece(cell(target))
                .expect("the lesson's piece to cover is there");
            // The opponent's pieces stay where they were.
            let covered = after
                .pieces()
                .iter()
                .find(|p| p.side == victim.side && p.placement == victim.placement)
                .is_some_and(|p| after.is_covered(p));
            if covered {
                done()
            } else {
                wrong("still_free", json!({"cell": target}))
            }
        }
        Goal::Bridge => {
            let Move::Relocate { to, .. } = mv else {
                unreachable!("only relocations get here")
            };
            let p = moved_piece(after, to);
            if after.is_bridge(&p) {
                done()
            } else if p.placement.level == 0 {
                wrong("on_board", json!({}))
            } else {
                wrong("flat_on_top", json!({}))
            }
        }
        Goal::Win => {
            if after.status() == Status::Won(me) {
                done()
            } else {
                wrong("no_win", json!({}))
            }
        }
        Goal::Block => {
            if after.status() == Status::Won(me) {
                return done();
            }
            // The first of the opponent's winning answers, proven exactly.
            match winning_moves(after).first().copied() {
                Some(reply) => Judgement {
                    reply: Some(reply),
                    ..wrong("still_threat", json!({"move": reply.to_string()}))
                },
                None => done(),
            }
        }
        Goal::CentralWin => match after.status() {
            Status::Won(s) if s == me => done(),
            Status::Draw => wrong("draw", json!({})),
            _ => wrong(
                "game_goes_on",
                json!({
                    "white": after.central_count(Side::White),
                    "black": after.central_count(Side::Black),
                }),
            ),
        },
    }
}

impl Lesson {
    /// The side whose central count the lesson is about (the page
    /// highlights it), if any.
    pub fn counted(&self) -> Option<Side> {
        matches!(self.goal, Goal::CentralWin).then(|| self.start().side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Variant;
    use std::collections::HashSet;

    fn judged(l: &Lesson, mv: &str) -> Judgement {
        judge(l, &l.start(), mv.parse().expect("a move")).0
    }

    #[test]
    fn every_lesson_is_reached_by_legal_moves_and_its_example_is_right() {
        let mut ids = HashSet::new();
        for l in LESSONS {
            assert!(ids.insert(l.id), "lesson {} twice", l.id);
            let pos = l.start();
            assert_eq!(pos.to_position_string(), l.position, "{}: canonical", l.id);
            if !l.moves.is_empty() || l.position == "standard:w:0:-" {
                // Replayed: each move legal (none after the end), the last
                // one reaching the lesson's position, which goes on.
                let replay = crate::replay(Variant::Standard, l.moves)
                    .unwrap_or_else(|e| panic!("{}: {e}", l.id));
                assert_eq!(replay.to_position_string(), l.position, "{}", l.id);
            }
            assert_eq!(pos.status(), Status::Ongoing, "{}", l.id);
            assert_eq!(pos.side_to_move(), Side::White, "{}: White learns", l.id);
            for m in l.marks {
                cell(m);
            }
            let v = judged(l, l.example);
            assert!(
                v.correct,
                "{}: the example {} is judged {v:?}",
                l.id, l.example
            );
            assert_eq!(v.code, format!("tutorial.lesson.{}.done", l.id));
        }
    }

    /// The moves the judge accepts in lesson `id` (every legal one tried).
    fn accepted(id: &str) -> Vec<String> {
        let l = lesson(id).unwrap();
        let pos = l.start();
        pos.legal_moves()
            .into_iter()
            .filter(|&m| judge(l, &pos, m).0.correct)
            .map(|m| m.to_string())
            .collect()
    }

    #[test]
    fn every_right_move_is_accepted_whatever_its_form() {
        // Only straight pieces turned along row 4 fill C4, D4 and E4.
        let mut fill = accepted("rotate");
        fill.sort();
        assert_eq!(fill, ["C@D4/2", "E@C4/5", "E@E4/2"]);
        // Either white piece may reach C4, in any way.
        let reach = accepted("reach");
        for m in ["C10-C4/0", "C10-C4/4", "C10-C6/0", "C10-C2/3", "F3-C3/2"] {
            assert!(reach.contains(&m.to_string()), "reach: {m} in {reach:?}");
        }
        assert_eq!(accepted("turn"), ["D8-D8/1"]);
        assert_eq!(accepted("jump"), ["L8-G3/1"]);
        assert_eq!(accepted("pin"), ["L6-L13/4"]);
        let mut bridges = accepted("bridge");
        bridges.sort();
        assert_eq!(bridges, ["F4-K4/2", "F4-K4/4"]);
        // Every addition that reaches column Q from O11 wins.
        let wins = accepted("connect");
        assert_eq!(wins.len(), 44, "{wins:?}");
        for m in ["T@P11/5", "T@P12/5", "T@Q12/0", "R@Q10/5"] {
            assert!(wins.contains(&m.to_string()), "connect: {m}");
        }
        // Only a piece on top of Black's T connects column H.
        let mut tops = accepted("top");
        tops.sort();
        assert_eq!(tops, ["D10-H10/2", "D10-H10/3"]);
        // The last piece may go anywhere: every addition wins, no other move.
        let pos = lesson("central").unwrap().start();
        let adds: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, Move::Add { .. }))
            .map(|m| m.to_string())
            .collect();
        assert_eq!(accepted("central"), adds);
    }

    #[test]
    fn a_block_is_judged_by_every_answer_of_the_opponents() {
        let l = lesson("block").unwrap();
        let pos = l.start();
        // Black, were it to move, would win by covering D12, E13 and F13.
        let black = Position::from_position_string(&l.position.replacen(":w:", ":b:", 1)).unwrap();
        let mut play = black.clone();
        let mut threats: Vec<String> = black
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let u = play.make(m);
                let won = play.status() == Status::Won(Side::Black);
                play.unmake(u);
                won
            })
            .map(|m| m.to_string())
            .collect();
        threats.sort();
        assert_eq!(threats, ["L@D12/4", "M@E13/4", "R@F13/4"]);
        // Taking one of those cells blocks; so does breaking the chain.
        for m in ["R@F13/4", "M@E13/4", "T@D12/0", "E@D12/0", "G14-F13/3"] {
            let v = judged(l, m);
            assert!(v.correct, "block: {m}: {v:?}");
        }
        // Anything else leaves a win, and the answer names one.
        let v = judged(l, "T@B3/0");
        assert_eq!(v.code, "tutorial.wrong.still_threat");
        let reply = v.reply.expect("the winning answer");
        assert!(threats.contains(&reply.to_string()), "{reply}");
        assert_eq!(v.params["move"], reply.to_string());
        let mut after = pos.clone();
        after.make("T@B3/0".parse().unwrap());
        after.play(reply).unwrap();
        assert_eq!(after.status(), Status::Won(Side::Black));
    }

    #[test]
    fn typical_wrong_moves_get_their_own_messages() {
        let heights = |c: [&str; 3], h: [&str; 3]| json!({"c1": c[0], "c2": c[1], "c3": c[2], "h1": h[0], "h2": h[1], "h3": h[2]});
        let cases = [
            (
                "add",
                "T@I9/0",
                "illegal.add_in_centre",
                json!({"cell": "I9"}),
            ),
            ("add", "E@E5/0", "wrong.not_on_side", json!({})),
            ("add", "G5-G6/0", "wrong.not_an_add", json!({})),
            (
                "rotate",
                "E@C4/0",
                "wrong.not_filled",
                json!({"cells": "D4, E4", "count": 2}),
            ),
            (
                "rotate",
                "T@C4/5",
                "wrong.not_filled",
                json!({"cells": "E4", "count": 1}),
            ),
            (
                "rotate",
                "T@B4/1",
                "illegal.add_on_occupied",
                json!({"cell": "B4"}),
            ),
            (
                "reach",
                "C10-D4/0",
                "illegal.not_in_line",
                json!({"from": "C10", "to": "D4"}),
            ),
            (
                "reach",
                "C10-C7/0",
                "wrong.not_covering",
                json!({"cell": "C4"}),
            ),
            ("reach", "T@C4/0", "wrong.not_a_move", json!({})),
            (
                "turn",
                "D8-B6/4",
                "wrong.punct_moved",
                json!({"cell": "D8"}),
            ),
            (
                "turn",
                "D8-D8/0",
                "wrong.not_covering",
                json!({"cell": "C7"}),
            ),
            ("turn", "D8-D8/5", "illegal.unchanged", json!({})),
            (
                "turn",
                "D8-C7/0",
                "illegal.uneven",
                heights(["C7", "C6", "C5"], ["0", "0", "1"]),
            ),
            (
                "jump",
                "L8-F2/4",
                "illegal.punct_on_opponent",
                json!({"cell": "F2"}),
            ),
            (
                "jump",
                "L8-G3/3",
                "illegal.triangle_bridge",
                heights(["G3", "G4", "H4"], ["1", "0", "0"]),
            ),
            (
                "jump",
                "L8-G3/0",
                "wrong.not_covering",
                json!({"cell": "F3"}),
            ),
            ("jump", "L8-L9/0", "wrong.not_on_top", json!({})),
            (
                "pin",
                "N11-N11/0",
                "illegal.covered",
                json!({"cell": "N11"}),
            ),
            (
                "pin",
                "L6-L12/0",
                "wrong.still_free",
                json!({"cell": "M14"}),
            ),
            (
                "bridge",
                "F4-K4/3",
                "illegal.uneven",
                heights(["K4", "K5", "K6"], ["1", "0", "0"]),
            ),
            ("bridge", "F4-K4/5", "illegal.off_board", json!({})),
            ("bridge", "F4-H4/0", "wrong.on_board", json!({})),
            ("connect", "T@B3/0", "wrong.no_win", json!({})),
            ("top", "D10-H10/0", "wrong.no_win", json!({})),
            (
                "top",
                "D10-H11/0",
                "illegal.not_in_line",
                json!({"from": "D10", "to": "H11"}),
            ),
            (
                "central",
                "H8-H8/2",
                "wrong.game_goes_on",
                json!({"white": 5, "black": 5}),
            ),
            ("central", "pass", "illegal.pass_with_moves", json!({})),
        ];
        for (id, mv, code, params) in cases {
            let v = judged(lesson(id).unwrap(), mv);
            assert!(!v.correct, "{id}: {mv} is right?");
            assert_eq!(v.code, format!("tutorial.{code}"), "{id}: {mv}: {v:?}");
            assert_eq!(Value::Object(v.params), params, "{id}: {mv}");
        }
    }

    #[test]
    fn every_message_the_judge_can_give_has_an_english_text() {
        let en: Map<String, Value> =
            serde_json::from_str(include_str!("../../../web/i18n/en.json"))
                .expect("the English catalogue is JSON");
        let mut keys: Vec<String> = IllegalMove::CODES
            .iter()
            .map(|c| format!("tutorial.illegal.{c}"))
            .collect();
        // The code of every call of wrong() in this file.
        let source = include_str!("tutorial.rs");
        for (i, _) in source.match_indices("wrong(\"") {
            let code = source[i + 7..].split('"').next().unwrap();
            keys.push(format!("tutorial.wrong.{code}"));
        }
        for l in LESSONS {
            for part in ["title", "goal", "hint", "done"] {
                keys.push(format!("tutorial.lesson.{}.{part}", l.id));
            }
        }
        for key in keys {
            assert!(en.contains_key(&key), "no English text for {key}");
        }
    }
}
