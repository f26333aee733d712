//! Where a game was lost: the loser's move after which the winner
//! connects by force, proven by the connection solver, with the proof's
//! line. A post-game review names it, so that a loss is explained by a
//! move of the loser's and not only by the winner's last one.

use crate::solver::{solve, Proof, SolveLimits};
use punct_core::{Move, Position, Side, Status};

/// The loser's move that lost: after it the winner wins within `wins_in`
/// of its own moves whatever the loser does, as `line` shows (the
/// winner's move, a reply, …, the winning move): by a connection, or
/// (`by_connection` false) by the game's end on the central count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LosingMove {
    /// The move's ply, counted from 1 at the game's start.
    pub ply: usize,
    pub side: Side,
    pub mv: Move,
    pub wins_in: u32,
    pub line: Vec<Move>,
    pub by_connection: bool,
}

/// The earliest move of the loser after which the winner (of the game
/// `moves` from `start`, won by a connection) wins by force within
/// `depth` of its moves: looked for from the end backwards, each of the
/// loser's moves in turn until one leaves no forced connection the solver
/// proves within `limits`. None when the game was not won by a connection.
pub fn losing_move(
    start: &Position,
    moves: &[Move],
    depth: u32,
    limits: &SolveLimits,
) -> Option<LosingMove> {
    // Every position of the game: positions[i] is the one before moves[i].
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut pos = start.clone();
    positions.push(pos.clone());
    for &m in moves {
        pos.play(m).ok()?;
        positions.push(pos.clone());
    }
    let Status::Won(winner) = pos.status() else {
        return None;
    };
    pos.connection(winner)?;
    let loser = winner.opponent();
    let mut found = None;
    for i in (0..moves.len()).rev() {
        if positions[i].side_to_move() != loser {
            continue;
        }
        let after = &positions[i + 1];
        if after.status().is_over() {
            continue;
        }
        let solution = solve(after, depth, limits);
        match solution.proof {
            Proof::Proven { line } => {
                let mut end = after.clone();
                for &m in &line {
                    end.make(m);
                }
                found = Some(LosingMove {
                    ply: i + 1,
                    side: loser,
                    mv: moves[i],
                    wins_in: solution.depth,
                    by_connection: end.connection(winner).is_some(),
                    line,
                });
            }
            // Before this move the win was not yet forced (as far as the
            // solver sees): the move after it lost.
            Proof::Disproven | Proof::Unknown => break,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::{parse_moves, Variant};

    /// Black wins by connection with E11-H11/1 (public case 6).
    const BLACK_WINS: &str = "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 \
        L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4 C@C2/0 T@L11/3 E11-H11/1";

    #[test]
    fn a_game_won_by_connection_names_a_losing_move_of_the_loser_with_a_proof() {
        let start = Position::new(Variant::Standard);
        let moves = parse_moves(BLACK_WINS).unwrap();
        let lost = losing_move(&start, &moves, 3, &SolveLimits::default()).expect("a losing move");
        assert_eq!(lost.side, Side::White);
        assert_eq!(moves[lost.ply - 1], lost.mv);
        // The line is legal from the position after it and ends in Black's connection.
        let mut pos = start.clone();
        for &m in &moves[..lost.ply] {
            pos.play(m).unwrap();
        }
        assert_eq!(pos.side_to_move(), Side::Black);
        for &m in &lost.line {
            pos.play(m).unwrap();
        }
        assert_eq!(pos.status(), Status::Won(Side::Black));
        assert_eq!(lost.by_connection, pos.connection(Side::Black).is_some());
        assert!(lost.wins_in >= 1 && lost.wins_in <= 3);
    }

    #[test]
    fn an_unfinished_game_has_no_losing_move() {
        let start = Position::new(Variant::Standard);
        let moves = parse_moves("C@B7/2 R@F2/0").unwrap();
        assert_eq!(
            losing_move(&start, &moves, 3, &SolveLimits::default()),
            None
        );
    }
}
