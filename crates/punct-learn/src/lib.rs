//! Learning the game, apart from serving it: the rules page's diagrams
//! (each a position reached by legal moves, with claims a test proves),
//! the tutorial's lessons and their judge (a move is judged by what it
//! does, never against one stored answer), and the puzzles with the puzzle
//! of the day and the judge of a try.
//!
//! Everything here is a plain function over positions and moves: no HTTP,
//! no server state. The server (`punct-server`'s `learn` handlers) shows
//! these values as JSON; the page words them from its catalogue.

pub mod diagrams;
pub mod puzzles;
pub mod tutorial;

use punct_core::{Move, Position, Variant};

/// The position reached by playing `moves` (separated by spaces) from the
/// empty board of `variant`; else which move fails and why.
pub fn replay(variant: Variant, moves: &str) -> Result<Position, String> {
    let mut pos = Position::new(variant);
    for (i, text) in moves.split_whitespace().enumerate() {
        let fail = |e: &dyn std::fmt::Display| format!("move {} `{text}`: {e}", i + 1);
        let mv: Move = text.parse().map_err(|e| fail(&e))?;
        pos.play(mv).map_err(|e| fail(&e))?;
    }
    Ok(pos)
}

/// `s` split at spaces: the lists of cells and moves the content is
/// written with.
pub fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}
