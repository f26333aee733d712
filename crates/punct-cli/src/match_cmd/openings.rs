//! Openings: short move lists that games start from, read from a file (one
//! per line) and checked at load; and the generator of the shipped files.

use punct_core::{Game, Move, Position, Side, Variant};
use punct_engine::evaluate;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// The shipped openings, built into the binary (made by `--generate-openings`).
pub const STANDARD: &str = include_str!("../../../../openings/standard.txt");
pub const BASIC: &str = include_str!("../../../../openings/basic.txt");

/// One opening: its moves and where it came from (for messages).
#[derive(Clone, Debug)]
pub struct Opening {
    pub moves: Vec<Move>,
    /// 1-based line of the file.
    pub line: usize,
}

impl Opening {
    /// The moves as text, e.g. `E@C5/2 T@J4/1`.
    pub fn text(&self) -> String {
        self.moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Reads an openings file: one opening per line, moves separated by blanks;
/// blank lines and everything from `#` to the end of a line are ignored.
/// Every opening must be legal in `variant` and leave the game unfinished.
/// `source` names the file in messages.
pub fn parse(text: &str, variant: Variant, source: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut game = Game::new(variant);
        let mut moves = Vec::new();
        for (ply, token) in content.split_whitespace().enumerate() {
            let ply = ply + 1;
            let mv: Move = token
                .parse()
                .map_err(|e| format!("{source}, line {line}: ply {ply}: {e} (in `{content}`)"))?;
            game.play(mv).map_err(|e| {
                format!(
                    "{source}, line {line}: ply {ply}: `{mv}` is illegal in the {variant} game: {e}"
                )
            })?;
            moves.push(mv);
        }
        if game.position().status().is_over() {
            return Err(format!(
                "{source}, line {line}: the opening `{content}` ends the game ({})",
                game.position().status()
            ));
        }
        out.push(Opening { moves, line });
    }
    if out.is_empty() {
        return Err(format!(
            "{source}: no openings (every line is blank or a comment)"
        ));
    }
    Ok(out)
}

/// The largest |evaluation| (White's view, `punct_engine::evaluate`: 10 per
/// cell of connection lead plus the central dots' difference) a generated
/// opening may have.
pub const BALANCE: i32 = 5;

/// `count` distinct, balanced openings of 2–4 plies for `variant`: random
/// legal moves (the lengths cycle 2, 3, 4), kept when the position is
/// unfinished, new (by position, so transpositions count once), and
/// balanced: `|evaluate| <= BALANCE` when both sides have made as many
/// moves as each other — at the end of an even-length opening, or after
/// the side to move's best one-ply reply (the greedy engine's move) at the
/// end of an odd-length one. The output is an openings file.
pub fn generate(variant: Variant, count: usize, seed: u64) -> String {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut lines = Vec::new();
    let mut tries = 0u64;
    while lines.len() < count && tries < 100_000 {
        tries += 1;
        let plies = 2 + lines.len() % 3;
        let mut game = Game::new(variant);
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("generated moves are legal");
        }
        let pos = game.position();
        if pos.status().is_over() || !seen.insert(pos.hash()) {
            continue;
        }
        let (eval, note) = if plies % 2 == 0 {
            let e = evaluate(pos, Side::White);
            (e, format!("eval {e:+}"))
        } else {
            let e = best_reply_eval(pos);
            (e, format!("eval {e:+} after the best reply"))
        };
        if eval.abs() > BALANCE {
            continue;
        }
        let text = game
            .moves()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        lines.push(format!("{text:<30} # {note}"));
    }
    let mut out = format!(
        "# PÜNCT openings for the {variant} game: {} lines of 2-4 plies.\n\
         # Made by `punct match --generate-openings {count} --variant {variant} --seed {seed}`\n\
         # (docs/MATCH.md): random legal moves, kept when the game goes on, the position\n\
         # is new and |evaluate| <= {BALANCE} (White's view) once both sides have moved\n\
         # equally often (after the mover's best one-ply reply for 3 plies).\n\
         # Format: one opening per line, moves separated by blanks; `#` starts a comment.\n",
        lines.len()
    );
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// White's evaluation after the side to move's best one-ply move by that
/// evaluation (the greedy engine's choice).
fn best_reply_eval(pos: &Position) -> i32 {
    let side = pos.side_to_move();
    let mut scratch = pos.clone();
    let mut best = i32::MIN;
    for mv in pos.legal_moves() {
        let undo = scratch.make(mv);
        best = best.max(evaluate(&scratch, side));
        scratch.unmake(undo);
    }
    if side == Side::White {
        best
    } else {
        -best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_files_load_and_are_distinct() {
        for (text, variant) in [(STANDARD, Variant::Standard), (BASIC, Variant::Basic)] {
            let openings = parse(text, variant, "shipped").unwrap();
            assert!(openings.len() >= 50, "{}", openings.len());
            let mut seen = HashSet::new();
            for o in &openings {
                assert!((2..=4).contains(&o.moves.len()));
                let game = Game::replay(Position::new(variant), &o.moves).unwrap();
                assert!(seen.insert(game.position().hash()), "line {}", o.line);
            }
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let err = parse(
            "# c\n\nC@B7/2 R@F2/0\nC@B7/2 C@B7/2\n",
            Variant::Standard,
            "f.txt",
        )
        .unwrap_err();
        assert!(
            err.starts_with("f.txt, line 4: ply 2: `C@B7/2` is illegal"),
            "{err}"
        );
        let err = parse("C@B7/2 X@B7/2", Variant::Standard, "f.txt").unwrap_err();
        assert!(
            err.starts_with("f.txt, line 1: ply 2: `X@B7/2` is not a move"),
            "{err}"
        );
        let err = parse("# only\n", Variant::Basic, "f.txt").unwrap_err();
        assert!(err.contains("no openings"), "{err}");
        let ok = parse("C@B7/2 R@F2/0  # a comment\n", Variant::Standard, "f").unwrap();
        assert_eq!(ok[0].text(), "C@B7/2 R@F2/0");
        assert_eq!(ok[0].line, 1);
    }
}
