//! Positions shared by this crate's unit tests.

use punct_core::{Position, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// White's chain B9…P9–Q10 lacks only a dot on side A (A8 touches B9), so
/// `T@A8/5` wins; with Black to move (`basic:b:…`) Black must block.
pub const WHITE_THREATENS: &str = "basic:w:0:wE@B9/5,wE@E9/5,wE@H9/5,wE@K9/5,wC@O9/2,\
    wT@Q10/2,bT@C3/0,bT@E3/0,bT@G3/0,bT@F12/0,bT@H14/0,bT@J15/0";

/// [`WHITE_THREATENS`] with Black to move.
pub fn black_must_block() -> Position {
    Position::from_position_string(&WHITE_THREATENS.replacen("basic:w", "basic:b", 1)).unwrap()
}

/// A position after up to `plies` uniformly random moves (seeded), stopping
/// before a move that would end the game.
pub fn random_position(variant: Variant, seed: u64, plies: usize) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::new(variant);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        let undo = pos.make(m);
        if pos.status().is_over() {
            pos.unmake(undo);
            break;
        }
    }
    pos
}
