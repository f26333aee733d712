//! The 211-cell board: cell names, directions, lines, the central hexagon and
//! the six sides.
//!
//! Cells live in a padded 17 × 18 index space (`col * 18 + row`, rows 1–17,
//! row 0 of every column unused) so that a step in any of the six directions
//! is one fixed index offset. A step off the top or bottom of a column lands
//! on an unused row-0 slot, which is never on the board; that is what lets
//! [`crate::Bitboard`] shifts stand in for neighbour look-ups.

use std::fmt;
use std::str::FromStr;

/// Number of columns (A–Q).
pub const COLUMNS: usize = 17;
/// Index distance between neighbouring columns.
pub const STRIDE: i32 = 18;
/// Size of the padded index space; every per-cell array has this length.
pub const SLOTS: usize = COLUMNS * STRIDE as usize;
/// Number of playable cells.
pub const CELL_COUNT: usize = 211;

/// One of the six directions D0…D5 of the rules; consecutive ones are 60°
/// apart and `Direction(k + 3)` is the opposite of `Direction(k)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Direction(pub u8);

/// (col, row) steps of D0…D5, exactly in the order of the rules.
pub const DIRECTION_STEPS: [(i32, i32); 6] = [(0, -1), (-1, -1), (-1, 0), (0, 1), (1, 1), (1, 0)];

impl Direction {
    pub const ALL: [Direction; 6] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
    ];

    /// Index offset of one step in this direction.
    pub const fn offset(self) -> i32 {
        let (dc, dr) = DIRECTION_STEPS[self.0 as usize];
        dc * STRIDE + dr
    }
}

const fn on_board_rc(col: i32, row: i32) -> bool {
    let q = col - 8;
    let r = row - 9;
    let d = q - r;
    let aq = if q < 0 { -q } else { q };
    let ar = if r < 0 { -r } else { r };
    let ad = if d < 0 { -d } else { d };
    if aq > 8 || ar > 8 || ad > 8 {
        return false;
    }
    // The six corners are the cells where two of the three distances are 8.
    let eights = (aq == 8) as u8 + (ar == 8) as u8 + (ad == 8) as u8;
    eights < 2
}

const fn build_on_board() -> [bool; SLOTS] {
    let mut t = [false; SLOTS];
    let mut col = 0;
    while col < COLUMNS as i32 {
        let mut row = 1;
        while row <= 17 {
            t[(col * STRIDE + row) as usize] = on_board_rc(col, row);
            row += 1;
        }
        col += 1;
    }
    t
}

/// `ON_BOARD[i]` tells whether padded index `i` is a playable cell.
pub const ON_BOARD: [bool; SLOTS] = build_on_board();

/// A playable cell of the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

impl Cell {
    /// The cell at column `col` (0 = A) and row `row` (1–17), if it is on the board.
    pub const fn new(col: u8, row: u8) -> Option<Cell> {
        if col as usize >= COLUMNS || row == 0 || row > 17 {
            return None;
        }
        let i = col as usize * STRIDE as usize + row as usize;
        if ON_BOARD[i] {
            Some(Cell(i as u16))
        } else {
            None
        }
    }

    /// The cell with padded index `index`, if that index is a playable cell.
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < SLOTS && ON_BOARD[index]).then_some(Cell(index as u16))
    }

    /// The centre, I9.
    pub const CENTRE: Cell = Cell(8 * STRIDE as u16 + 9);

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Column, 0 = A … 16 = Q.
    pub const fn col(self) -> u8 {
        (self.0 / STRIDE as u16) as u8
    }
    /// Row, 1–17.
    pub const fn row(self) -> u8 {
        (self.0 % STRIDE as u16) as u8
    }

    /// The cell `offset` index steps away, if it is on the board. Only valid
    /// for offsets made of single steps each of which stays on the board, as
    /// footprints are (see module docs).
    #[inline]
    pub fn offset(self, offset: i32) -> Option<Cell> {
        let i = self.0 as i32 + offset;
        (i >= 0 && (i as usize) < SLOTS && ON_BOARD[i as usize]).then_some(Cell(i as u16))
    }

    /// The neighbour in direction `d`, if on the board.
    #[inline]
    pub fn neighbour(self, d: Direction) -> Option<Cell> {
        self.offset(d.offset())
    }

    /// Whether `other` shares this cell's column, row or col − row line.
    pub fn in_line_with(self, other: Cell) -> bool {
        self.col() == other.col()
            || self.row() == other.row()
            || self.col() as i32 - self.row() as i32 == other.col() as i32 - other.row() as i32
    }

    /// Whether the cell is in the 19-cell central hexagon.
    pub fn is_central(self) -> bool {
        let q = self.col() as i32 - 8;
        let r = self.row() as i32 - 9;
        q.abs().max(r.abs()).max((q - r).abs()) <= 2
    }

    /// All 211 cells in index order (column by column, rows upward).
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..SLOTS).filter(|&i| ON_BOARD[i]).map(|i| Cell(i as u16))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = ShortText::default();
        text.cell(*self);
        f.write_str(text.as_str())
    }
}

/// A few ASCII bytes on the stack: cell names and moves are written
/// thousands of times per game state (every legal move), and `write!` with
/// its per-argument formatting was most of that cost.
#[derive(Default)]
pub(crate) struct ShortText {
    buf: [u8; 12],
    len: usize,
}

impl ShortText {
    pub(crate) fn byte(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }

    /// `A2` … `Q16`: a column letter and a row of one or two digits.
    pub(crate) fn cell(&mut self, c: Cell) {
        self.byte(b'A' + c.col());
        let row = c.row();
        if row >= 10 {
            self.byte(b'0' + row / 10);
        }
        self.byte(b'0' + row % 10);
    }

    /// A number below 10 (a rotation).
    pub(crate) fn digit(&mut self, d: u8) {
        debug_assert!(d < 10);
        self.byte(b'0' + d);
    }

    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).expect("only ASCII is pushed")
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a cell name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellError(pub String);

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CellError {}

impl FromStr for Cell {
    type Err = CellError;
    fn from_str(s: &str) -> Result<Cell, CellError> {
        let mut chars = s.chars();
        let letter = chars
            .next()
            .ok_or_else(|| CellError("empty cell name".into()))?;
        let upper = letter.to_ascii_uppercase();
        if !('A'..='Q').contains(&upper) {
            return Err(CellError(format!(
                "`{s}` is not a cell: the column must be a letter A–Q"
            )));
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CellError(format!(
                "`{s}` is not a cell: a column letter must be followed by a row number 1–17"
            )));
        }
        let row: u8 = digits
            .parse()
            .map_err(|_| CellError(format!("`{s}` is not a cell")))?;
        let col = upper as u8 - b'A';
        Cell::new(col, row).ok_or_else(|| CellError(format!("`{s}` is not a cell of the board")))
    }
}

/// One of the six sides (7 cells each).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Edge {
    ColumnA,
    ColumnQ,
    Row1,
    Row17,
    /// J2 K3 L4 M5 N6 O7 P8.
    LowerDiagonal,
    /// B10 C11 D12 E13 F14 G15 H16.
    UpperDiagonal,
}

impl Edge {
    /// The three opposite pairs; connecting either side of a pair to the other wins.
    pub const PAIRS: [(Edge, Edge); 3] = [
        (Edge::ColumnA, Edge::ColumnQ),
        (Edge::Row1, Edge::Row17),
        (Edge::LowerDiagonal, Edge::UpperDiagonal),
    ];

    /// Whether `cell` belongs to this side.
    pub fn contains(self, cell: Cell) -> bool {
        let (c, r) = (cell.col() as i32, cell.row() as i32);
        match self {
            Edge::ColumnA => c == 0,
            Edge::ColumnQ => c == 16,
            Edge::Row1 => r == 1,
            Edge::Row17 => r == 17,
            Edge::LowerDiagonal => c - r == 7,
            Edge::UpperDiagonal => c - r == -9,
        }
    }

    pub fn cells(self) -> impl Iterator<Item = Cell> {
        Cell::all().filter(move |&c| self.contains(c))
    }

    /// The side's name for people: a column, a row, or a diagonal side by
    /// its end cells.
    pub const fn name(self) -> &'static str {
        match self {
            Edge::ColumnA => "column A",
            Edge::ColumnQ => "column Q",
            Edge::Row1 => "row 1",
            Edge::Row17 => "row 17",
            Edge::LowerDiagonal => "side J2–P8",
            Edge::UpperDiagonal => "side B10–H16",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_211_cells_and_column_ranges_of_the_rules() {
        assert_eq!(Cell::all().count(), CELL_COUNT);
        let ranges = [
            (2, 8),
            (1, 10),
            (1, 11),
            (1, 12),
            (1, 13),
            (1, 14),
            (1, 15),
            (1, 16),
            (2, 16),
            (2, 17),
            (3, 17),
            (4, 17),
            (5, 17),
            (6, 17),
            (7, 17),
            (8, 17),
            (10, 16),
        ];
        for (col, (lo, hi)) in ranges.iter().enumerate() {
            let rows: Vec<u8> = Cell::all()
                .filter(|c| c.col() as usize == col)
                .map(|c| c.row())
                .collect();
            assert_eq!(rows, (*lo..=*hi).collect::<Vec<u8>>(), "column {col}");
        }
    }

    #[test]
    fn central_hexagon_is_the_listed_19_cells() {
        let listed = "G7 G8 G9 H7 H8 H9 H10 I7 I8 I9 I10 I11 J8 J9 J10 J11 K9 K10 K11";
        let mut expect: Vec<Cell> = listed.split(' ').map(|s| s.parse().unwrap()).collect();
        expect.sort();
        let got: Vec<Cell> = Cell::all().filter(|c| c.is_central()).collect();
        assert_eq!(got, expect);
    }

    #[test]
    fn sides_are_seven_cells_and_disjoint() {
        let listed = [
            "A2 A3 A4 A5 A6 A7 A8",
            "Q10 Q11 Q12 Q13 Q14 Q15 Q16",
            "B1 C1 D1 E1 F1 G1 H1",
            "J17 K17 L17 M17 N17 O17 P17",
            "J2 K3 L4 M5 N6 O7 P8",
            "B10 C11 D12 E13 F14 G15 H16",
        ];
        let edges = [
            Edge::ColumnA,
            Edge::ColumnQ,
            Edge::Row1,
            Edge::Row17,
            Edge::LowerDiagonal,
            Edge::UpperDiagonal,
        ];
        for (edge, names) in edges.iter().zip(listed) {
            let got: Vec<String> = edge.cells().map(|c| c.to_string()).collect();
            let mut want: Vec<String> = names.split(' ').map(String::from).collect();
            want.sort_by_key(|n| n.parse::<Cell>().unwrap());
            assert_eq!(got, want, "{edge:?}");
        }
    }

    #[test]
    fn cell_names_parse_case_insensitively_and_reject_off_board() {
        assert_eq!("i9".parse::<Cell>().unwrap(), Cell::CENTRE);
        assert_eq!(Cell::CENTRE.to_string(), "I9");
        for bad in [
            "A1", "A9", "I1", "I17", "Q9", "Q17", "R5", "B0", "B18", "", "B", "B1x", "B+1",
        ] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
    }

    #[test]
    fn neighbours_follow_direction_order() {
        let c: Cell = "E5".parse().unwrap();
        let names: Vec<String> = Direction::ALL
            .iter()
            .map(|&d| c.neighbour(d).unwrap().to_string())
            .collect();
        assert_eq!(names, ["E4", "D4", "D5", "E6", "F6", "F5"]);
        // Steps off the top of a column never wrap to the next column.
        let top: Cell = "H16".parse().unwrap();
        assert_eq!(top.neighbour(Direction(3)), None);
        assert_eq!(top.neighbour(Direction(4)), None);
    }
}
