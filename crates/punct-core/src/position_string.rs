//! The position string: one line, no spaces, that captures a whole position.
//!
//! `<variant>:<side to move>:<passes>:<pieces>`, for example
//! `standard:w:0:wC@B7/2,bR@F2/0,wE@C4/1^1`.
//!
//! * variant: `standard` or `basic`; side: `w` or `b`; passes: passes in a
//!   row just made, 0–2;
//! * pieces: `-` for none, else comma-separated `<w|b><kind>@<PÜNCT cell>/<rotation>`
//!   with `^<level>` when the level is above 0, listed by level, then PÜNCT
//!   cell (column, then row), then side, then kind.
//!
//! Reserves are not written: pieces never leave the board, so a side's
//! reserve of a kind is its count minus those on the board. The status is
//! not written either: it follows from the rest.

use crate::board::Cell;
use crate::piece::{footprint, Kind, Side};
use crate::position::{Placement, Position, Variant};
use std::fmt;
use std::str::FromStr;

/// Why a position string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position string: {}", self.0)
    }
}

impl std::error::Error for PositionError {}

fn piece_token(side: Side, kind: Kind, p: Placement) -> String {
    let mut s = format!(
        "{}{kind}@{}/{}",
        if side == Side::White { 'w' } else { 'b' },
        p.punct,
        p.rotation
    );
    if p.level > 0 {
        s.push_str(&format!("^{}", p.level));
    }
    s
}

impl Position {
    /// The position string (see the module docs); round-trips exactly.
    pub fn to_position_string(&self) -> String {
        let pieces: Vec<String> = self
            .pieces()
            .iter()
            .map(|p| piece_token(p.side, p.kind, p.placement))
            .collect();
        format!(
            "{}:{}:{}:{}",
            self.variant,
            if self.to_move == Side::White {
                'w'
            } else {
                'b'
            },
            self.passes,
            if pieces.is_empty() {
                "-".to_string()
            } else {
                pieces.join(",")
            }
        )
    }

    /// Reads and validates a position string.
    pub fn from_position_string(text: &str) -> Result<Position, PositionError> {
        let err = |m: String| Err(PositionError(m));
        let fields: Vec<&str> = text.trim().split(':').collect();
        if fields.len() != 4 {
            return err(format!(
                "expected 4 fields `<variant>:<w|b>:<passes>:<pieces>`, found {}",
                fields.len()
            ));
        }
        let variant: Variant = fields[0].parse().map_err(PositionError)?;
        let to_move = match fields[1] {
            "w" | "W" => Side::White,
            "b" | "B" => Side::Black,
            s => return err(format!("side to move `{s}` must be `w` or `b`")),
        };
        let passes = match fields[2] {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            s => return err(format!("passes `{s}` must be 0, 1 or 2")),
        };
        let mut pieces = Vec::new();
        if fields[3] != "-" {
            for (i, token) in fields[3].split(',').enumerate() {
                pieces.push(
                    parse_piece(token)
                        .map_err(|m| PositionError(format!("piece {} `{token}`: {m}", i + 1)))?,
                );
            }
        }
        let mut pos = Position::new(variant);
        pos.to_move = to_move;
        for side in Side::BOTH {
            for kind in Kind::ALL {
                let n = pieces
                    .iter()
                    .filter(|(s, k, _, _)| *s == side && *k == kind)
                    .count();
                if n > kind.count() as usize {
                    return err(format!(
                        "{side} has {n} {kind} pieces on the board, but only {} exist",
                        kind.count()
                    ));
                }
            }
        }
        // Stack the pieces bottom up, checking each rests as the rules allow.
        pieces.sort_by_key(|&(_, _, p, _)| p.level);
        for (side, kind, p, token) in pieces {
            let cells = footprint(kind, p.punct, p.rotation)
                .ok_or_else(|| PositionError(format!("`{token}` has a dot off the board")))?;
            let heights = cells.map(|c| pos.height(c));
            if let Some(i) = (0..3).find(|&i| heights[i] > p.level) {
                return err(format!(
                    "`{token}` overlaps another dot on {} at level {}",
                    cells[i], p.level
                ));
            }
            if p.level > 0 {
                let top = *heights.iter().max().unwrap();
                if top < p.level {
                    return err(format!(
                        "`{token}` floats: nothing below it reaches level {}",
                        p.level
                    ));
                }
                let flat = heights.iter().all(|&h| h == top);
                let bridge = kind
                    .bridge()
                    .is_some_and(|b| b.ends.iter().all(|&e| heights[e] == top));
                if !flat && kind == Kind::T {
                    return err(format!(
                        "`{token}` is not supported: its cells have heights {}, {} and {}, and a triangle must lie flat",
                        heights[0], heights[1], heights[2]
                    ));
                }
                if !flat && !bridge {
                    return err(format!(
                        "`{token}` is not supported: its cells have heights {}, {} and {}",
                        heights[0], heights[1], heights[2]
                    ));
                }
                if pos.visible_side(p.punct) != Some(side) {
                    return err(format!(
                        "`{token}`'s PÜNCT must rest on its own colour, but {} shows {}",
                        p.punct,
                        pos.visible_side(p.punct).map_or("nothing", |s| s.name())
                    ));
                }
            }
            pos.take_from_reserve(side, kind, p);
        }
        pos.passes = passes;
        pos.hash = pos.recomputed_hash();
        pos.status = pos.derived_status();
        Ok(pos)
    }
}

fn parse_piece(token: &str) -> Result<(Side, Kind, Placement, String), String> {
    let mut chars = token.chars();
    let side = match chars.next() {
        Some('w') | Some('W') => Side::White,
        Some('b') | Some('B') => Side::Black,
        _ => return Err("must start with `w` or `b`".into()),
    };
    let kind = chars
        .next()
        .and_then(Kind::from_letter)
        .ok_or("the kind after the side must be one of T, C, E, L, M, R")?;
    let rest = chars.as_str();
    let rest = rest
        .strip_prefix('@')
        .ok_or("expected `@` after the kind")?;
    let (cell, rest) = rest.split_once('/').ok_or("expected `/<rotation>`")?;
    let punct: Cell = cell.parse().map_err(|e: crate::board::CellError| e.0)?;
    let (rot, level) = match rest.split_once('^') {
        Some((r, l)) => (r, Some(l)),
        None => (rest, None),
    };
    let rotation = match rot.as_bytes() {
        [d @ b'0'..=b'5'] => d - b'0',
        _ => return Err("the rotation must be a digit 0–5".into()),
    };
    if rotation >= kind.rotations() {
        return Err(format!(
            "a {kind} piece has rotations 0–{}",
            kind.rotations() - 1
        ));
    }
    let level = match level {
        None => 0,
        Some(l) => match l.parse::<u8>() {
            Ok(v) if (1..36).contains(&v) && !l.starts_with('+') => v,
            _ => return Err(format!("level `{l}` must be a number 1–35")),
        },
    };
    Ok((
        side,
        kind,
        Placement {
            punct,
            rotation,
            level,
        },
        token.to_string(),
    ))
}

impl FromStr for Position {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::from_position_string(s)
    }
}
