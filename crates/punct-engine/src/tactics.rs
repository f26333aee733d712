//! Tactics before any search: immediate wins, and which moves leave the
//! opponent no immediate win.

use crate::paths::{corridor_within, Costs};
use punct_core::{footprint, Bitboard, Cell, Move, Position, Side, Status};

/// The three cells a move puts its piece on, its PÜNCT's first (`None` for
/// a pass, a relocation from an empty cell, or a dot off the board).
pub fn move_footprint(pos: &Position, mv: Move) -> Option<[Cell; 3]> {
    match mv {
        Move::Add {
            kind,
            punct,
            rotation,
        } => footprint(kind, punct, rotation),
        Move::Relocate { from, to, rotation } => pos
            .top_piece(from)
            .and_then(|p| footprint(p.kind, to, rotation)),
        Move::Pass => None,
    }
}

/// The cells a move puts its piece on (empty for a pass).
pub fn target_cells(pos: &Position, mv: Move) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for c in move_footprint(pos, mv).into_iter().flatten() {
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
            wins_at_once(&mut scratch, mv)
        })
        .collect()
}

/// Whether `mv`, legal in `pos`, wins at once for the side to move.
pub fn wins_at_once(pos: &mut Position, mv: Move) -> bool {
    let me = pos.side_to_move();
    let undo = pos.make(mv);
    let won = pos.status() == Status::Won(me);
    pos.unmake(undo);
    won
}

/// The first of `tries` (any of them may be illegal in `pos`) that wins at
/// once for the side to move: a cheap look before a full search, since a
/// win found earlier often still stands.
pub fn first_win_among(pos: &mut Position, tries: &[Move]) -> Option<Move> {
    tries
        .iter()
        .copied()
        .find(|&t| pos.is_legal(t) && wins_at_once(pos, t))
}

/// Whether the side to move has a move that wins at once.
pub fn has_winning_move(pos: &Position) -> bool {
    !winning_moves(pos).is_empty()
}

/// The same position with the other side to move, as if the side to move
/// passed (not a legal move: for finding threats).
pub fn null_move(pos: &Position) -> Option<Position> {
    pos.null_move()
}

/// Whether the opponent of the side to move could win at once if it were
/// their move: a threat the side to move must answer.
pub fn threatened(pos: &Position) -> bool {
    // A win at once needs a chain lacking at most three cells or a last
    // piece to add: ask the board before copying the position.
    let them = pos.side_to_move().opponent();
    if pos.reserve_total(them) != 1 && crate::puzzle::gap(pos, them, 3).is_none() {
        return false;
    }
    null_move(pos).is_some_and(|null| !null.status().is_over() && has_winning_move(&null))
}

/// The first `max` moves of `moves` (in their order) that leave the
/// opponent no immediate win.
///
/// Checking every move is slow, so a necessary condition comes first. The
/// opponent's winning moves are found as if we passed; a move of ours can
/// only stop them by putting a dot on a cell they use: their footprints,
/// the cells of a piece they would move, their own cells on chains lacking
/// at most three cells, or (when their next addition ends the game) the
/// central hexagon. With no threat, an addition is safe (it only adds our
/// dots), and a relocation can create one only by freeing or uncovering
/// cells on a chain of theirs that lacks at most six cells (a winning move
/// then fills at most three more); other relocations are safe too.
///
/// Each check plays the move and looks for the opponent's winning replies,
/// so where no move is safe the checks alone could outlast the time for
/// the move: `give_up(found)` is asked before each check with the number
/// of safe moves found so far, and once it says so those are returned.
pub fn safe_moves(
    pos: &Position,
    moves: &[Move],
    max: usize,
    give_up: &mut dyn FnMut(usize) -> bool,
) -> Vec<Move> {
    let me = pos.side_to_move();
    let Some(null) = null_move(pos) else {
        let mut out = Vec::new();
        for &m in moves {
            if out.len() == max || give_up(out.len()) {
                break;
            }
            if is_safe(pos, m) {
                out.push(m);
            }
        }
        return out;
    };
    let threats = if null.status().is_over() {
        Vec::new()
    } else {
        winning_moves(&null)
    };
    let mut relevant = corridor_within(pos, me.opponent(), Costs::Missing, 3).chain;
    for &t in &threats {
        relevant |= target_cells(&null, t);
        if let Move::Relocate { from, .. } = t {
            if let Some(p) = null.top_piece(from) {
                for c in p.cells {
                    relevant.insert(c);
                }
            }
        }
    }
    if pos.reserve_total(me.opponent()) == 1 {
        relevant |= Bitboard::CENTRAL;
    }
    let ends_game = |m: Move| matches!(m, Move::Add { .. }) && pos.reserve_total(me) == 1;
    let their_wide_chains = if threats.is_empty() {
        corridor_within(pos, me.opponent(), Costs::Missing, 6).cells
    } else {
        Bitboard::EMPTY
    };
    let mut out = Vec::new();
    for &m in moves {
        if out.len() == max {
            break;
        }
        let worth_checking = if threats.is_empty() {
            match m {
                Move::Relocate { from, .. } => pos
                    .top_piece(from)
                    .is_some_and(|p| p.cells.iter().any(|c| their_wide_chains.contains(*c))),
                _ => false,
            }
        } else {
            ends_game(m) || !(target_cells(pos, m) & relevant).is_empty()
        };
        let safe = if worth_checking {
            if give_up(out.len()) {
                break;
            }
            is_safe_against(pos, m, &threats)
        } else {
            threats.is_empty()
        };
        if safe {
            out.push(m);
        }
    }
    out
}

/// [`is_safe`], trying first the wins the opponent already threatens: most
/// moves leave one of them standing, and finding that is far cheaper than
/// listing every winning reply (which only a move that stops them all needs).
fn is_safe_against(pos: &Position, mv: Move, threats: &[Move]) -> bool {
    let mut after = pos.clone();
    after.make(mv);
    match ends_well(&after, pos.side_to_move()) {
        Some(ok) => ok,
        None => first_win_among(&mut after, threats).is_none() && !has_winning_move(&after),
    }
}

/// Whether a game that `mover`'s move just ended ended well for them (won
/// or drawn; `None` while it goes on). A relocation can uncover the
/// opponent's dots and complete their chain: such a move loses at once and
/// is never safe.
fn ends_well(after: &Position, mover: Side) -> Option<bool> {
    match after.status() {
        Status::Ongoing => None,
        Status::Won(s) => Some(s == mover),
        Status::Draw => Some(true),
    }
}

/// Whether `mv` leaves the opponent without an immediate win (a move that
/// wins outright is safe, one that hands the opponent the game is not).
pub fn is_safe(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    after.make(mv);
    ends_well(&after, pos.side_to_move()).unwrap_or_else(|| !has_winning_move(&after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{all_wins, WHITE_THREATENS};
    use punct_core::{Side, Variant};

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
    fn safe_moves_agree_with_checking_every_move() {
        use crate::{Player, RandomPlayer};
        let threatened = crate::fixtures::black_must_block();
        let mut positions = vec![threatened];
        for seed in 0..6 {
            let mut player = RandomPlayer::new(seed + 100);
            let mut pos = Position::new(Variant::Standard);
            let mut ply = 0;
            while let Some(mv) = player.choose(&pos) {
                if ply % 9 == 8 {
                    positions.push(pos.clone());
                }
                pos.make(mv);
                ply += 1;
            }
        }
        for pos in positions {
            let moves = pos.legal_moves();
            let want: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| is_safe(&pos, m))
                .collect();
            let got = safe_moves(&pos, &moves, usize::MAX, &mut |_| false);
            let missing: Vec<String> = want
                .iter()
                .filter(|m| !got.contains(m))
                .map(|m| m.to_string())
                .collect();
            let extra: Vec<String> = got
                .iter()
                .filter(|m| !want.contains(m))
                .map(|m| m.to_string())
                .collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{pos:?}: missing {missing:?}, extra {extra:?}"
            );
        }
    }

    #[test]
    fn the_safety_check_gives_up_when_asked() {
        let pos = crate::fixtures::every_move_allows_a_win();
        let moves = pos.legal_moves();
        // Unbounded, it checks move after move and finds none safe.
        let mut checks = 0;
        let got = safe_moves(&pos, &moves, 1, &mut |found| {
            assert_eq!(found, 0);
            checks += 1;
            false
        });
        assert!(got.is_empty(), "{got:?} would be safe");
        assert!(checks > 100, "only {checks} moves needed checking");
        // Told to give up after ten checks, it stops there.
        let mut asked = 0;
        let got = safe_moves(&pos, &moves, 1, &mut |_| {
            asked += 1;
            asked > 10
        });
        assert!(got.is_empty());
        assert_eq!(asked, 11);
    }

    /// White to move, Black threatens to connect; lifting White's top
    /// piece off L6 uncovers a black dot and completes Black's chain.
    const UNCOVERS: &str = "standard:w:0:wR@D11/1,wE@H13/2,bT@H15/1,bE@I12/4,wC@I16/2,bE@J3/1,wM@J10/2,wM@J15/4,wC@L6/0,bC@L15/0,bE@L17/2,bL@M5/1,bC@M7/0,wL@M9/2,bR@M11/5,bE@N11/0,bT@N14/1,bT@O8/1,bM@O12/5,bM@P9/3,bR@G14/2^1,wR@J15/0^1,bL@J17/1^1,wL@L6/5^1,wT@L7/4^1,wE@J15/1^2";

    #[test]
    fn a_move_that_hands_the_opponent_the_game_is_not_safe() {
        let pos = Position::from_position_string(UNCOVERS).unwrap();
        let lift: Move = "L6-L9/3".parse().unwrap();
        let mut after = pos.clone();
        after.make(lift);
        assert_eq!(after.status(), Status::Won(Side::Black));
        assert!(!is_safe(&pos, lift));
        let legal = pos.legal_moves();
        let safe = safe_moves(&pos, &legal, usize::MAX, &mut |_| false);
        for m in &safe {
            let mut p = pos.clone();
            p.make(*m);
            assert_ne!(p.status(), Status::Won(Side::Black), "{m} called safe");
        }
        // Exactly the moves `is_safe` accepts, checked one by one.
        let exact: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| is_safe(&pos, m))
            .collect();
        assert_eq!(safe, exact);
    }

    #[test]
    fn blocking_moves_are_safe_and_others_are_not() {
        let black = crate::fixtures::black_must_block();
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
