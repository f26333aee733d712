//! The puzzles (docs/PUZZLES.md): the shipped set `data/puzzles.json`,
//! made and proven by `punct puzzles generate`/`verify`, built into the
//! binary; the puzzle of the day, and the judge of a learner's moves (the
//! opponent answers with its most stubborn reply).

use punct_core::{IllegalMove, Move, Position, Side, Status};
use punct_engine::puzzle::{self, PuzzleKind};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// The shipped puzzles (checked by `punct puzzles verify` and the tests).
const DATA: &str = include_str!("../../../data/puzzles.json");

// ------------------------------------------------------------ the data

#[derive(Deserialize)]
struct File {
    puzzles: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    id: String,
    kind: String,
    position: String,
    solutions: Vec<String>,
    #[serde(default)]
    lines: Vec<LineEntry>,
    #[serde(default)]
    source: Value,
}

#[derive(Deserialize)]
struct LineEntry {
    first: String,
    reply: String,
    wins: Vec<String>,
}

/// A win in two's first move, the reply the site plays to it and the
/// winning moves after that.
pub struct Line {
    pub first: Move,
    pub reply: Move,
    pub wins: Vec<Move>,
}

pub struct Puzzle {
    pub id: String,
    pub kind: PuzzleKind,
    pub position: Position,
    pub solutions: Vec<Move>,
    /// A win in two's lines, one per solution.
    pub lines: Vec<Line>,
    /// Where the puzzle came from, as the file says (shown as it is).
    pub source: Value,
}

impl Puzzle {
    /// The side the learner plays.
    pub fn side(&self) -> Side {
        self.position.side_to_move()
    }

    /// The task's message key: `puzzles.task.<kind>` (the side is its
    /// parameter).
    pub fn task_code(&self) -> String {
        format!("puzzles.task.{}", self.kind.name().replace('-', "_"))
    }

    /// How many moves of the learner's a solution takes.
    pub fn moves_to_find(&self) -> usize {
        if self.kind == PuzzleKind::WinInTwo {
            2
        } else {
            1
        }
    }

    /// Its place in [`puzzles`] (from 0) and the puzzle after it there
    /// (the first after the last).
    pub fn place(&self) -> (usize, &'static Puzzle) {
        let all = puzzles();
        let i = all.iter().position(|q| q.id == self.id).unwrap_or(0);
        (i, &all[(i + 1) % all.len()])
    }
}

fn parse_moves(list: &[String], what: &str) -> Result<Vec<Move>, String> {
    list.iter()
        .map(|m| m.parse().map_err(|e| format!("{what}: {m}: {e}")))
        .collect()
}

fn load(text: &str) -> Result<Vec<Puzzle>, String> {
    let file: File = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut out: Vec<Puzzle> = Vec::new();
    for e in file.puzzles {
        let id = e.id.clone();
        let fail = |m: String| format!("puzzle {id}: {m}");
        let kind: PuzzleKind = e.kind.parse().map_err(fail)?;
        let position =
            Position::from_position_string(&e.position).map_err(|x| fail(x.to_string()))?;
        let solutions = parse_moves(&e.solutions, "solutions").map_err(fail)?;
        let mut lines = Vec::new();
        for l in &e.lines {
            lines.push(Line {
                first: l.first.parse().map_err(|x| fail(format!("{x}")))?,
                reply: l.reply.parse().map_err(|x| fail(format!("{x}")))?,
                wins: parse_moves(&l.wins, "wins").map_err(fail)?,
            });
        }
        if kind == PuzzleKind::WinInTwo
            && solutions
                .iter()
                .any(|s| !lines.iter().any(|l| l.first == *s))
        {
            return Err(fail("a solution has no line".into()));
        }
        if out.iter().any(|p| p.id == id) || solutions.is_empty() {
            return Err(fail("a second puzzle of that id, or no solutions".into()));
        }
        out.push(Puzzle {
            id: e.id,
            kind,
            position,
            solutions,
            lines,
            source: e.source,
        });
    }
    if out.is_empty() {
        return Err("no puzzles".into());
    }
    Ok(out)
}

/// The shipped puzzles, in the file's order.
pub fn puzzles() -> &'static [Puzzle] {
    static ALL: OnceLock<Vec<Puzzle>> = OnceLock::new();
    ALL.get_or_init(|| load(DATA).expect("data/puzzles.json is checked by the tests"))
}

/// The puzzle `id`, if there is one.
pub fn find(id: &str) -> Option<&'static Puzzle> {
    puzzles().iter().find(|p| p.id == id)
}

// ------------------------------------------------------------ the day's puzzle

/// The puzzle of day `days`: a fixed shuffle of the day number, so that
/// neighbouring days get unrelated puzzles and everyone gets the same.
pub fn of_the_day(days: i64) -> &'static Puzzle {
    let mut x = (days as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    let all = puzzles();
    &all[(x % all.len() as u64) as usize]
}

// ------------------------------------------------------------ the judge

/// What an attempt comes to.
#[derive(Debug)]
pub struct Answer {
    /// The moves so far are right.
    pub correct: bool,
    /// The puzzle is done.
    pub solved: bool,
    /// The message key (`puzzles.…`) and its parameters.
    pub code: &'static str,
    pub params: Value,
    /// The opponent's answer the site played, if any.
    pub reply: Option<Move>,
    /// Where the attempt left the board, and the move that got there.
    pub position: Position,
    pub last: Option<Move>,
}

/// Why an attempt cannot be judged.
#[derive(Debug)]
pub enum TryError {
    /// No move to judge.
    NoMoves,
    /// More moves than the puzzle takes of the learner's.
    TooMany { kind: PuzzleKind, most: usize },
    /// A move of the learner's breaks a rule.
    Illegal(Move, IllegalMove),
    /// A second move after a first that does not win in two.
    NotALine(Move),
    /// The puzzle's own data contradicts the prover (a bug, not the
    /// learner's).
    Broken(String),
}

impl Puzzle {
    /// Whether `count` moves of the learner's can be judged.
    pub fn check_count(&self, count: usize) -> Result<(), TryError> {
        match count {
            0 => Err(TryError::NoMoves),
            n if n > self.moves_to_find() => Err(TryError::TooMany {
                kind: self.kind,
                most: self.moves_to_find(),
            }),
            _ => Ok(()),
        }
    }
}

impl std::fmt::Display for TryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TryError::NoMoves => write!(f, "`moves` lists no move"),
            TryError::TooMany { kind, most } => {
                write!(f, "a {kind} puzzle takes at most {most} moves of yours")
            }
            TryError::Illegal(mv, why) => write!(f, "{mv}: {why}"),
            TryError::NotALine(first) => write!(
                f,
                "{first} is not a first move that wins in two, so there is no second move to judge"
            ),
            TryError::Broken(why) => write!(f, "{why}"),
        }
    }
}

/// Plays `mv` on `pos` after checking it.
fn play(pos: &mut Position, mv: Move) -> Result<(), TryError> {
    pos.play(mv)
        .map(|_| ())
        .map_err(|why| TryError::Illegal(mv, why))
}

/// Judges the learner's first `moves` (one, or two for a win in two) of
/// puzzle `p`, answering a first move of a win in two with the line's
/// reply, a wrong one with the win or refutation it allows.
pub fn judge(p: &Puzzle, moves: &[Move]) -> Result<Answer, TryError> {
    p.check_count(moves.len())?;
    let me = p.side();
    let them = me.opponent();
    let mut pos = p.position.clone();
    let first = moves[0];
    play(&mut pos, first)?;
    let verdict = |correct, solved, code, params, reply, position, last| Answer {
        correct,
        solved,
        code,
        params,
        reply,
        position,
        last,
    };
    // Whether `mv`, giving `pos`, wins (`params`: the message's if not).
    let win = |pos: Position, mv: Move, params: Value| {
        if pos.status() == Status::Won(me)
            && pos.connection(me).is_none()
            && pos.reserve_total(me) == 0
        {
            // Won by the central count (the last piece added ends the game):
            // said so, since any addition would have done it.
            let params = json!({
                "white": pos.central_count(Side::White),
                "black": pos.central_count(Side::Black),
            });
            verdict(
                true,
                true,
                "puzzles.solved.count",
                params,
                None,
                pos,
                Some(mv),
            )
        } else if pos.status() == Status::Won(me) {
            verdict(true, true, "puzzles.solved", json!({}), None, pos, Some(mv))
        } else {
            verdict(
                false,
                false,
                "puzzles.wrong.no_win",
                params,
                None,
                pos,
                Some(mv),
            )
        }
    };
    match p.kind {
        PuzzleKind::WinInOne => Ok(win(pos, first, json!({"move": first.to_string()}))),
        PuzzleKind::StopTheWin => {
            if p.solutions.contains(&first) {
                return Ok(verdict(
                    true,
                    true,
                    "puzzles.stopped",
                    json!({}),
                    None,
                    pos,
                    Some(first),
                ));
            }
            if pos.status() == Status::Won(them) {
                return Ok(verdict(
                    false,
                    false,
                    "puzzles.wrong.loses",
                    json!({"side": them.name()}),
                    None,
                    pos,
                    Some(first),
                ));
            }
            // Show the win the move leaves.
            match puzzle::winning_moves(&pos).first() {
                Some(&w) => {
                    pos.make(w);
                    Ok(verdict(
                        false,
                        false,
                        "puzzles.wrong.not_stopped",
                        json!({"side": them.name(), "move": w.to_string()}),
                        Some(w),
                        pos,
                        Some(w),
                    ))
                }
                None => Err(TryError::Broken(format!(
                    "puzzle {}: {first} is not among the solutions but leaves no win",
                    p.id
                ))),
            }
        }
        PuzzleKind::WinInTwo => {
            let Some(line) = p.lines.iter().find(|l| l.first == first) else {
                if moves.len() > 1 {
                    return Err(TryError::NotALine(first));
                }
                if pos.status().is_over() {
                    // Only a sentence about the opponent names its side
                    // (the page then words it per side).
                    let (code, params) = if pos.status() == Status::Won(them) {
                        ("puzzles.wrong.loses", json!({"side": them.name()}))
                    } else {
                        ("puzzles.wrong.ends", json!({}))
                    };
                    return Ok(verdict(false, false, code, params, None, pos, Some(first)));
                }
                return Ok(match puzzle::refutation(&pos) {
                    Some(r) => {
                        pos.make(r);
                        let code = if pos.status() == Status::Won(them) {
                            "puzzles.wrong.reply_wins"
                        } else {
                            "puzzles.wrong.refuted"
                        };
                        verdict(
                            false,
                            false,
                            code,
                            json!({"side": them.name(), "move": r.to_string()}),
                            Some(r),
                            pos,
                            Some(r),
                        )
                    }
                    None => {
                        return Err(TryError::Broken(format!(
                            "puzzle {}: {first} is not among the solutions but every reply loses",
                            p.id
                        )))
                    }
                });
            };
            pos.make(line.reply);
            let Some(&second) = moves.get(1) else {
                return Ok(verdict(
                    true,
                    false,
                    "puzzles.good.reply",
                    json!({"side": them.name(), "move": line.reply.to_string()}),
                    Some(line.reply),
                    pos,
                    Some(line.reply),
                ));
            };
            play(&mut pos, second)?;
            let params = json!({"move": second.to_string(), "count": line.wins.len()});
            Ok(win(pos, second, params))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_puzzles_load() {
        let all = load(DATA).unwrap();
        assert!(all.len() >= 30);
        for kind in PuzzleKind::ALL {
            assert!(all.iter().any(|p| p.kind == kind), "no {kind} puzzle");
        }
    }

    #[test]
    fn every_day_has_a_puzzle_and_days_differ() {
        let ids: std::collections::HashSet<&str> = (20_000..20_060)
            .map(|d| of_the_day(d).id.as_str())
            .collect();
        assert!(ids.len() > 10, "60 days gave only {} puzzles", ids.len());
        assert_eq!(of_the_day(20_001).id, of_the_day(20_001).id);
    }

    /// A win in two whose second move wins by the central count (the last
    /// piece ends the game, so any addition wins) says so, with the count.
    #[test]
    fn a_win_by_the_last_piece_says_the_central_count_decided() {
        let mut seen = 0;
        for p in puzzles().iter().filter(|p| p.kind == PuzzleKind::WinInTwo) {
            let line = &p.lines[0];
            let answer = judge(p, &[line.first, line.wins[0]]).unwrap();
            assert!(answer.solved, "{}", p.id);
            let by_count = answer.position.connection(p.side()).is_none();
            if by_count {
                seen += 1;
                assert_eq!(answer.code, "puzzles.solved.count", "{}", p.id);
                assert!(answer.params["white"].is_number() && answer.params["black"].is_number());
            } else {
                assert_eq!(answer.code, "puzzles.solved", "{}", p.id);
            }
        }
        assert!(
            seen > 0,
            "no shipped win in two is won by the central count"
        );
    }

    #[test]
    fn a_try_with_no_move_or_too_many_is_refused_not_judged() {
        let one = puzzles()
            .iter()
            .find(|p| p.kind == PuzzleKind::WinInOne)
            .unwrap();
        assert!(matches!(judge(one, &[]), Err(TryError::NoMoves)));
        let two = [one.solutions[0], one.solutions[0]];
        assert!(matches!(
            judge(one, &two),
            Err(TryError::TooMany { most: 1, .. })
        ));
        let solved = judge(one, &two[..1]).unwrap();
        assert!(solved.correct && solved.solved);
    }
}
