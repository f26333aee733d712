//! Puzzles: exact proofs, from the rules alone (`punct-core`), of three
//! kinds of tactical task, and the full list of solutions of each.
//!
//! * **Win in one** — the side to move has a move that wins at once; the
//!   solutions are every such move.
//! * **Stop the win** — the side to move cannot win at once, the opponent
//!   could win at once if it were their turn (a threat), and some moves
//!   leave the opponent no winning move; the solutions are every such move.
//! * **Win in two** — the side to move cannot win at once, but has a move
//!   after which *every* legal reply (passes included) leaves a winning
//!   move (or has already lost the game for the opponent); the solutions
//!   are every such first move.
//!
//! "Wins" means the game ends with the mover as winner, by a connection or
//! by the central count when the last piece of a reserve is added (or on a
//! second pass in a row); see `docs/RULES.md` §5.
//!
//! Nothing here is heuristic: every move is accounted for. The speed comes
//! from a necessary condition that is exact, never a guess. A move changes
//! the mover's visible cells only where it puts its piece (the cells a moved
//! piece leaves showed the mover's colour already), so a move can connect
//! only if some chain between opposite sides lacks at most three of the
//! mover's cells and the piece lands on one of the missing cells. Those
//! cells ([`reach_cells`]) are found with a few bitboard floods; most
//! positions have none, and then only the central-count ending can win.

use crate::tactics::{first_win_among, target_cells, wins_at_once};
use punct_core::{footprint, Bitboard, Cell, Edge, Kind, Move, Position, Side, Status, Variant};
use std::fmt;
use std::str::FromStr;

/// The kinds of puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PuzzleKind {
    WinInOne,
    StopTheWin,
    WinInTwo,
}

impl PuzzleKind {
    pub const ALL: [PuzzleKind; 3] = [
        PuzzleKind::WinInOne,
        PuzzleKind::StopTheWin,
        PuzzleKind::WinInTwo,
    ];

    /// `win-in-one`, `stop-the-win` or `win-in-two` (the puzzle file's and
    /// the API's word).
    pub const fn name(self) -> &'static str {
        match self {
            PuzzleKind::WinInOne => "win-in-one",
            PuzzleKind::StopTheWin => "stop-the-win",
            PuzzleKind::WinInTwo => "win-in-two",
        }
    }
}

impl fmt::Display for PuzzleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PuzzleKind {
    type Err = String;
    fn from_str(s: &str) -> Result<PuzzleKind, String> {
        PuzzleKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!(
                    "`{s}` is not a puzzle kind: expected win-in-one, stop-the-win or win-in-two"
                )
            })
    }
}

// ------------------------------------------------------------ chains

/// The cells not showing `side`'s colour that lie on some chain between
/// opposite sides lacking at most `max` of `side`'s cells (a cell counts as
/// lacking whatever is on it: empty or the opponent's).
///
/// With `dA(c)` the fewest lacking cells on a path from side A to `c` (`c`
/// included), a lacking cell is on such a chain exactly when
/// `dA(c) + dB(c) − 1 ≤ max`.
pub fn reach_cells(pos: &Position, side: Side, max: u32) -> Bitboard {
    let own = pos.visible(side);
    let mut out = Bitboard::EMPTY;
    for (a, b) in Edge::PAIRS {
        let ra = levels(own, Bitboard::edge(a), max);
        let rb = levels(own, Bitboard::edge(b), max);
        for i in 1..=max as usize {
            out |= ra[i] & rb[max as usize + 1 - i];
        }
    }
    out & !own & Bitboard::BOARD
}

/// The fewest cells `side` lacks for a chain between opposite sides, or
/// `None` when that is more than `max`.
pub fn gap(pos: &Position, side: Side, max: u32) -> Option<u32> {
    let own = pos.visible(side);
    let mut best: Option<u32> = None;
    for (a, b) in Edge::PAIRS {
        let ra = levels(own, Bitboard::edge(a), max);
        let eb = Bitboard::edge(b);
        if let Some(k) = (0..=max as usize).find(|&k| !(ra[k] & eb).is_empty()) {
            // Reaching side B's cell costs it already when it is not ours.
            best = Some(best.map_or(k as u32, |b| b.min(k as u32)));
        }
    }
    best
}

/// `r[k]`: the cells reachable from `edge` through paths lacking at most `k`
/// cells of `own` (each cell of the path, its first included, counts once).
fn levels(own: Bitboard, edge: Bitboard, max: u32) -> Vec<Bitboard> {
    let mut r = Vec::with_capacity(max as usize + 2);
    r.push((edge & own).flood(own));
    for k in 1..=max as usize + 1 {
        let seeds = r[k - 1] | r[k - 1].grown() | edge;
        r.push(seeds | (seeds.grown() & own).flood(own));
    }
    r
}

// ------------------------------------------------------------ win in one

/// Whether additions may not touch the central hexagon now (docs/RULES.md §4).
fn centre_banned(pos: &Position) -> bool {
    match pos.variant() {
        Variant::Standard => true,
        Variant::Basic => {
            pos.side_to_move() == Side::White
                && pos.reserve_total(Side::White) == 18
                && pos.reserve_total(Side::Black) == 18
        }
    }
}

/// For each pair of opposite sides (A, B), the cells that join a new piece
/// to side A and those that join it to side B: a side's own cells, and the
/// cells of `own` connected to the side together with their neighbours.
///
/// A piece's three cells F are connected among themselves, so with `own`
/// not yet connected, `own ∪ F` joins A and B exactly when F meets both
/// sets of some pair: the group F lands in is F and every group of `own`
/// it touches or borders.
fn link_sets(own: Bitboard) -> [(Bitboard, Bitboard); 3] {
    Edge::PAIRS.map(|(a, b)| {
        let link = |e: Edge| {
            let edge = Bitboard::edge(e);
            edge | (edge & own).flood(own).grown()
        };
        (link(a), link(b))
    })
}

/// Whether cells `f` meet both link sets of some pair.
#[inline]
fn links(sets: &[(Bitboard, Bitboard); 3], f: [Cell; 3]) -> bool {
    sets.iter()
        .any(|(a, b)| f.iter().any(|&c| a.contains(c)) && f.iter().any(|&c| b.contains(c)))
}

/// The moves of the side to move that make it connected, each once, in no
/// particular order: additions exactly; relocations among those whose new
/// cells link (the cells a moved piece leaves may break a chain, so each is
/// played to be sure). Stops at the first when `all` is false.
fn connecting_moves(pos: &mut Position, all: bool, out: &mut Vec<Move>) {
    let me = pos.side_to_move();
    let own = pos.visible(me);
    let sets = link_sets(own);
    // A piece's dots are at most two steps apart, so one of them is in
    // set A within two steps of set B.
    let mut near = Bitboard::EMPTY;
    for (a, b) in &sets {
        near |= *a & b.grown().grown();
    }
    if near.is_empty() {
        return;
    }
    let cells: Vec<Cell> = near.cells().collect();
    let banned = centre_banned(pos);
    for kind in Kind::ALL {
        if pos.reserve(me, kind) == 0 {
            continue;
        }
        for rotation in 0..kind.rotations() {
            let offs = kind.offsets(rotation);
            for &c in &cells {
                for i in 0..3 {
                    let Some(punct) = c.offset(-offs[i]) else {
                        continue;
                    };
                    let Some(fp) = footprint(kind, punct, rotation) else {
                        continue;
                    };
                    if fp[..i].iter().any(|d| near.contains(*d)) {
                        continue; // found from an earlier dot
                    }
                    if links(&sets, fp)
                        && fp
                            .iter()
                            .all(|&d| pos.height(d) == 0 && !(banned && d.is_central()))
                    {
                        out.push(Move::Add {
                            kind,
                            punct,
                            rotation,
                        });
                        if !all {
                            return;
                        }
                    }
                }
            }
        }
    }
    // Relocations of the mover's uncovered pieces.
    let first = out.len();
    for from in own.cells() {
        let Some(piece) = pos.top_piece(from) else {
            continue;
        };
        if piece.placement.punct != from
            || piece.cells.iter().any(|&c| pos.top_piece(c) != Some(piece))
        {
            continue;
        }
        let kind = piece.kind;
        for rotation in 0..kind.rotations() {
            let offs = kind.offsets(rotation);
            for &c in &cells {
                for off in offs {
                    let Some(to) = c.offset(-off) else {
                        continue;
                    };
                    if !(to == from || to.in_line_with(from))
                        || (to == from && rotation == piece.placement.rotation)
                    {
                        continue;
                    }
                    let Some(fp) = footprint(kind, to, rotation) else {
                        continue;
                    };
                    let mv = Move::Relocate { from, to, rotation };
                    if links(&sets, fp) && !out[first..].contains(&mv) && pos.is_legal(mv) {
                        let undo = pos.make(mv);
                        let won = pos.status() == Status::Won(me);
                        pos.unmake(undo);
                        if won {
                            out.push(mv);
                            if !all {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Looks for moves that win at once for the side to move; stops at the
/// first when `all` is false. `hints` are tried first (any of them may be
/// illegal here).
fn wins(pos: &mut Position, all: bool, hints: &[Move]) -> Vec<Move> {
    let mut found = Vec::new();
    if pos.status().is_over() {
        return found;
    }
    let me = pos.side_to_move();
    if !all {
        if let Some(h) = first_win_among(pos, hints) {
            found.push(h);
            return found;
        }
    }
    if pos.passes() > 0 {
        // The opponent just passed, so a pass of ours (legal only without
        // other moves) would end the game on the count. Rare: try all.
        for mv in pos.legal_moves() {
            if wins_at_once(pos, mv) {
                found.push(mv);
                if !all {
                    return found;
                }
            }
        }
        return found;
    }
    // Adding the last piece of a reserve ends the game. In the standard
    // game the central count decides, and an addition leaves the central
    // hexagon as it was (additions stay out of it) and gives the opponent
    // no cell: ahead on the count, every addition wins. (The basic game's
    // count is a draw.)
    let count_win = pos.reserve_total(me) == 1
        && pos.variant() == Variant::Standard
        && pos.central_count(me) > pos.central_count(me.opponent());
    if count_win {
        for mv in pos.legal_moves() {
            if let Move::Add { .. } = mv {
                found.push(mv);
                if !all {
                    return found;
                }
            }
        }
        let mut connecting = Vec::new();
        connecting_moves(pos, true, &mut connecting);
        found.extend(
            connecting
                .into_iter()
                .filter(|m| matches!(m, Move::Relocate { .. })),
        );
        return found;
    }
    connecting_moves(pos, all, &mut found);
    found
}

/// Every move that wins at once for the side to move, in generation order
/// (the order of [`Position::legal_moves`]).
pub fn winning_moves(pos: &Position) -> Vec<Move> {
    let mut p = pos.clone();
    let found = wins(&mut p, true, &[]);
    in_generation_order(pos, found)
}

/// Whether the side to move has a move that wins at once.
pub fn has_winning_move(pos: &Position) -> bool {
    !wins(&mut pos.clone(), false, &[]).is_empty()
}

fn in_generation_order(pos: &Position, mut found: Vec<Move>) -> Vec<Move> {
    if found.len() < 2 {
        return found;
    }
    let order = pos.legal_moves();
    found.sort_by_key(|m| order.iter().position(|o| o == m).unwrap_or(usize::MAX));
    found.dedup();
    found
}

// ------------------------------------------------------------ threats

/// The same position with the other side to move, as if the side to move
/// had passed: for asking what the opponent threatens.
pub fn null_move(pos: &Position) -> Option<Position> {
    pos.null_move()
}

/// The opponent's winning moves if it were their turn now (empty when there
/// is no threat).
pub fn threats(pos: &Position) -> Vec<Move> {
    null_move(pos).map_or_else(Vec::new, |n| winning_moves(&n))
}

/// Whether, after the moves already made on `pos`, the side that is to move
/// now cannot win at once (or the game is over and it has not won).
/// `hints` are its likely winning moves, tried first.
fn no_win_for_mover(pos: &mut Position, hints: &mut Vec<Move>) -> bool {
    match pos.status() {
        Status::Ongoing => {}
        Status::Won(s) => return s != pos.side_to_move(),
        Status::Draw => return true,
    }
    match wins(pos, false, hints).first() {
        Some(&w) => {
            remember(hints, w);
            false
        }
        None => true,
    }
}

fn remember(list: &mut Vec<Move>, mv: Move) {
    if let Some(i) = list.iter().position(|&m| m == mv) {
        list.remove(i);
    }
    list.insert(0, mv);
    list.truncate(8);
}

/// Every move of the side to move after which the opponent has no move that
/// wins at once (and has not already won), in generation order. A move that
/// wins outright or ends the game in a draw counts too.
pub fn defences(pos: &Position) -> Vec<Move> {
    let mut p = pos.clone();
    let mut hints = threats(pos);
    hints.truncate(8);
    let mut out = Vec::new();
    for mv in pos.legal_moves() {
        let undo = p.make(mv);
        if no_win_for_mover(&mut p, &mut hints) {
            out.push(mv);
        }
        p.unmake(undo);
    }
    out
}

// ------------------------------------------------------------ win in two

/// The state after a first move: does every reply leave the first mover a
/// win? Remembers refutations and wins across calls.
struct Replies {
    refutations: Vec<Move>,
    wins: Vec<Move>,
}

impl Replies {
    fn new() -> Replies {
        Replies {
            refutations: Vec::new(),
            wins: Vec::new(),
        }
    }

    /// Whether after `reply` (already legal) the first mover `me` has won
    /// or can win at once.
    fn answered(&mut self, pos: &mut Position, me: Side, reply: Move) -> bool {
        let undo = pos.make(reply);
        let ok = match pos.status() {
            Status::Won(s) => s == me,
            Status::Draw => false,
            Status::Ongoing => match wins(pos, false, &self.wins).first() {
                Some(&w) => {
                    remember(&mut self.wins, w);
                    true
                }
                None => false,
            },
        };
        pos.unmake(undo);
        ok
    }

    /// A reply after which `me` (who just moved) cannot win, if there is one.
    fn refutation(&mut self, pos: &mut Position, me: Side) -> Option<Move> {
        let tries: Vec<Move> = self.refutations.clone();
        for r in tries {
            if pos.is_legal(r) && !self.answered(pos, me, r) {
                remember(&mut self.refutations, r);
                return Some(r);
            }
        }
        for r in pos.legal_moves() {
            if !self.answered(pos, me, r) {
                remember(&mut self.refutations, r);
                return Some(r);
            }
        }
        None
    }
}

/// Every move of the side to move after which the game goes on and every
/// legal reply leaves a move that wins at once (or ends the game in the
/// first mover's favour), in generation order. Moves that win at once are
/// not listed.
pub fn win_in_two_moves(pos: &Position) -> Vec<Move> {
    win_in_two_at_most(pos, usize::MAX).unwrap_or_default()
}

/// [`win_in_two_moves`], giving up (`None`) as soon as more than `max` are
/// found: a puzzle with many solutions is no puzzle.
pub fn win_in_two_at_most(pos: &Position, max: usize) -> Option<Vec<Move>> {
    if pos.status().is_over() {
        return Some(Vec::new());
    }
    let me = pos.side_to_move();
    let mut p = pos.clone();
    let mut replies = Replies::new();
    let mut out = Vec::new();
    for mv in pos.legal_moves() {
        let undo = p.make(mv);
        if !p.status().is_over() && replies.refutation(&mut p, me).is_none() {
            out.push(mv);
        }
        p.unmake(undo);
        if out.len() > max {
            return None;
        }
    }
    Some(out)
}

/// After a first move (the opponent of the side to move made it), a reply
/// after which the first mover cannot win at once, if there is one: why a
/// first move is not a win in two.
pub fn refutation(after_first: &Position) -> Option<Move> {
    if after_first.status().is_over() {
        return None;
    }
    let me = after_first.side_to_move().opponent();
    Replies::new().refutation(&mut after_first.clone(), me)
}

/// After a first move of a win in two, the opponent's most stubborn reply:
/// the one leaving the fewest winning moves (replies that end the game come
/// last); among equals one that puts a piece where the first mover
/// threatens to win (an attempt to block), then the first in generation
/// order. Returned with the winning moves after it; `None` when the game
/// is over.
pub fn stubborn_reply(after_first: &Position) -> Option<(Move, Vec<Move>)> {
    if after_first.status().is_over() {
        return None;
    }
    // Where the first mover's winning moves would put their pieces.
    let mut threatened = Bitboard::EMPTY;
    if let Some(null) = null_move(after_first) {
        for w in winning_moves(&null) {
            threatened |= target_cells(&null, w);
        }
    }
    let mut p = after_first.clone();
    let mut best: Option<((usize, bool), Move, Vec<Move>)> = None;
    for r in after_first.legal_moves() {
        let blocks = !(target_cells(after_first, r) & threatened).is_empty();
        let undo = p.make(r);
        let (count, w) = if p.status().is_over() {
            (usize::MAX, Vec::new())
        } else {
            let w = wins(&mut p, true, &[]);
            (w.len(), w)
        };
        p.unmake(undo);
        let rank = (count, !blocks);
        if best.as_ref().is_none_or(|(b, _, _)| rank < *b) {
            best = Some((rank, r, w));
        }
    }
    best.map(|(_, r, w)| {
        let mut after = after_first.clone();
        after.make(r);
        (r, in_generation_order(&after, w))
    })
}

// ------------------------------------------------------------ proofs

/// Why a position is not a puzzle of the kind asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAPuzzle(pub String);

impl fmt::Display for NotAPuzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotAPuzzle {}

/// Proves that `pos` is a puzzle of `kind` and returns all its solutions
/// (first moves), in generation order; or says why it is not one.
pub fn prove(pos: &Position, kind: PuzzleKind) -> Result<Vec<Move>, NotAPuzzle> {
    let no = |m: &str| Err(NotAPuzzle(m.to_string()));
    if pos.status().is_over() {
        return no("the game is over");
    }
    let side = pos.side_to_move();
    match kind {
        PuzzleKind::WinInOne => {
            let w = winning_moves(pos);
            if w.is_empty() {
                return no(&format!("{side} has no move that wins at once"));
            }
            Ok(w)
        }
        PuzzleKind::StopTheWin => {
            if has_winning_move(pos) {
                return no(&format!("{side} can win at once"));
            }
            if threats(pos).is_empty() {
                return no(&format!(
                    "{} threatens no win (if it were their move they could not win at once)",
                    side.opponent()
                ));
            }
            let d = defences(pos);
            if d.is_empty() {
                return no(&format!("no move of {side} stops the threat"));
            }
            Ok(d)
        }
        PuzzleKind::WinInTwo => {
            if has_winning_move(pos) {
                return no(&format!("{side} can win at once"));
            }
            let w = win_in_two_moves(pos);
            if w.is_empty() {
                return no(&format!("{side} has no win in two"));
            }
            Ok(w)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::all_wins;

    fn random_positions(seeds: std::ops::Range<u64>, every: usize) -> Vec<Position> {
        use crate::{Player, RandomPlayer};
        let mut out = Vec::new();
        for seed in seeds {
            let mut player = RandomPlayer::new(seed);
            let mut pos = Position::new(if seed % 3 == 2 {
                Variant::Basic
            } else {
                Variant::Standard
            });
            let mut ply = 0;
            let mut history = Vec::new();
            while let Some(mv) = player.choose(&pos) {
                history.push(pos.clone());
                if ply % every == every - 1 {
                    out.push(pos.clone());
                }
                pos.make(mv);
                ply += 1;
            }
            out.extend(history.into_iter().rev().take(6));
        }
        out
    }

    #[test]
    fn winning_moves_agree_with_trying_every_move() {
        let mut with_wins = 0;
        let mut count_ends = 0;
        for pos in random_positions(0..16, 7) {
            let want = all_wins(&pos);
            with_wins += usize::from(!want.is_empty());
            count_ends += usize::from(pos.reserve_total(pos.side_to_move()) == 1);
            assert_eq!(winning_moves(&pos), want, "{pos:?}");
            assert_eq!(has_winning_move(&pos), !want.is_empty(), "{pos:?}");
        }
        assert!(with_wins > 5, "only {with_wins} positions had a win");
        assert!(count_ends > 0, "no position with a last piece");
    }

    /// White's chain from row 1 up column B and along the diagonal to H15
    /// lacks I16 and J17 (J17 is on row 17).
    const WHITE_CHAIN: &str = "wC@B2/0,wC@B5/0,wE@B7/3,wE@C10/4,wE@F13/4";
    const BLACK_AWAY: &str = "bE@N8/0,bE@O11/0,bT@M10/0,bT@P14/0";

    fn at(text: &str) -> Position {
        Position::from_position_string(text).unwrap()
    }

    fn texts(moves: &[Move]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn win_in_one_lists_every_winning_move() {
        let open = at(&format!("standard:w:0:{WHITE_CHAIN},{BLACK_AWAY},bC@Q13/0"));
        let wins = prove(&open, PuzzleKind::WinInOne).unwrap();
        assert_eq!(wins, all_wins(&open));
        assert!(
            wins.contains(&mv("T@I16/4")) && wins.len() == 20,
            "{:?}",
            texts(&wins)
        );
        // A black C on J16, I15 and K17 leaves one set of cells: H16, I16
        // and J17, as an L, an M or an R.
        let narrow = at(&format!("standard:w:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        let wins = prove(&narrow, PuzzleKind::WinInOne).unwrap();
        assert_eq!(texts(&wins), ["L@J17/1", "M@I16/1", "R@H16/1"]);
        assert_eq!(wins, all_wins(&narrow));
    }

    #[test]
    fn no_win_in_one_is_no_puzzle() {
        // Black to move has nothing near a connection.
        let black = at(&format!("standard:b:0:{WHITE_CHAIN},{BLACK_AWAY}"));
        let e = prove(&black, PuzzleKind::WinInOne).unwrap_err();
        assert_eq!(e.0, "black has no move that wins at once");
        assert!(prove(&Position::new(Variant::Standard), PuzzleKind::WinInOne).is_err());
        // A finished game is no puzzle of any kind.
        let mut won = at(&format!("standard:w:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        won.play(mv("L@J17/1")).unwrap();
        assert_eq!(won.status(), Status::Won(Side::White));
        for kind in PuzzleKind::ALL {
            assert_eq!(prove(&won, kind).unwrap_err().0, "the game is over");
        }
    }

    #[test]
    fn stopping_the_win_lists_every_defence_and_turning_in_place_is_one() {
        let pos = at(&format!("standard:b:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        assert_eq!(texts(&threats(&pos)), ["L@J17/1", "M@I16/1", "R@H16/1"]);
        let defences = prove(&pos, PuzzleKind::StopTheWin).unwrap();
        // Turning the C on J16 in place covers J17 (rotation 0) or I16
        // (rotation 2).
        for d in ["J16-J16/0", "J16-J16/2", "E@H16/1", "M@I16/1"] {
            assert!(
                defences.contains(&mv(d)),
                "{d} is missing from {:?}",
                texts(&defences)
            );
        }
        assert!(pos.is_legal(mv("T@L6/0")) && !defences.contains(&mv("T@L6/0")));
        // The engine's own check (a different method, itself checked
        // against trying every move) agrees on every move.
        let want: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| crate::tactics::is_safe(&pos, m))
            .collect();
        assert_eq!(defences, want);
        // Each defence, checked by trying every reply.
        for &d in &defences {
            let mut after = pos.clone();
            after.make(d);
            assert!(all_wins(&after).is_empty(), "{d} leaves a win");
        }
        assert_eq!(defences.len(), 14, "{:?}", texts(&defences));
    }

    #[test]
    fn without_a_threat_or_with_a_win_there_is_nothing_to_stop() {
        // White to move can win: not a defence puzzle.
        let white = at(&format!("standard:w:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        assert_eq!(
            prove(&white, PuzzleKind::StopTheWin).unwrap_err().0,
            "white can win at once"
        );
        // Without the top of the chain White threatens nothing.
        let calm = at(&format!(
            "standard:b:0:wC@B2/0,wC@B5/0,wE@B7/3,wE@C10/4,{BLACK_AWAY}"
        ));
        assert!(prove(&calm, PuzzleKind::StopTheWin)
            .unwrap_err()
            .0
            .contains("threatens no win"));
    }

    /// A position from the shipped puzzles (two-12 of the first set): Black
    /// wins in two with T@N16/0 and nothing else.
    const BLACK_WINS_IN_TWO: &str = "standard:b:0:wC@B9/0,wT@C2/0,bE@D4/2,wR@D7/5,bE@E3/2,bL@E5/3,bT@F2/1,wM@F3/2,wL@G5/2,bE@I6/1,bR@I7/4,bC@I8/2,wE@J3/2,bL@M9/1,bT@O11/0,bC@P13/1,bR@P16/2,wT@P17/1,bE@D4/4^1,wL@D7/5^1,wE@F3/2^1,wE@F5/4^1,bM@G4/5^1,wC@F3/2^2,wR@F5/4^2,bM@F4/0^3";

    #[test]
    fn win_in_two_lists_every_forcing_first_move() {
        let pos = at(BLACK_WINS_IN_TWO);
        assert!(all_wins(&pos).is_empty());
        let firsts = prove(&pos, PuzzleKind::WinInTwo).unwrap();
        assert_eq!(texts(&firsts), ["T@N16/0"]);
        // After it, every reply leaves Black a win (each found win is
        // played to check it); the most stubborn leaves exactly one.
        let mut after = pos.clone();
        after.make(firsts[0]);
        for r in after.legal_moves().into_iter().step_by(37) {
            let mut p = after.clone();
            p.make(r);
            assert!(
                p.status() == Status::Won(Side::Black) || !all_wins(&p).is_empty(),
                "after {r} Black cannot win"
            );
        }
        let (reply, wins) = stubborn_reply(&after).unwrap();
        assert_eq!(
            (reply.to_string(), texts(&wins)),
            ("P17-O16/3".into(), vec!["N16-P16/2".to_string()])
        );
        // Other first moves have a reply after which trying every move
        // finds no win.
        for first in pos.legal_moves().into_iter().step_by(101) {
            if first == firsts[0] {
                continue;
            }
            let mut p = pos.clone();
            p.make(first);
            if p.status().is_over() {
                continue;
            }
            let r = refutation(&p).unwrap_or_else(|| panic!("{first} has no refutation"));
            p.make(r);
            assert!(
                p.status() != Status::Won(Side::Black) && all_wins(&p).is_empty(),
                "{first} {r}"
            );
        }
    }

    #[test]
    fn no_forcing_first_move_is_no_win_in_two() {
        let pos = at(&format!("standard:b:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        assert_eq!(
            prove(&pos, PuzzleKind::WinInTwo).unwrap_err().0,
            "black has no win in two"
        );
        let white = at(&format!("standard:w:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        assert_eq!(
            prove(&white, PuzzleKind::WinInTwo).unwrap_err().0,
            "white can win at once"
        );
    }

    #[test]
    fn kinds_read_and_write_their_names() {
        for k in PuzzleKind::ALL {
            assert_eq!(k.name().parse::<PuzzleKind>(), Ok(k));
        }
        assert!("mate-in-two".parse::<PuzzleKind>().is_err());
    }

    #[test]
    fn reach_cells_contain_every_cell_a_win_needs() {
        for pos in random_positions(20..26, 5) {
            let me = pos.side_to_move();
            let near = reach_cells(&pos, me, 3);
            let g = gap(&pos, me, 3);
            assert_eq!(near.is_empty(), g.is_none(), "{pos:?}");
        }
    }
}
