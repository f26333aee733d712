//! Tactics before any search: immediate wins, and which moves leave the
//! opponent no immediate win.

use crate::paths::{corridor_within, Costs};
use punct_core::{footprint, Bitboard, Move, Position, Status};

/// The cells a move puts its piece on (empty for a pass).
pub fn target_cells(pos: &Position, mv: Move) -> Bitboard {
    let cells = match mv {
        Move::Add {
            kind,
            punct,
            rotation,
        } => footprint(kind, punct, rotation),
        Move::Relocate { from, to, rotation } => pos
            .top_piece(from)
            .and_then(|p| footprint(p.kind, to, rotation)),
        Move::Pass => None,
    };
    let mut b = Bitboard::EMPTY;
    for c in cells.into_iter().flatten() {
        b.insert(c);
    }
    b
}

/// Every move that wins at once for the side to move.
///
/// A move changes which cells show the mover's colour only where it puts its
/// piece (cells it lifts from showed the mover already), so a connection
/// made by one move needs a chain lacking at most three cells, all under
/// the new piece. Only moves onto such a chain are tried; when the mover is
/// adding their last piece the game ends on the central count, so then
/// every addition is tried too.
pub fn winning_moves(pos: &Position) -> Vec<Move> {
    if pos.status().is_over() {
        return Vec::new();
    }
    let side = pos.side_to_move();
    let last_piece = pos.reserve_total(side) == 1;
    let chain = corridor_within(pos, side, Costs::Missing, 3);
    let near = chain.distance <= 3;
    if !near && !last_piece {
        return Vec::new();
    }
    let mut scratch = pos.clone();
    pos.legal_moves()
        .into_iter()
        .filter(|&mv| {
            let useful = (near && !(target_cells(pos, mv) & chain.cells).is_empty())
                || (last_piece && matches!(mv, Move::Add { .. }));
            if !useful {
                return false;
            }
            let undo = scratch.make(mv);
            let won = scratch.status() == Status::Won(side);
            scratch.unmake(undo);
            won
        })
        .collect()
}

/// Whether the side to move has a move that wins at once.
pub fn has_winning_move(pos: &Position) -> bool {
    !winning_moves(pos).is_empty()
}

/// Whether `mv` leaves the opponent without an immediate win (a move that
/// wins outright is safe).
pub fn is_safe(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    after.make(mv);
    after.status().is_over() || !has_winning_move(&after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::{Side, Variant};

    const WHITE_THREATENS: &str = "basic:w:0:wE@B9/5,wE@E9/5,wE@H9/5,wE@K9/5,wC@O9/2,\
        wT@Q10/2,bT@C3/0,bT@E3/0,bT@G3/0,bT@F12/0,bT@H14/0,bT@J15/0";

    /// Every legal move tried, for comparison.
    fn all_wins(pos: &Position) -> Vec<Move> {
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

    #[test]
    fn finds_exactly_the_winning_moves() {
        let pos = Position::from_position_string(WHITE_THREATENS).unwrap();
        let wins = winning_moves(&pos);
        assert!(wins.contains(&"T@A8/5".parse().unwrap()));
        assert_eq!(wins, all_wins(&pos));
        assert!(Position::new(Variant::Standard).legal_moves().len() > 100);
        assert!(winning_moves(&Position::new(Variant::Standard)).is_empty());
    }

    #[test]
    fn agrees_with_trying_every_move_along_random_games() {
        use crate::{Player, RandomPlayer};
        let mut with_wins = 0;
        for seed in 0..12 {
            let mut player = RandomPlayer::new(seed);
            let mut pos = Position::new(if seed % 2 == 0 {
                Variant::Standard
            } else {
                Variant::Basic
            });
            let mut history = Vec::new();
            while let Some(mv) = player.choose(&pos) {
                history.push(pos.clone());
                pos.make(mv);
            }
            for p in history.iter().rev().take(8) {
                let want = all_wins(p);
                with_wins += usize::from(!want.is_empty());
                assert_eq!(winning_moves(p), want, "seed {seed}: {p:?}");
            }
        }
        assert!(with_wins > 0, "no sampled position had a winning move");
    }

    #[test]
    fn blocking_moves_are_safe_and_others_are_not() {
        let black =
            Position::from_position_string(&WHITE_THREATENS.replace("basic:w", "basic:b")).unwrap();
        assert_eq!(black.side_to_move(), Side::Black);
        // Covering A8's neighbourhood on side A is the only defence: a black
        // piece on A8 and A7 … leaves White needing another route.
        let far_away: Move = "E@P16/0".parse().unwrap();
        assert!(black.is_legal(far_away));
        assert!(!is_safe(&black, far_away));
        let safe: Vec<Move> = black
            .legal_moves()
            .into_iter()
            .filter(|&m| is_safe(&black, m))
            .collect();
        assert!(!safe.is_empty());
        for m in safe.iter().take(20) {
            let mut p = black.clone();
            p.make(*m);
            assert!(all_wins(&p).is_empty(), "{m} leaves a win");
        }
    }
}
