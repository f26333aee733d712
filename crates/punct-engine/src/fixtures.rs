//! Positions shared by this crate's unit tests.

use punct_core::{Move, Position, Status, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Every move that wins at once for the side to move, found by trying
/// every legal move (what the faster searches are checked against).
pub fn all_wins(pos: &Position) -> Vec<Move> {
    let side = pos.side_to_move();
    pos.legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut p = pos.clone();
            p.make(m);
            p.status() == Status::Won(side)
        })
        .collect()
}

/// White's chain B9…P9–Q10 lacks only a dot on side A (A8 touches B9), so
/// `T@A8/5` wins; with Black to move (`basic:b:…`) Black must block.
pub const WHITE_THREATENS: &str = "basic:w:0:wE@B9/5,wE@E9/5,wE@H9/5,wE@K9/5,wC@O9/2,\
    wT@Q10/2,bT@C3/0,bT@E3/0,bT@G3/0,bT@F12/0,bT@H14/0,bT@J15/0";

/// [`WHITE_THREATENS`] with Black to move.
pub fn black_must_block() -> Position {
    Position::from_position_string(&WHITE_THREATENS.replacen("basic:w", "basic:b", 1)).unwrap()
}

/// From a match game (level 3 against level 2, 200 ms a move) where Black,
/// to move, cannot stop White's threats: checking every move for safety
/// took a second, five times the time per move, and level 2 lost on time.
pub fn every_move_allows_a_win() -> Position {
    let moves = "L@E2/1 M@N15/5 E@H4/4 T@O8/3 C@O10/1 C@M9/0 L@N8/1 O8-M8/0 C@L6/2 \
        L@N7/0 E@C2/2 C@M12/0 T@G3/0 E@J15/2 T@Q13/1 T@L16/0 M@G15/3 L@H14/1 \
        G3-G14/0 T@G4/0 M@G2/1 M8-M8/4 E@O9/0 G4-G7/3 E@O16/0 G7-N7/1 \
        O9-O10/2 N7-N9/3 R@O8/0 N15-N7/1 T@L9/0 T@O12/0 O16-J11/0 N9-M9/1 \
        E2-M10/0 N7-N9/0 M10-M7/5 N9-N8/5 T@E2/1 M12-K10/0 O8-K8/5 O12-L9/4 \
        R@N11/4 L9-M9/3 G14-G9/4 L16-L9/1 T@P8/1";
    let mut pos = Position::new(Variant::Standard);
    for m in moves.split_whitespace() {
        pos.play(m.parse().unwrap()).unwrap();
    }
    pos
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

/// Every unfinished position along uniformly random games, one game per
/// `(variant, seed)`.
pub fn random_game_positions(games: impl IntoIterator<Item = (Variant, u64)>) -> Vec<Position> {
    use crate::{Player, RandomPlayer};
    let mut out = Vec::new();
    for (variant, seed) in games {
        let mut r = RandomPlayer::new(seed);
        let mut pos = Position::new(variant);
        while let Some(m) = r.choose(&pos) {
            pos.make(m);
            if !pos.status().is_over() {
                out.push(pos.clone());
            }
        }
    }
    out
}
