//! The position: pieces, stacks, visible colours, hash, and the rules that
//! change them (make/unmake) and judge them (status).

use crate::bitboard::Bitboard;
use crate::board::{Cell, Edge, SLOTS};
use crate::moves::Move;
use crate::piece::{footprint, Kind, Side};
use std::fmt;

/// Standard (the default) or basic game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    #[default]
    Standard,
    Basic,
}

impl Variant {
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Basic => "basic",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Variant, String> {
        match s.to_ascii_lowercase().as_str() {
            "standard" => Ok(Variant::Standard),
            "basic" => Ok(Variant::Basic),
            _ => Err(format!(
                "`{s}` is not a variant: expected `standard` or `basic`"
            )),
        }
    }
}

/// Whether the game goes on, and if not how it ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Won(Side),
    Draw,
}

impl Status {
    /// `ongoing`, `white`, `black` or `draw`.
    pub const fn word(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Won(Side::White) => "white",
            Status::Won(Side::Black) => "black",
            Status::Draw => "draw",
        }
    }

    pub const fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Where a piece lies: its PÜNCT cell, rotation and level.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub punct: Cell,
    pub rotation: u8,
    pub level: u8,
}

/// A piece on the board, as seen from outside.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceView {
    pub side: Side,
    pub kind: Kind,
    pub placement: Placement,
    /// PÜNCT first.
    pub cells: [Cell; 3],
}

/// One dot in a stack, as seen from outside.
/// A chain joining a pair of opposite sides; see [`Position::connection`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    pub sides: (Edge, Edge),
    pub cells: Bitboard,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Dot {
    pub side: Side,
    pub kind: Kind,
    pub level: u8,
    pub is_punct: bool,
}

/// Pieces have fixed slots: 0–17 White, 18–35 Black, and within a side
/// T×6, C×2, E×4, L×2, M×2, R×2. Same-kind pieces are interchangeable, so a
/// slot is bookkeeping, never part of the game state (see `PartialEq`).
pub(crate) const PIECES: usize = 36;
pub(crate) const NONE: u8 = u8::MAX;
const SLOT_KIND: [Kind; 18] = [
    Kind::T,
    Kind::T,
    Kind::T,
    Kind::T,
    Kind::T,
    Kind::T,
    Kind::C,
    Kind::C,
    Kind::E,
    Kind::E,
    Kind::E,
    Kind::E,
    Kind::L,
    Kind::L,
    Kind::M,
    Kind::M,
    Kind::R,
    Kind::R,
];
const FIRST_SLOT: [usize; 6] = [0, 6, 8, 12, 14, 16];

#[inline]
pub(crate) const fn slot_side(slot: u8) -> Side {
    if slot < 18 {
        Side::White
    } else {
        Side::Black
    }
}

#[inline]
pub(crate) const fn slot_kind(slot: u8) -> Kind {
    SLOT_KIND[slot as usize % 18]
}

/// What [`Position::make`] needs to take a move back.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    mv: Move,
    slot: u8,
    before: Option<Placement>,
    passes: u8,
    status: Status,
}

/// A complete game state. Everything the rules need is here; history is not
/// (the rules never look back further than the pass count).
#[derive(Clone)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) to_move: Side,
    /// Passes in a row just before this position (0–2).
    pub(crate) passes: u8,
    pub(crate) status: Status,
    pub(crate) reserve: [[u8; 6]; 2],
    pub(crate) placement: [Option<Placement>; PIECES],
    pub(crate) cells: [[Cell; 3]; PIECES],
    /// For each dot of each piece, the slot whose dot lies directly below it.
    pub(crate) below: [[u8; 3]; PIECES],
    /// The slot whose dot is highest on each cell.
    pub(crate) top: [u8; SLOTS],
    pub(crate) height: [u8; SLOTS],
    pub(crate) visible: [Bitboard; 2],
    pub(crate) hash: u64,
}

// ---------------------------------------------------------------- hashing

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Zobrist key of one piece lying somewhere. Mixed on the fly instead of
/// tabled: levels are unbounded in principle and the mix is a few cycles.
#[inline]
pub(crate) fn piece_key(side: Side, kind: Kind, p: Placement) -> u64 {
    let code = ((((side as u64 * 6 + kind as u64) * SLOTS as u64 + p.punct.index() as u64) * 6
        + p.rotation as u64)
        << 8)
        | p.level as u64;
    splitmix(code ^ 0x0005_EED0_F9C7)
}
const BLACK_TO_MOVE_KEY: u64 = splitmix(0xB1AC);
const PASS_KEYS: [u64; 3] = [0, splitmix(0x009A_5501), splitmix(0x009A_5502)];
const BASIC_KEY: u64 = splitmix(0xBA51C);

impl Position {
    /// The empty board, White to move, full reserves.
    pub fn new(variant: Variant) -> Position {
        let mut reserve = [[0u8; 6]; 2];
        for side in reserve.iter_mut() {
            for k in Kind::ALL {
                side[k.index()] = k.count();
            }
        }
        let mut p = Position {
            variant,
            to_move: Side::White,
            passes: 0,
            status: Status::Ongoing,
            reserve,
            placement: [None; PIECES],
            cells: [[Cell::CENTRE; 3]; PIECES],
            below: [[NONE; 3]; PIECES],
            top: [NONE; SLOTS],
            height: [0; SLOTS],
            visible: [Bitboard::EMPTY; 2],
            hash: 0,
        };
        p.hash = p.recomputed_hash();
        p
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }
    pub fn status(&self) -> Status {
        self.status
    }
    /// Passes in a row that led to this position (0, 1 or 2).
    pub fn passes(&self) -> u8 {
        self.passes
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Pieces of `kind` that `side` still has in reserve.
    pub fn reserve(&self, side: Side, kind: Kind) -> u8 {
        self.reserve[side.index()][kind.index()]
    }
    pub fn reserve_total(&self, side: Side) -> u8 {
        self.reserve[side.index()].iter().sum()
    }
    /// Height of a cell: 1 + level of its highest dot, 0 when empty.
    pub fn height(&self, cell: Cell) -> u8 {
        self.height[cell.index()]
    }
    /// Whose dot is visible on `cell`.
    pub fn visible_side(&self, cell: Cell) -> Option<Side> {
        let t = self.top[cell.index()];
        (t != NONE).then(|| slot_side(t))
    }
    /// The cells where `side`'s colour is visible.
    pub fn visible(&self, side: Side) -> Bitboard {
        self.visible[side.index()]
    }
    /// Visible dots of `side` in the central hexagon.
    pub fn central_count(&self, side: Side) -> u32 {
        (self.visible[side.index()] & Bitboard::CENTRAL).len()
    }

    /// The piece whose dot is visible on `cell`.
    pub fn top_piece(&self, cell: Cell) -> Option<PieceView> {
        let t = self.top[cell.index()];
        (t != NONE).then(|| self.view(t))
    }

    fn view(&self, slot: u8) -> PieceView {
        PieceView {
            side: slot_side(slot),
            kind: slot_kind(slot),
            placement: self.placement[slot as usize].expect("slot is on the board"),
            cells: self.cells[slot as usize],
        }
    }

    /// Every piece on the board, lowest level first, then by PÜNCT cell.
    pub fn pieces(&self) -> Vec<PieceView> {
        let mut v: Vec<PieceView> = (0..PIECES as u8)
            .filter(|&s| self.placement[s as usize].is_some())
            .map(|s| self.view(s))
            .collect();
        v.sort_by_key(|p| (p.placement.level, p.placement.punct, p.side, p.kind));
        v
    }

    /// The dots on `cell`, bottom first.
    pub fn stack(&self, cell: Cell) -> Vec<Dot> {
        let mut out = Vec::new();
        let mut slot = self.top[cell.index()];
        while slot != NONE {
            let i = self.cells[slot as usize]
                .iter()
                .position(|&c| c == cell)
                .expect("stacked piece covers its cell");
            out.push(Dot {
                side: slot_side(slot),
                kind: slot_kind(slot),
                level: self.placement[slot as usize].unwrap().level,
                is_punct: i == 0,
            });
            slot = self.below[slot as usize][i];
        }
        out.reverse();
        out
    }

    /// Whether `piece`, above the board, spans a gap: a cell of it has
    /// nothing right under the piece.
    pub fn is_bridge(&self, piece: &PieceView) -> bool {
        let level = piece.placement.level;
        level > 0
            && piece
                .cells
                .iter()
                .any(|&c| !self.stack(c).iter().any(|d| d.level + 1 == level))
    }

    /// Whether a dot lies above `piece` on one of its cells.
    pub fn is_covered(&self, piece: &PieceView) -> bool {
        piece.cells.iter().any(|&c| {
            self.stack(c)
                .iter()
                .any(|d| d.level > piece.placement.level)
        })
    }

    /// The first pair of opposite sides (in [`Edge::PAIRS`] order) that
    /// `side`'s visible dots join, with every visible dot of `side` in a
    /// group touching both: what a finished game shows as the winning chain.
    pub fn connection(&self, side: Side) -> Option<Connection> {
        let own = self.visible[side.index()];
        Edge::PAIRS.iter().find_map(|&(a, b)| {
            let (ea, eb) = (Bitboard::edge(a) & own, Bitboard::edge(b) & own);
            let cells = ea.flood(own) & eb.flood(own);
            (!cells.is_empty()).then_some(Connection {
                sides: (a, b),
                cells,
            })
        })
    }

    /// Whether `side` has a chain of visible dots joining two opposite sides.
    pub fn is_connected(&self, side: Side) -> bool {
        let own = self.visible[side.index()];
        Edge::PAIRS.iter().any(|&(a, b)| {
            let (ea, eb) = (Bitboard::edge(a) & own, Bitboard::edge(b) & own);
            !ea.is_empty() && !eb.is_empty() && !(ea.flood(own) & eb).is_empty()
        })
    }

    /// The standard game's tie-break (central count), or a draw in the basic game.
    fn final_count(&self) -> Status {
        if self.variant == Variant::Basic {
            return Status::Draw;
        }
        let (w, b) = (
            self.central_count(Side::White),
            self.central_count(Side::Black),
        );
        match w.cmp(&b) {
            std::cmp::Ordering::Greater => Status::Won(Side::White),
            std::cmp::Ordering::Less => Status::Won(Side::Black),
            std::cmp::Ordering::Equal => Status::Draw,
        }
    }

    /// The status as it follows from the position alone: the player who just
    /// moved (the one not to move) wins if connected, else the other if
    /// connected; else an empty reserve or two passes end the game by count.
    pub(crate) fn derived_status(&self) -> Status {
        self.status_checking(true, true)
    }

    /// [`Position::derived_status`], looking for a connection only where
    /// asked: after a move from an unfinished game, a side can only be
    /// connected now if it gained visible cells.
    fn status_checking(&self, mover_may_connect: bool, opponent_may_connect: bool) -> Status {
        let mover = self.to_move.opponent();
        if mover_may_connect && self.is_connected(mover) {
            Status::Won(mover)
        } else if opponent_may_connect && self.is_connected(self.to_move) {
            Status::Won(self.to_move)
        } else if self.passes >= 2
            || self.reserve_total(Side::White) == 0
            || self.reserve_total(Side::Black) == 0
        {
            self.final_count()
        } else {
            Status::Ongoing
        }
    }

    /// Whether additions may not touch the central hexagon now.
    #[inline]
    pub(crate) fn centre_banned(&self) -> bool {
        match self.variant {
            Variant::Standard => true,
            // Only White's very first move: no piece has left either reserve yet.
            Variant::Basic => {
                self.to_move == Side::White
                    && self.reserve_total(Side::White) == 18
                    && self.reserve_total(Side::Black) == 18
            }
        }
    }

    // ------------------------------------------------------ stack updates

    #[inline]
    fn lift(&mut self, slot: u8) {
        let s = slot as usize;
        let p = self.placement[s].expect("lifting a piece on the board");
        for i in 0..3 {
            let c = self.cells[s][i].index();
            let under = self.below[s][i];
            self.top[c] = under;
            let cell = self.cells[s][i];
            self.visible[slot_side(slot).index()].remove(cell);
            if under == NONE {
                self.height[c] = 0;
            } else {
                self.height[c] = self.placement[under as usize].unwrap().level + 1;
                self.visible[slot_side(under).index()].insert(cell);
            }
        }
        self.hash ^= piece_key(slot_side(slot), slot_kind(slot), p);
    }

    #[inline]
    fn put(&mut self, slot: u8, p: Placement) {
        let s = slot as usize;
        let cells = footprint(slot_kind(slot), p.punct, p.rotation).expect("footprint on board");
        self.cells[s] = cells;
        self.placement[s] = Some(p);
        let side = slot_side(slot);
        for (i, cell) in cells.into_iter().enumerate() {
            let c = cell.index();
            let under = self.top[c];
            self.below[s][i] = under;
            if under != NONE {
                self.visible[slot_side(under).index()].remove(cell);
            }
            self.top[c] = slot;
            self.height[c] = p.level + 1;
            self.visible[side.index()].insert(cell);
        }
        self.hash ^= piece_key(side, slot_kind(slot), p);
    }

    /// Puts a piece of `kind` from `side`'s reserve at `p`; returns its slot.
    pub(crate) fn take_from_reserve(&mut self, side: Side, kind: Kind, p: Placement) -> u8 {
        let base = side.index() * 18 + FIRST_SLOT[kind.index()];
        let slot = (base..base + kind.count() as usize)
            .find(|&s| self.placement[s].is_none())
            .expect("a piece of that kind in reserve") as u8;
        self.reserve[side.index()][kind.index()] -= 1;
        self.put(slot, p);
        slot
    }

    fn set_passes(&mut self, passes: u8) {
        self.hash ^= PASS_KEYS[self.passes as usize] ^ PASS_KEYS[passes as usize];
        self.passes = passes;
    }

    /// Plays `mv`, which must be legal (from [`Position::legal_moves`] or
    /// accepted by [`Position::check_move`]); returns what undoes it.
    pub fn make(&mut self, mv: Move) -> Undo {
        let side = self.to_move;
        let mut undo = Undo {
            mv,
            slot: NONE,
            before: None,
            passes: self.passes,
            status: self.status,
        };
        // Neither side was connected before (the game was going on), and the
        // opponent gains visible cells only where a lifted piece uncovers them.
        let mut opponent_may_connect = false;
        match mv {
            Move::Add {
                kind,
                punct,
                rotation,
            } => {
                undo.slot = self.take_from_reserve(
                    side,
                    kind,
                    Placement {
                        punct,
                        rotation,
                        level: 0,
                    },
                );
                self.set_passes(0);
            }
            Move::Relocate { from, to, rotation } => {
                let slot = self.top[from.index()];
                undo.slot = slot;
                undo.before = self.placement[slot as usize];
                self.lift(slot);
                let opponent = side.opponent().index();
                opponent_may_connect = self.cells[slot as usize]
                    .iter()
                    .any(|&c| self.visible[opponent].contains(c));
                let cells =
                    footprint(slot_kind(slot), to, rotation).expect("target footprint on board");
                let level = cells.iter().map(|c| self.height[c.index()]).max().unwrap();
                self.put(
                    slot,
                    Placement {
                        punct: to,
                        rotation,
                        level,
                    },
                );
                self.set_passes(0);
            }
            Move::Pass => self.set_passes(self.passes + 1),
        }
        self.to_move = side.opponent();
        self.hash ^= BLACK_TO_MOVE_KEY;
        self.status = self.status_checking(mv != Move::Pass, opponent_may_connect);
        undo
    }

    /// Takes back the move that returned `undo` (moves must be unmade in
    /// reverse order).
    pub fn unmake(&mut self, undo: Undo) {
        self.to_move = self.to_move.opponent();
        self.hash ^= BLACK_TO_MOVE_KEY;
        self.status = undo.status;
        self.set_passes(undo.passes);
        match undo.mv {
            Move::Add { kind, .. } => {
                self.lift(undo.slot);
                self.placement[undo.slot as usize] = None;
                self.below[undo.slot as usize] = [NONE; 3];
                self.reserve[self.to_move.index()][kind.index()] += 1;
            }
            Move::Relocate { .. } => {
                self.lift(undo.slot);
                self.put(
                    undo.slot,
                    undo.before.expect("relocated piece had a placement"),
                );
            }
            Move::Pass => {}
        }
    }

    /// The same position with the other side to move and no pass counted,
    /// or `None` when the game is over. Not a move of the game (nobody may
    /// skip a turn while able to move): searches use it to ask what the
    /// opponent threatens.
    pub fn null_move(&self) -> Option<Position> {
        if self.status.is_over() {
            return None;
        }
        let mut null = self.clone();
        null.to_move = self.to_move.opponent();
        null.hash ^= BLACK_TO_MOVE_KEY;
        null.set_passes(0);
        Some(null)
    }

    /// Plays `mv` after checking it; the position is unchanged on error.
    pub fn play(&mut self, mv: Move) -> Result<Undo, crate::IllegalMove> {
        self.check_move(mv)?;
        Ok(self.make(mv))
    }

    /// The hash computed from scratch (equals [`Position::hash`] always).
    pub fn recomputed_hash(&self) -> u64 {
        let mut h = 0;
        for s in 0..PIECES as u8 {
            if let Some(p) = self.placement[s as usize] {
                h ^= piece_key(slot_side(s), slot_kind(s), p);
            }
        }
        if self.to_move == Side::Black {
            h ^= BLACK_TO_MOVE_KEY;
        }
        if self.variant == Variant::Basic {
            h ^= BASIC_KEY;
        }
        h ^ PASS_KEYS[self.passes as usize]
    }

    /// Recomputes every incrementally kept field (stacks, heights, visible
    /// colours, hash, reserves, status) from the piece placements and
    /// reports the first that differs. For tests and debugging.
    pub fn verify_incremental(&self) -> Result<(), String> {
        let mut top = [NONE; SLOTS];
        let mut height = [0u8; SLOTS];
        for s in 0..PIECES as u8 {
            if let Some(p) = self.placement[s as usize] {
                for c in self.cells[s as usize] {
                    if height[c.index()] <= p.level {
                        height[c.index()] = p.level + 1;
                        top[c.index()] = s;
                    }
                }
                if footprint(slot_kind(s), p.punct, p.rotation) != Some(self.cells[s as usize]) {
                    return Err(format!("slot {s}: cached cells disagree with placement"));
                }
            }
        }
        if height != self.height {
            return Err("heights disagree".into());
        }
        if top != self.top {
            return Err("top dots disagree".into());
        }
        for side in Side::BOTH {
            let mut vis = Bitboard::EMPTY;
            for c in Cell::all() {
                if top[c.index()] != NONE && slot_side(top[c.index()]) == side {
                    vis.insert(c);
                }
            }
            if vis != self.visible[side.index()] {
                return Err(format!("{side} visible cells disagree"));
            }
            for k in Kind::ALL {
                let base = side.index() * 18 + FIRST_SLOT[k.index()];
                let off = (base..base + k.count() as usize)
                    .filter(|&s| self.placement[s].is_none())
                    .count();
                if off != self.reserve(side, k) as usize {
                    return Err(format!("{side} reserve of {k} disagrees"));
                }
            }
        }
        if self.recomputed_hash() != self.hash {
            return Err("hash disagrees".into());
        }
        if self.derived_status() != self.status {
            return Err("status disagrees".into());
        }
        Ok(())
    }
}

impl PartialEq for Position {
    /// Game equality: same variant, side, passes, status, reserves and the
    /// same pieces in the same places (slots do not matter).
    fn eq(&self, other: &Position) -> bool {
        self.variant == other.variant
            && self.to_move == other.to_move
            && self.passes == other.passes
            && self.status == other.status
            && self.reserve == other.reserve
            && self.hash == other.hash
            && self.pieces() == other.pieces()
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_position_string())
    }
}
