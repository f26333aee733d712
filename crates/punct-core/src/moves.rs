//! Moves and their canonical text form (`E@C5/2`, `G5-G9/4`, `pass`).

use crate::board::{Cell, ShortText};
use crate::piece::Kind;
use std::fmt;
use std::str::FromStr;

/// One turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Add a piece from the reserve, PÜNCT on `punct`, at level 0.
    Add {
        kind: Kind,
        punct: Cell,
        rotation: u8,
    },
    /// Lift the piece whose PÜNCT is visible on `from`, put its PÜNCT on `to`
    /// (in line with `from`) with `rotation`.
    Relocate { from: Cell, to: Cell, rotation: u8 },
    /// Only legal when nothing else is.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Add {
                kind,
                punct,
                rotation,
            } => {
                let mut text = ShortText::default();
                text.byte(kind.letter() as u8);
                text.byte(b'@');
                text.cell(punct);
                text.byte(b'/');
                text.digit(rotation);
                f.write_str(text.as_str())
            }
            Move::Relocate { from, to, rotation } => {
                let mut text = ShortText::default();
                text.cell(from);
                text.byte(b'-');
                text.cell(to);
                text.byte(b'/');
                text.digit(rotation);
                f.write_str(text.as_str())
            }
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    pub input: String,
    pub reason: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a move: {}", self.input, self.reason)
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads a move in any letter case. Only the form is checked here; whether
    /// the move is legal is [`crate::Position::check_move`]'s business.
    fn from_str(input: &str) -> Result<Move, ParseMoveError> {
        let err = |reason: &str| ParseMoveError {
            input: input.to_string(),
            reason: reason.to_string(),
        };
        let s = input.trim();
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let (body, rot) = s.rsplit_once('/').ok_or_else(|| {
            err("expected `<kind>@<cell>/<rotation>`, `<from>-<to>/<rotation>` or `pass`")
        })?;
        let rotation = match rot.as_bytes() {
            [d @ b'0'..=b'5'] => d - b'0',
            _ => return Err(err("the rotation after `/` must be a digit 0–5")),
        };
        if let Some((kind, cell)) = body.split_once('@') {
            let mut letters = kind.chars();
            let kind = match (letters.next(), letters.next()) {
                (Some(c), None) => Kind::from_letter(c),
                _ => None,
            }
            .ok_or_else(|| err("the piece kind before `@` must be one of T, C, E, L, M, R"))?;
            let punct = cell.parse::<Cell>().map_err(|e| err(&e.0))?;
            Ok(Move::Add {
                kind,
                punct,
                rotation,
            })
        } else if let Some((from, to)) = body.split_once('-') {
            let from = from.parse::<Cell>().map_err(|e| err(&e.0))?;
            let to = to.parse::<Cell>().map_err(|e| err(&e.0))?;
            Ok(Move::Relocate { from, to, rotation })
        } else {
            Err(err(
                "expected `<kind>@<cell>/<rotation>`, `<from>-<to>/<rotation>` or `pass`",
            ))
        }
    }
}

/// Reads a whitespace-separated list of moves; the error names the 1-based
/// position of the first bad one.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, (usize, ParseMoveError)> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, m)| m.parse().map_err(|e| (i + 1, e)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_round_trip_and_input_is_case_insensitive() {
        for text in ["E@C5/2", "G5-G9/4", "G5-G5/3", "pass", "T@Q16/5"] {
            let m: Move = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        assert_eq!("e@c5/2".parse::<Move>().unwrap().to_string(), "E@C5/2");
        assert_eq!("PASS".parse::<Move>().unwrap(), Move::Pass);
        assert_eq!(" g5-g9/4 ".parse::<Move>().unwrap().to_string(), "G5-G9/4");
    }

    #[test]
    fn malformed_moves_are_refused_with_a_reason() {
        for bad in [
            "", "E@C5", "X@C5/2", "E@C5/6", "E@A1/0", "G5G9/4", "G5-/4", "EE@C5/1", "E@C5/12", "@/",
        ] {
            let e = bad.parse::<Move>().unwrap_err();
            assert!(!e.reason.is_empty(), "{bad}");
        }
    }
}
