//! The rules of PÜNCT (Kris Burm, 2005): board, pieces, positions, legal
//! moves, the end of the game, and the text forms of moves, positions and
//! game records. No I/O, no threads, no JSON: everything here is pure and
//! deterministic, so every other crate can build on it.
//!
//! ```
//! use punct_core::{Position, Variant, Move};
//! let mut pos = Position::new(Variant::Standard);
//! let mv: Move = "C@B7/2".parse().unwrap();
//! pos.play(mv).unwrap();
//! assert_eq!(pos.status().word(), "ongoing");
//! ```

mod bitboard;
mod board;
mod check;
mod game;
mod movegen;
mod moves;
mod piece;
mod position;
mod position_string;
mod record;

pub use bitboard::Bitboard;
pub use board::{Cell, CellError, Direction, Edge, CELL_COUNT};
pub use check::IllegalMove;
pub use game::{Game, ReplayError};
pub use moves::{parse_moves, Move, ParseMoveError};
pub use piece::{footprint, BridgeShape, Kind, Side};
pub use position::{Connection, Dot, PieceView, Placement, Position, Status, Undo, Variant};
pub use position_string::PositionError;
pub use record::{move_number, Outcome, Record, RecordError};
