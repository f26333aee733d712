//! A connection solver: depth-first proof-number search (df-pn) for forced
//! wins of the side to move within a number of its own moves.
//!
//! The question asked is "does the attacker (the side to move at the root)
//! win — by a connection, or by the game's end (docs/RULES.md §5, read
//! through [`Position::status`]) — within at most `depth` of its own moves,
//! whatever the defender does?".
//!
//! * **OR nodes** (the attacker to move): proven at once when the attacker
//!   has a move that wins at once ([`puzzle::has_winning_move`], exact).
//!   With more than one move left, only *threat moves* are tried: moves
//!   after which the attacker could win at once if it were to move again
//!   (threat-space search). A quiet move followed by a zugzwang is not
//!   considered, so a disproof means "no forced win by threats", not "no
//!   forced win at all".
//! * **AND nodes** (the defender to move): disproven at once when the
//!   defender can win at once; otherwise *every* legal defender move is a
//!   child (additions, relocations, turns in place, a forced pass), nothing
//!   pruned. Replies that put a piece on the cells of the attacker's
//!   threats come first, since they are the likely refutations.
//!
//! So a proof is a real proof: each attacker move in it is legal and each
//! defender move is answered. A transposition table keyed by the position's
//! Zobrist hash and the attacker moves left holds (proof, disproof) numbers.
//! The search stops at a node budget or a deadline and then says
//! [`Proof::Unknown`]. Depths are tried from 1 up, so a proof found is a
//! shortest one (in attacker moves, within the threat space).

use crate::paths::{ChainMaps, Costs};
use crate::puzzle;
use crate::tactics::{first_win_among, target_cells};
use crate::time::Instant;
use punct_core::{footprint, Bitboard, Move, Position, Side, Status};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Proof and disproof numbers at or above this are infinite.
const INF: u32 = u32::MAX / 4;

/// What the solver may spend.
#[derive(Copy, Clone, Debug)]
pub struct SolveLimits {
    /// Positions evaluated, at most (each costs one exact win-in-one test).
    pub nodes: u64,
    /// Wall-clock time, at most.
    pub time: Option<Duration>,
}

impl Default for SolveLimits {
    fn default() -> SolveLimits {
        SolveLimits {
            nodes: 2_000_000,
            time: None,
        }
    }
}

/// What the solver proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The attacker wins whatever the defender does. `line` is a main line:
    /// the attacker's first move, a defender reply (one that blocks a
    /// threat where there is one), the attacker's answer, … ending with
    /// the attacker's winning move.
    Proven { line: Vec<Move> },
    /// No forced win by threat moves within the depth.
    Disproven,
    /// The budget ran out first.
    Unknown,
}

/// The verdict with what it cost.
#[derive(Clone, Debug)]
pub struct Solution {
    pub proof: Proof,
    /// The attacker (the side to move at the root).
    pub attacker: Side,
    /// For a proof: the attacker's moves in it (the shortest depth that
    /// proved it); otherwise the depth asked.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Solves `pos` for the side to move within `depth` of its moves.
pub fn solve(pos: &Position, depth: u32, limits: &SolveLimits) -> Solution {
    solve_until(pos, depth, limits, &AtomicBool::new(false))
}

/// [`solve`], ending early (`Proof::Unknown`) once `stop` is set, from
/// another thread: an analysis whose asker has gone, a search told to stop.
pub fn solve_until(
    pos: &Position,
    depth: u32,
    limits: &SolveLimits,
    stop: &AtomicBool,
) -> Solution {
    let mut s = Solver {
        stop,
        attacker: pos.side_to_move(),
        tt: HashMap::new(),
        children: HashMap::new(),
        nodes: 0,
        calls: 0,
        limits: *limits,
        start: Instant::now(),
        aborted: false,
    };
    let mut p = pos.clone();
    let mut proof = Proof::Disproven;
    let mut used = depth;
    if pos.status().is_over() || depth == 0 {
        proof = if pos.status() == Status::Won(s.attacker) {
            Proof::Proven { line: Vec::new() }
        } else {
            Proof::Disproven
        };
    } else {
        for d in 1..=depth {
            let (pn, dn) = s.root(&mut p, d);
            if s.aborted {
                proof = Proof::Unknown;
                break;
            }
            if pn == 0 {
                proof = Proof::Proven {
                    line: s.main_line(&mut p, d),
                };
                used = d;
                break;
            }
            debug_assert_eq!(dn, 0);
        }
    }
    Solution {
        proof,
        attacker: s.attacker,
        depth: used,
        nodes: s.nodes,
        elapsed: s.start.elapsed(),
    }
}

/// Child moves with their table keys.
type Children = Vec<(Move, u64)>;

struct Solver<'a> {
    stop: &'a AtomicBool,
    attacker: Side,
    /// (proof, disproof) numbers by [`key`].
    tt: HashMap<u64, (u32, u32)>,
    /// The moves of expanded nodes (OR: threat moves; AND: every reply,
    /// ordered).
    children: HashMap<u64, Children>,
    nodes: u64,
    /// Budget checks so far.
    calls: u64,
    limits: SolveLimits,
    start: Instant,
    aborted: bool,
}

/// The table key of a position with `left` attacker moves left.
fn key(pos: &Position, left: u32) -> u64 {
    pos.hash() ^ (u64::from(left) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Solver<'_> {
    fn out_of_budget(&mut self) -> bool {
        // The clock and the stop flag are read every 64 calls: between two
        // nodes a node's expansion may call this thousands of times.
        self.calls += 1;
        if !self.aborted
            && (self.nodes >= self.limits.nodes
                || (self.calls.is_multiple_of(64)
                    && (self.stop.load(Ordering::Relaxed)
                        || self.limits.time.is_some_and(|t| self.start.elapsed() >= t))))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn is_or(&self, pos: &Position) -> bool {
        pos.side_to_move() == self.attacker
    }

    /// The numbers of a node never seen: exact when the node is decided
    /// at once, (1, 1) otherwise. `left`: attacker moves left.
    fn evaluate(&mut self, pos: &Position, left: u32) -> (u32, u32) {
        self.nodes += 1;
        const WON: (u32, u32) = (0, INF);
        const LOST: (u32, u32) = (INF, 0);
        match pos.status() {
            Status::Won(s) if s == self.attacker => return WON,
            Status::Won(_) | Status::Draw => return LOST,
            Status::Ongoing => {}
        }
        if self.is_or(pos) {
            if puzzle::has_winning_move(pos) {
                WON
            } else if left <= 1 {
                LOST
            } else {
                (1, 1)
            }
        } else if puzzle::has_winning_move(pos) {
            LOST // the defender wins first
        } else {
            (1, 1)
        }
    }

    fn lookup(&mut self, pos: &Position, k: u64, left: u32) -> (u32, u32) {
        if let Some(&v) = self.tt.get(&k) {
            return v;
        }
        let v = self.evaluate(pos, left);
        self.tt.insert(k, v);
        v
    }

    fn root(&mut self, pos: &mut Position, left: u32) -> (u32, u32) {
        let k = key(pos, left);
        let v = self.lookup(pos, k, left);
        if v.0 == 0 || v.1 == 0 {
            return v;
        }
        self.mid(pos, left, INF - 1, INF - 1);
        self.tt[&k]
    }

    /// Whether the attacker, to move in `after`'s null-move twin, could win
    /// at once: `after` holds a threat.
    fn threatens(&self, after: &Position) -> bool {
        let a = self.attacker;
        if puzzle::gap(after, a, 3).is_none() && after.reserve_total(a) != 1 {
            return false; // no chain lacks three cells or fewer; no last piece
        }
        puzzle::null_move(after).is_some_and(|n| puzzle::has_winning_move(&n))
    }

    /// Generates (once) the children of an undecided node. Returns `None`
    /// when generation itself decided the node (stored in the table).
    fn expand(&mut self, pos: &mut Position, k: u64, left: u32) -> Option<Children> {
        if let Some(c) = self.children.get(&k) {
            return Some(c.clone());
        }
        let mut out = Vec::new();
        if self.is_or(pos) {
            // Threat moves: the attacker could win at once after them.
            // An addition can only make one if its cells leave a chain
            // lacking at most three cells (exact for additions, no move
            // played); unless its next addition will end the game.
            let maps = ChainMaps::new(pos, self.attacker, Costs::Missing);
            let last_but_one = pos.reserve_total(self.attacker) == 2;
            for mv in pos.legal_moves() {
                if self.out_of_budget() {
                    return None;
                }
                if let Move::Add {
                    kind,
                    punct,
                    rotation,
                } = mv
                {
                    let near = footprint(kind, punct, rotation).is_some_and(|f| {
                        maps.with_piece(&f).into_iter().min().unwrap_or(u32::MAX) <= 3
                    });
                    if !near && !last_but_one {
                        continue;
                    }
                }
                let undo = pos.make(mv);
                let keep = !pos.status().is_over() && self.threatens(pos);
                let ck = key(pos, left - 1);
                // Threats the defender refutes at once (by winning first)
                // are dropped.
                if keep && self.lookup(pos, ck, left - 1).1 != 0 {
                    out.push((mv, ck));
                }
                pos.unmake(undo);
            }
            if out.is_empty() {
                self.tt.insert(k, (INF, 0));
                return None;
            }
        } else {
            // Every reply; those touching the threats' cells first.
            let mut threat_cells = Bitboard::EMPTY;
            let mut threats = Vec::new();
            if let Some(null) = puzzle::null_move(pos) {
                threats = puzzle::winning_moves(&null);
                for &w in &threats {
                    threat_cells |= target_cells(&null, w);
                    if let Move::Relocate { from, .. } = w {
                        if let Some(p) = null.top_piece(from) {
                            for c in p.cells {
                                threat_cells.insert(c);
                            }
                        }
                    }
                }
            }
            let mut moves = pos.legal_moves();
            moves.sort_by_key(|&m| (target_cells(pos, m) & threat_cells).is_empty());
            for mv in moves {
                if self.out_of_budget() {
                    return None;
                }
                let undo = pos.make(mv);
                // Most replies leave one of the threats standing: the
                // attacker wins at once there, no need to look further.
                if !pos.status().is_over() && first_win_among(pos, &threats).is_some() {
                    pos.unmake(undo);
                    continue;
                }
                let ck = key(pos, left);
                let v = self.lookup(pos, ck, left);
                pos.unmake(undo);
                if v.1 == 0 {
                    // A refutation: the node is disproven.
                    self.tt.insert(k, (INF, 0));
                    return None;
                }
                if v.0 != 0 {
                    out.push((mv, ck));
                }
            }
        }
        if out.is_empty() {
            // Every reply leaves a win standing.
            self.tt.insert(k, (0, INF));
            return None;
        }
        self.children.insert(k, out.clone());
        Some(out)
    }

    /// Multiple iterative deepening: searches the node under `pos` until its
    /// proof number reaches `th_pn` or its disproof number `th_dn`.
    fn mid(&mut self, pos: &mut Position, left: u32, th_pn: u32, th_dn: u32) {
        let k = key(pos, left);
        let Some(children) = self.expand(pos, k, left) else {
            return;
        };
        let or = self.is_or(pos);
        let child_left = if or { left - 1 } else { left };
        loop {
            // Gather the children's numbers.
            let (mut pn, mut dn) = if or { (INF, 0u32) } else { (0u32, INF) };
            let mut best = 0;
            let mut best_v = (INF, INF);
            let mut second = INF;
            for (i, &(_, ck)) in children.iter().enumerate() {
                let (cp, cd) = self.tt.get(&ck).copied().unwrap_or((1, 1));
                let sel = if or { cp } else { cd };
                if or {
                    pn = pn.min(cp);
                    dn = dn.saturating_add(cd).min(INF);
                } else {
                    dn = dn.min(cd);
                    pn = pn.saturating_add(cp).min(INF);
                }
                let best_sel = if or { best_v.0 } else { best_v.1 };
                if sel < best_sel {
                    second = best_sel;
                    best = i;
                    best_v = (cp, cd);
                } else if sel < second {
                    second = sel;
                }
            }
            self.tt.insert(k, (pn, dn));
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.out_of_budget() {
                return;
            }
            let (mv, _) = children[best];
            let (cp, cd) = best_v;
            let (c_pn, c_dn) = if or {
                (
                    th_pn.min(second.saturating_add(1)),
                    (th_dn - dn).saturating_add(cd).min(INF),
                )
            } else {
                (
                    (th_pn - pn).saturating_add(cp).min(INF),
                    th_dn.min(second.saturating_add(1)),
                )
            };
            let undo = pos.make(mv);
            self.mid(pos, child_left, c_pn, c_dn);
            pos.unmake(undo);
        }
    }

    /// The main line of a proven node: the proving attacker move at OR
    /// nodes (a winning move when there is one), at AND nodes the first
    /// reply in order (a block where the threat can be blocked) that does
    /// not end the game.
    fn main_line(&mut self, pos: &mut Position, left: u32) -> Vec<Move> {
        let mut line = Vec::new();
        let mut undos = Vec::new();
        let mut left = left;
        while !pos.status().is_over() {
            let mv = if self.is_or(pos) {
                if let Some(&w) = puzzle::winning_moves(pos).first() {
                    line.push(w);
                    break;
                }
                let k = key(pos, left);
                let Some(m) = self.children.get(&k).and_then(|c| {
                    c.iter()
                        .find(|(_, ck)| self.tt.get(ck).is_some_and(|v| v.0 == 0))
                        .map(|&(m, _)| m)
                }) else {
                    break;
                };
                left -= 1;
                m
            } else {
                // The first reply in order (blocks first) after which the
                // game goes on; a reply that loses at once is no defence.
                // Without stored children every reply left a threat
                // standing: show any reply.
                let k = key(pos, left);
                let mut replies: Vec<Move> = match self.children.get(&k) {
                    Some(children) => children.iter().map(|&(m, _)| m).collect(),
                    None => Vec::new(),
                };
                replies.extend(pos.legal_moves());
                let goes_on = replies.iter().find(|&&m| {
                    let undo = pos.make(m);
                    let on = !pos.status().is_over();
                    pos.unmake(undo);
                    on
                });
                match goes_on.or(replies.first()) {
                    Some(&m) => m,
                    None => break,
                }
            };
            line.push(mv);
            undos.push(pos.make(mv));
        }
        while let Some(u) = undos.pop() {
            pos.unmake(u);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{prove, PuzzleKind};

    /// The shipped puzzles of one kind: (id, position, solutions).
    fn shipped(kind: &str) -> Vec<(String, Position, Vec<Move>)> {
        let file: serde_json::Value =
            serde_json::from_str(include_str!("../../../data/puzzles.json"))
                .expect("data/puzzles.json is JSON");
        let text = |v: &serde_json::Value| v.as_str().expect("a string").to_string();
        let out: Vec<_> = file["puzzles"]
            .as_array()
            .expect("a list of puzzles")
            .iter()
            .filter(|p| p["kind"] == kind)
            .map(|p| {
                let pos = Position::from_position_string(&text(&p["position"]))
                    .expect("a shipped position");
                let solutions = p["solutions"]
                    .as_array()
                    .expect("solutions")
                    .iter()
                    .map(|m| text(m).parse().expect("a solution move"))
                    .collect();
                (text(&p["id"]), pos, solutions)
            })
            .collect();
        assert!(!out.is_empty(), "no {kind} puzzles");
        out
    }

    fn limits() -> SolveLimits {
        SolveLimits {
            nodes: 2_000_000,
            time: None,
        }
    }

    /// Plays the line and checks it ends in the attacker's win, every
    /// move legal.
    fn check_line(pos: &Position, line: &[Move]) {
        let me = pos.side_to_move();
        let mut p = pos.clone();
        for &m in line {
            assert!(p.is_legal(m), "{m} illegal in the line {line:?}");
            p.make(m);
        }
        assert_eq!(p.status(), Status::Won(me), "line {line:?}");
    }

    #[test]
    fn proves_every_shipped_win_in_one_at_depth_one() {
        for (id, pos, solutions) in shipped("win-in-one") {
            let s = solve(&pos, 1, &limits());
            let Proof::Proven { line } = s.proof else {
                panic!("{id}: {:?}", s.proof);
            };
            assert_eq!(line.len(), 1, "{id}");
            assert!(solutions.contains(&line[0]), "{id}: {}", line[0]);
            check_line(&pos, &line);
        }
    }

    #[test]
    fn proves_every_shipped_win_in_two_at_depth_two() {
        for (id, pos, solutions) in shipped("win-in-two") {
            let s = solve(&pos, 2, &limits());
            let Proof::Proven { line } = &s.proof else {
                panic!("{id}: {:?} after {} nodes", s.proof, s.nodes);
            };
            assert_eq!(s.depth, 2, "{id}");
            assert!(
                solutions.contains(&line[0]),
                "{id}: {} not a solution",
                line[0]
            );
            assert_eq!(line.len(), 3, "{id}: {line:?}");
            check_line(&pos, line);
            // Not provable in one.
            assert_eq!(solve(&pos, 1, &limits()).proof, Proof::Disproven);
        }
    }

    #[test]
    fn proves_nothing_the_exhaustive_prover_refutes() {
        // Stop-the-win positions: the side to move is threatened and
        // cannot win at once; where the exhaustive prover finds no win in
        // two for it, the solver must not claim one.
        let mut negatives = 0;
        for (id, pos, _) in shipped("stop-the-win") {
            let s = solve(&pos, 2, &limits());
            if prove(&pos, PuzzleKind::WinInTwo).is_err() {
                negatives += 1;
                assert!(
                    !matches!(s.proof, Proof::Proven { .. }),
                    "{id}: {:?}",
                    s.proof
                );
            } else if let Proof::Proven { line } = &s.proof {
                check_line(&pos, line);
            }
        }
        // The win-in-one positions with the other side to move (a pass
        // position): the threatened side usually has no win in two.
        for (id, pos, _) in shipped("win-in-one").into_iter().take(6) {
            let Some(other) = puzzle::null_move(&pos) else {
                continue;
            };
            if puzzle::has_winning_move(&other) {
                continue;
            }
            let s = solve(&other, 2, &limits());
            if prove(&other, PuzzleKind::WinInTwo).is_err() {
                negatives += 1;
                assert!(
                    !matches!(s.proof, Proof::Proven { .. }),
                    "{id} (other side): {:?}",
                    s.proof
                );
            }
        }
        assert!(negatives >= 4, "only {negatives} negative cases");
    }

    #[test]
    fn a_tiny_budget_gives_unknown() {
        let (_, pos, _) = shipped("win-in-two").remove(0);
        let s = solve(
            &pos,
            2,
            &SolveLimits {
                nodes: 10,
                time: None,
            },
        );
        assert_eq!(s.proof, Proof::Unknown);
        assert!(s.nodes <= 11);
    }

    #[test]
    fn a_stop_flag_ends_the_solve() {
        let (_, pos, _) = shipped("win-in-two").remove(0);
        let unlimited = solve(&pos, 2, &limits());
        assert!(matches!(unlimited.proof, Proof::Proven { .. }));
        let stop = AtomicBool::new(true);
        let s = solve_until(&pos, 2, &limits(), &stop);
        assert_eq!(s.proof, Proof::Unknown);
        assert!(s.nodes < unlimited.nodes, "{} nodes", s.nodes);
    }

    #[test]
    fn a_finished_game_is_decided_without_search() {
        let (_, mut pos, solutions) = shipped("win-in-one").remove(0);
        let me = pos.side_to_move();
        pos.make(solutions[0]);
        assert_eq!(pos.status(), Status::Won(me));
        // The side to move now has lost.
        assert_eq!(solve(&pos, 2, &limits()).proof, Proof::Disproven);
    }
}
