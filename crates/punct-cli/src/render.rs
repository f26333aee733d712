//! Terminal drawing of a position, in two layouts.
//!
//! **Full** ([`render`], [`board_full`], for `punct show` and for `punct
//! play` in a terminal of at least 96×38): column `c` (A = 0) is drawn at
//! x = 5·c + [`MARGIN`], and cell (c, r) on text line y = c − 2·r + [`TOP`].
//! Cells of one column are two lines apart with row numbers growing upwards
//! (row 1 at the bottom, as on a chessboard), so columns run straight up the
//! page; a row runs down and to the right (its next cell is one line down,
//! five characters on). The board is a hexagon with vertical left (A) and
//! right (Q) sides. Each cell is drawn as
//! - `·` when empty,
//! - `W2` / `B1`: the colour of its visible dot and its height,
//! - `W2*`: the same where the visible dot is a PÜNCT,
//!
//! and the 19 cells of the central hexagon sit in brackets: `[ · ]`, `[W2*]`.
//! Column letters run along the top and bottom; each row's number stands at
//! both of its ends, on the text line of its end cell.
//!
//! **Compact** ([`board_compact`], 19 lines of at most 74 characters: fits an
//! 80×24 terminal with the status lines and the prompt): the same
//! orientation as the full board and the web page (columns straight up,
//! row 1 at the bottom, a row running down and to the right), at half the
//! height. Column `c` is at x = 4·c + [`C_MARGIN`]; cell (c, r) is on the
//! full layout's line c − 2·r halved, rounded up the screen
//! ([`C_TOP`]): a column's cells are on consecutive lines, and as text has
//! no half lines each column of even index (A, C, …, Q) sits half a line
//! higher than it should, so a row steps one line down every two columns.
//! Column letters run along the top and bottom, as on the full board; each
//! row's number stands at both of its ends, where its next cell would be. A
//! cell is
//! - `·` when empty (`∘` in the central hexagon),
//! - `W` / `B`: the colour of its visible dot, then its height when 2 or more
//!   (`W2`; `+` from 10 up), with a `*` in front when the visible dot is a
//!   PÜNCT (`*B`, `*W3`),
//!
//! and each line's part of the central hexagon is bracketed `[ … ]`.
//!
//! With `colour` off the result is plain text with no escape codes; with it
//! on, plain ANSI SGR codes style the pieces, the centre and the labels.

use punct_core::{move_number, Cell, Game, Kind, Move, Position, Side, Status, Variant};

/// x of column A.
const MARGIN: usize = 8;
/// Added to c − 2·r so that the highest line of the board is line 1 (J17
/// has c − 2·r = −25) and line 0 holds the column letters.
const TOP: i32 = 26;
/// Lines of the board drawing: column letters, the cells (c − 2·r from −25
/// to 5), column letters.
const LINES: usize = 33;
/// Characters per line of the grid (the rightmost row number ends at
/// 5·16 + MARGIN + 4).
const WIDTH: usize = 5 * 16 + MARGIN + 5;

const COLUMN_LETTERS: &[u8; 17] = b"ABCDEFGHIJKLMNOPQ";

#[derive(Copy, Clone, PartialEq, Eq)]
enum Style {
    Plain,
    White,
    Black,
    Empty,
    Centre,
    Label,
}

impl Style {
    /// The SGR code that starts this style (`Plain` has none).
    fn code(self) -> &'static str {
        match self {
            Style::Plain => "",
            // Black on bright white.
            Style::White => "\x1b[1;30;107m",
            // Bright white on black.
            Style::Black => "\x1b[1;97;40m",
            Style::Empty => "\x1b[2m",
            Style::Centre => "\x1b[33m",
            Style::Label => "\x1b[36m",
        }
    }
}

const RESET: &str = "\x1b[0m";

/// A character grid with a style per character.
struct Canvas {
    cells: Vec<Vec<(char, Style)>>,
}

impl Canvas {
    fn new(width: usize, lines: usize) -> Canvas {
        Canvas {
            cells: vec![vec![(' ', Style::Plain); width]; lines],
        }
    }

    fn put(&mut self, x: usize, y: usize, text: &str, style: Style) {
        let line = &mut self.cells[y];
        for (i, ch) in text.chars().enumerate() {
            if let Some(slot) = line.get_mut(x + i) {
                *slot = (ch, style);
            }
        }
    }

    /// The lines, trailing blanks removed, styled when `colour` is on.
    fn lines(&self, colour: bool) -> Vec<String> {
        self.cells
            .iter()
            .map(|line| {
                let end = line
                    .iter()
                    .rposition(|&(ch, _)| ch != ' ')
                    .map_or(0, |i| i + 1);
                let mut out = String::new();
                let mut current = Style::Plain;
                for &(ch, style) in &line[..end] {
                    if colour && style != current {
                        if current != Style::Plain {
                            out.push_str(RESET);
                        }
                        out.push_str(style.code());
                        current = style;
                    }
                    out.push(ch);
                }
                if colour && current != Style::Plain {
                    out.push_str(RESET);
                }
                out
            })
            .collect()
    }
}

/// x of column `col`.
fn column_x(col: u8) -> usize {
    5 * col as usize + MARGIN
}

/// Text line of a cell.
fn cell_y(col: u8, row: u8) -> usize {
    (col as i32 - 2 * row as i32 + TOP) as usize
}

/// What a cell shows: `·`, `W2`, `B1*`, … and the style of it.
fn cell_text(pos: &Position, cell: Cell) -> (String, Style) {
    let Some(side) = pos.visible_side(cell) else {
        return ("·".to_string(), Style::Empty);
    };
    let letter = match side {
        Side::White => 'W',
        Side::Black => 'B',
    };
    let punct = pos.stack(cell).last().is_some_and(|dot| dot.is_punct);
    let text = format!(
        "{letter}{}{}",
        pos.height(cell),
        if punct { "*" } else { "" }
    );
    let style = match side {
        Side::White => Style::White,
        Side::Black => Style::Black,
    };
    (text, style)
}

/// The first and last columns of a row.
fn row_columns(row: u8) -> (u8, u8) {
    let cols: Vec<u8> = (0..17).filter(|&c| Cell::new(c, row).is_some()).collect();
    (cols[0], cols[cols.len() - 1])
}

pub(crate) fn side_word(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

fn status_words(status: Status) -> &'static str {
    match status {
        Status::Ongoing => "ongoing",
        Status::Won(Side::White) => "white wins",
        Status::Won(Side::Black) => "black wins",
        Status::Draw => "draw",
    }
}

/// The full board's drawing: [`LINES`] lines, at most [`WIDTH`] characters.
pub fn board_full(pos: &Position, colour: bool) -> Vec<String> {
    let mut canvas = Canvas::new(WIDTH, LINES);

    // Column letters, straight above and below each column.
    for col in 0..17u8 {
        let letter = (COLUMN_LETTERS[col as usize] as char).to_string();
        canvas.put(column_x(col), 0, &letter, Style::Label);
        canvas.put(column_x(col), LINES - 1, &letter, Style::Label);
    }

    // Row numbers at both ends of each row, on the line of the end cell.
    for row in 1..=17u8 {
        let (first, last) = row_columns(row);
        let number = row.to_string();
        let left = column_x(first) - 2 - number.len();
        canvas.put(left, cell_y(first, row), &number, Style::Label);
        canvas.put(column_x(last) + 3, cell_y(last, row), &number, Style::Label);
    }

    for cell in Cell::all() {
        let (col, row) = (cell.col(), cell.row());
        let (x, y) = (column_x(col), cell_y(col, row));
        let (text, style) = cell_text(pos, cell);
        let len = text.chars().count();
        // The side letter one left of the column's x, an empty dot on it.
        let start = if len == 1 { x } else { x - 1 };
        canvas.put(start, y, &text, style);
        if cell.is_central() {
            canvas.put(x - 2, y, "[", Style::Centre);
            canvas.put((start + len).max(x + 2), y, "]", Style::Centre);
        }
    }
    canvas.lines(colour)
}

/// The board and the state of the game, for a terminal at least 100
/// columns wide. With `colour` off the text holds no escape codes.
pub fn render(pos: &Position, colour: bool) -> String {
    let mut lines = board_full(pos, colour);

    lines.push(String::new());
    for side in Side::BOTH {
        let kinds: Vec<String> = Kind::ALL
            .iter()
            .map(|&k| format!("{}{}", k.letter(), pos.reserve(side, k)))
            .collect();
        lines.push(format!(
            "  {} reserve: {}   ({} left)",
            side_word(side),
            kinds.join(" "),
            pos.reserve_total(side)
        ));
    }
    let status = pos.status();
    let to_move = if status.is_over() {
        "-".to_string()
    } else {
        side_word(pos.side_to_move()).to_string()
    };
    lines.push(format!(
        "  To move: {to_move}   Passes: {}   Variant: {}   Status: {}",
        pos.passes(),
        pos.variant(),
        status_words(status)
    ));
    if pos.variant() == Variant::Standard {
        lines.push(format!(
            "  Central hexagon: White {}, Black {}",
            pos.central_count(Side::White),
            pos.central_count(Side::Black)
        ));
    }
    lines.push(
        "  Cells: W/B colour on top + height, * = a PÜNCT on top, [ ] = central hexagon; \
         rows run down-right"
            .to_string(),
    );

    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// x of column A in the compact layout: one column further left (where
/// the numbers of rows 2 to 8 stand) is x = 0.
const C_MARGIN: i32 = 4;
/// Added to c − 2·r, the full layout's line, before halving it: the top
/// line holds the column letters, the next the numbers of rows 16 and 17
/// (left of H16 and J17, over the cells), then the cells.
const C_TOP: i32 = 29;
/// Lines of the compact board: column letters, the numbers of rows 16 and
/// 17, the cells (c − 2·r from −25 to 5, two at a time), column letters.
pub const COMPACT_LINES: usize = 19;
/// Characters per line of the compact board (the numbers of rows 10 to 16
/// end one character after column 17's x).
pub const COMPACT_WIDTH: usize = (4 * 17 + C_MARGIN + 2) as usize;

/// x of column `col` in the compact layout; `col` may be −1 or 17, just
/// off the board, where row numbers stand.
fn compact_x(col: i32) -> usize {
    (4 * col + C_MARGIN) as usize
}

/// Text line of position (col, row) in the compact layout, on the board or
/// one step off it. The full layout's line c − 2·r halved: a column's
/// cells fall on consecutive lines, and a line has no half, so each
/// column of even index sits half a line higher than it would on the page.
fn compact_y(col: i32, row: i32) -> usize {
    ((col - 2 * row + C_TOP) / 2) as usize
}

/// Where the compact layout draws a cell: its x and its line.
fn compact_at(cell: Cell) -> (usize, usize) {
    let (col, row) = (i32::from(cell.col()), i32::from(cell.row()));
    (compact_x(col), compact_y(col, row))
}

/// The compact board's drawing: [`COMPACT_LINES`] lines, at most
/// [`COMPACT_WIDTH`] characters.
pub fn board_compact(pos: &Position, colour: bool) -> Vec<String> {
    let mut canvas = Canvas::new(COMPACT_WIDTH, COMPACT_LINES);

    // Column letters straight above and below each column, as on the full
    // board.
    for col in 0..17u8 {
        let letter = (COLUMN_LETTERS[col as usize] as char).to_string();
        let x = compact_x(i32::from(col));
        canvas.put(x, 0, &letter, Style::Label);
        canvas.put(x, COMPACT_LINES - 1, &letter, Style::Label);
    }

    // Each row's number at both ends, where its next cell would be. Beside
    // the end cell itself (where the full board has it) there is no room:
    // on a diagonal side the neighbouring column has a cell on that line.
    for row in 1..=17u8 {
        let (first, last) = row_columns(row);
        let r = i32::from(row);
        let number = row.to_string();
        let (before, after) = (i32::from(first) - 1, i32::from(last) + 1);
        let end = compact_x(before) + 1;
        canvas.put(
            end - number.len(),
            compact_y(before, r),
            &number,
            Style::Label,
        );
        canvas.put(compact_x(after), compact_y(after, r), &number, Style::Label);
    }

    // The central hexagon: its part of each line in brackets.
    for y in 0..COMPACT_LINES {
        let xs: Vec<usize> = Cell::all()
            .filter(|c| c.is_central())
            .map(compact_at)
            .filter(|&(_, line)| line == y)
            .map(|(x, _)| x)
            .collect();
        if let (Some(&a), Some(&b)) = (xs.iter().min(), xs.iter().max()) {
            canvas.put(a - 2, y, "[", Style::Centre);
            canvas.put(b + 2, y, "]", Style::Centre);
        }
    }

    for cell in Cell::all() {
        let (x, y) = compact_at(cell);
        let Some(side) = pos.visible_side(cell) else {
            let (dot, style) = if cell.is_central() {
                ("∘", Style::Centre)
            } else {
                ("·", Style::Empty)
            };
            canvas.put(x, y, dot, style);
            continue;
        };
        let style = match side {
            Side::White => Style::White,
            Side::Black => Style::Black,
        };
        let mut text = String::new();
        let mut start = x;
        if pos.stack(cell).last().is_some_and(|dot| dot.is_punct) {
            text.push('*');
            start = x - 1;
        }
        text.push(match side {
            Side::White => 'W',
            Side::Black => 'B',
        });
        match pos.height(cell) {
            0 | 1 => {}
            h @ 2..=9 => text.push(char::from(b'0' + h)),
            _ => text.push('+'),
        }
        canvas.put(start, y, &text, style);
    }
    canvas.lines(colour)
}

/// The short state lines under the board: the move number and who is to
/// move (or the result), the last move, the central count (standard game),
/// then both reserves. Each fits 80 columns.
pub fn status_lines(game: &Game) -> Vec<String> {
    let pos = game.position();
    let first = game.start().side_to_move();
    let mut head = match pos.status() {
        Status::Ongoing => {
            let (number, side) = move_number(first, game.len());
            format!("Move {number}: {} to move.", side_word(side))
        }
        Status::Won(side) => format!("Game over: {} wins.", side_word(side)),
        Status::Draw => "Game over: a draw.".to_string(),
    };
    if let Some(last) = game.moves().last() {
        let (_, side) = move_number(first, game.len() - 1);
        let what = if last == Move::Pass {
            format!("{} passed", side_word(side))
        } else {
            format!("{last} by {}", side_word(side))
        };
        head.push_str(&format!(" Last: {what}."));
    }
    if pos.variant() == Variant::Standard {
        head.push_str(&format!(
            " Central: W {}, B {}",
            pos.central_count(Side::White),
            pos.central_count(Side::Black)
        ));
    }
    let reserves: Vec<String> = Side::BOTH
        .iter()
        .map(|&side| {
            let kinds: Vec<String> = Kind::ALL
                .iter()
                .map(|&k| format!("{}{}", k.letter(), pos.reserve(side, k)))
                .collect();
            format!(
                "{} {} ({})",
                side_word(side),
                kinds.join(" "),
                pos.reserve_total(side)
            )
        })
        .collect();
    vec![head, format!("Reserves: {}", reserves.join(", "))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Move;

    fn plain(pos: &Position) -> String {
        render(pos, false)
    }

    /// The board part of the drawing (before the blank line).
    fn board_lines(text: &str) -> Vec<&str> {
        text.lines().take(LINES).collect()
    }

    /// The text drawn for `cell` on the plain board.
    fn shown(text: &str, cell: Cell) -> String {
        let line: Vec<char> = board_lines(text)[cell_y(cell.col(), cell.row())]
            .chars()
            .collect();
        let x = column_x(cell.col());
        let field: String = line[x - 1..(x + 3).min(line.len())].iter().collect();
        field
            .trim_matches(|c| c == ' ' || c == '[' || c == ']')
            .to_string()
    }

    fn reserve_line(text: &str, side: &str) -> String {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{side} reserve")))
            .expect("reserve line")
            .to_string()
    }

    #[test]
    fn no_line_is_wider_than_100_columns() {
        let mut pos = Position::new(Variant::Standard);
        pos.play("C@B7/2".parse::<Move>().unwrap()).unwrap();
        let stacked = Position::from_position_string("standard:w:0:wE@C4/0,wE@C4/0^1").unwrap();
        for p in [Position::new(Variant::Basic), pos, stacked] {
            for colour in [false, true] {
                let text = render(&p, colour);
                for line in text.lines() {
                    let width = if colour {
                        strip_escapes(line).chars().count()
                    } else {
                        line.chars().count()
                    };
                    assert!(width <= 100, "{width} columns: {line:?}");
                }
            }
        }
    }

    fn strip_escapes(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn empty_board_draws_all_211_cells_and_19_central_ones() {
        let text = plain(&Position::new(Variant::Standard));
        let board = board_lines(&text).join("\n");
        assert_eq!(board.matches('·').count(), 211);
        assert_eq!(board.matches("[ · ]").count(), 19);
        for cell in Cell::all() {
            assert_eq!(shown(&text, cell), "·", "{cell}");
        }
    }

    #[test]
    fn every_cell_name_can_be_read_off() {
        let text = plain(&Position::new(Variant::Standard));
        let lines = board_lines(&text);
        let first: Vec<char> = lines[0].chars().collect();
        let last: Vec<char> = lines[LINES - 1].chars().collect();
        for col in 0..17u8 {
            let letter = COLUMN_LETTERS[col as usize] as char;
            assert_eq!(first[column_x(col)], letter);
            assert_eq!(last[column_x(col)], letter);
        }
        for row in 1..=17u8 {
            let number = row.to_string();
            let (a, b) = row_columns(row);
            // Left of the first cell, ending two characters before its x.
            let line: Vec<char> = lines[cell_y(a, row)].chars().collect();
            let end = column_x(a) - 2;
            let left: String = line[end - number.len()..end].iter().collect();
            assert_eq!(left, number, "row {row} left");
            assert_eq!(line[end - number.len() - 1], ' ');
            // Right of the last cell, starting three characters after its x.
            let line: Vec<char> = lines[cell_y(b, row)].chars().collect();
            let start = column_x(b) + 3;
            let right: String = line[start..start + number.len()].iter().collect();
            assert_eq!(right, number, "row {row} right");
            assert!(line.get(start + number.len()).is_none_or(|&c| c == ' '));
        }
        assert_eq!(row_columns(1), (1, 7));
        assert_eq!(row_columns(17), (9, 15));
    }

    #[test]
    fn an_added_piece_shows_its_colour_height_and_punct_once() {
        let mut pos = Position::new(Variant::Standard);
        let before = plain(&pos);
        pos.play("C@B7/2".parse::<Move>().unwrap()).unwrap();
        let text = plain(&pos);
        let piece = pos.top_piece("B7".parse().unwrap()).unwrap();
        assert_eq!(piece.cells[0], "B7".parse::<Cell>().unwrap());
        assert_eq!(shown(&text, piece.cells[0]), "W1*");
        for &c in &piece.cells[1..] {
            assert_eq!(shown(&text, c), "W1", "{c}");
        }
        let board = board_lines(&text).join("\n");
        assert_eq!(board.matches('*').count(), 1);
        assert_eq!(board.matches("W1").count(), 3);
        assert_eq!(board.matches('·').count(), 208);
        assert_ne!(reserve_line(&before, "White"), reserve_line(&text, "White"));
        assert!(reserve_line(&text, "White").contains("C1"));
        assert_eq!(reserve_line(&before, "Black"), reserve_line(&text, "Black"));
        assert!(text.contains("To move: Black"));
    }

    #[test]
    fn a_stacked_cell_shows_height_two() {
        let pos = Position::from_position_string("standard:w:0:wE@C4/0,wE@C4/0^1").unwrap();
        let text = plain(&pos);
        let c4: Cell = "C4".parse().unwrap();
        assert_eq!(pos.height(c4), 2);
        assert_eq!(shown(&text, c4), "W2*");
        let board = board_lines(&text).join("\n");
        assert_eq!(board.matches("W2").count(), 3);
        assert_eq!(board.matches('*').count(), 1);
        assert!(reserve_line(&text, "White").contains("E2"));
    }

    #[test]
    fn plain_output_has_no_escape_codes_and_colour_output_does() {
        let mut pos = Position::new(Variant::Standard);
        pos.play("C@B7/2".parse::<Move>().unwrap()).unwrap();
        assert!(!render(&pos, false).contains('\x1b'));
        let coloured = render(&pos, true);
        assert!(coloured.contains('\x1b'));
        assert_eq!(strip_escapes(&coloured), render(&pos, false));
    }

    #[test]
    fn state_lines_name_variant_status_and_centre() {
        let text = plain(&Position::new(Variant::Standard));
        assert!(text.contains("Variant: standard"));
        assert!(text.contains("Status: ongoing"));
        assert!(text.contains("Passes: 0"));
        assert!(text.contains("Central hexagon: White 0, Black 0"));
        let basic = plain(&Position::new(Variant::Basic));
        assert!(basic.contains("Variant: basic"));
        assert!(!basic.contains("Central hexagon:"));
        assert_eq!(status_words(Status::Won(Side::Black)), "black wins");
        assert_eq!(status_words(Status::Draw), "draw");
    }

    // ---- the compact board ----

    /// The character at column `x` of a line (lines hold `·` and `∘`, so
    /// count characters, not bytes).
    fn char_at(line: &str, x: usize) -> char {
        line.chars().nth(x).unwrap_or(' ')
    }

    /// The most crowded end of a few random games: nearly every cell
    /// covered, stacks and PÜNCTs everywhere.
    fn crowded_game() -> Game {
        use punct_engine::{Player, RandomPlayer};
        let covered = |p: &Position| Cell::all().filter(|&c| p.height(c) > 0).count();
        let mut best = Game::new(Variant::Standard);
        for seed in 0..20 {
            let mut g = Game::new(Variant::Standard);
            let mut player = RandomPlayer::new(seed);
            while let Some(mv) = player.choose(g.position()) {
                g.play(mv).unwrap();
            }
            if covered(g.position()) > covered(best.position()) {
                best = g;
            }
        }
        best
    }

    #[test]
    fn the_compact_board_fits_an_80_by_24_terminal() {
        let game = crowded_game();
        let crowded = game.position();
        assert!(
            Cell::all().filter(|&c| crowded.height(c) > 0).count() > 70,
            "crowded enough"
        );
        assert!(Cell::all().any(|c| crowded.height(c) >= 2), "with stacks");
        for pos in [Position::new(Variant::Standard), crowded.clone()] {
            for colour in [false, true] {
                let lines = board_compact(&pos, colour);
                assert_eq!(lines.len(), COMPACT_LINES);
                for line in &lines {
                    let width = strip_escapes(line).chars().count();
                    assert!(width <= COMPACT_WIDTH, "{width}: {line:?}");
                }
                if !colour {
                    assert!(!lines.concat().contains('\x1b'));
                }
            }
        }
        const { assert!(COMPACT_WIDTH <= 80) };
        // The board, two status lines, a message line and the prompt.
        let status = status_lines(&game);
        assert_eq!(status.len(), 2);
        assert!(COMPACT_LINES + status.len() + 2 <= 24);
        for line in status {
            assert!(line.chars().count() <= 80, "{line}");
        }
    }

    /// Where a drawing shows each cell, read off its text alone: the marks
    /// of cells (`W`, `B`, `·`, `∘`) between the lines of column letters,
    /// grouped into columns by x from the left (give or take one: the full
    /// board writes `W1` one left of where it writes `·`), each column's
    /// marks from the top taken as its cells from its highest row down.
    /// Gives each cell's column group, text line and mark (`·` for any
    /// empty cell), and the x range of each group.
    #[allow(clippy::type_complexity)]
    fn read_cells(
        lines: &[String],
    ) -> (
        std::collections::HashMap<Cell, (usize, usize, char)>,
        Vec<(usize, usize)>,
    ) {
        let mut marks = Vec::new();
        for (y, line) in lines.iter().enumerate().take(lines.len() - 1).skip(1) {
            for (x, ch) in line.chars().enumerate() {
                match ch {
                    'W' | 'B' | '·' => marks.push((x, y, ch)),
                    '∘' => marks.push((x, y, '·')),
                    _ => {}
                }
            }
        }
        let mut xs: Vec<usize> = marks.iter().map(|m| m.0).collect();
        xs.sort();
        xs.dedup();
        let mut groups: Vec<(usize, usize)> = Vec::new();
        for x in xs {
            match groups.last_mut() {
                Some((_, end)) if x <= *end + 1 => *end = x,
                _ => groups.push((x, x)),
            }
        }
        assert_eq!(groups.len(), 17, "columns: {groups:?}");
        let mut cells = std::collections::HashMap::new();
        for (g, &(a, b)) in groups.iter().enumerate() {
            let mut column: Vec<(usize, char)> = marks
                .iter()
                .filter(|m| (a..=b).contains(&m.0))
                .map(|m| (m.1, m.2))
                .collect();
            column.sort();
            assert!(column.windows(2).all(|w| w[0].0 < w[1].0), "column {g}");
            let rows = (1..=17u8).rev().filter_map(|r| Cell::new(g as u8, r));
            assert_eq!(rows.clone().count(), column.len(), "column {g}");
            for (cell, (y, mark)) in rows.zip(column) {
                cells.insert(cell, (g, y, mark));
            }
        }
        (cells, groups)
    }

    /// The mark a cell shows: its visible colour, else `·`.
    fn mark(pos: &Position, cell: Cell) -> char {
        match pos.visible_side(cell) {
            None => '·',
            Some(Side::White) => 'W',
            Some(Side::Black) => 'B',
        }
    }

    /// Issue 33: the compact board is drawn as the full board and the web
    /// page draw it: columns straight up the screen under their letters,
    /// row 1 at the bottom, a row running down and to the right. Read off
    /// both drawings' text, the same cells show the same marks in the same
    /// order across and down.
    #[test]
    fn the_compact_board_has_the_orientation_of_the_full_one() {
        let game = crowded_game();
        for pos in [game.position(), &Position::new(Variant::Standard)] {
            let full = board_full(pos, false);
            let compact = board_compact(pos, false);
            let (f, f_groups) = read_cells(&full);
            let (c, c_groups) = read_cells(&compact);
            for cell in Cell::all() {
                let (fg, _, fm) = f[&cell];
                let (cg, _, cm) = c[&cell];
                // Each in its own column, showing what is on it.
                assert_eq!((fg, cg), (cell.col().into(), cell.col().into()));
                assert_eq!((fm, cm), (mark(pos, cell), mark(pos, cell)), "{cell}");
            }
            // The column letters over and under the columns.
            for (lines, groups) in [(&full, &f_groups), (&compact, &c_groups)] {
                for (col, &(a, b)) in groups.iter().enumerate() {
                    let letter = COLUMN_LETTERS[col] as char;
                    for line in [&lines[0], &lines[lines.len() - 1]] {
                        assert!((a..=b).any(|x| char_at(line, x) == letter), "{letter}");
                    }
                }
            }
            // Higher on the full board is never lower on the compact one.
            for a in Cell::all() {
                for b in Cell::all() {
                    if f[&a].1 < f[&b].1 {
                        assert!(c[&a].1 <= c[&b].1, "{a} over {b}");
                    }
                }
            }
            // A row: one line down per column on the full board, per two
            // on the compact one (text has no half lines).
            for cell in Cell::all() {
                let (col, row) = (cell.col(), cell.row());
                let Some(next) = Cell::new(col + 1, row) else {
                    continue;
                };
                assert_eq!(f[&next].1, f[&cell].1 + 1, "{cell}");
                let step = c[&next].1 - c[&cell].1;
                assert!(step <= 1, "{cell}");
                if let Some(after) = Cell::new(col + 2, row) {
                    assert_eq!(c[&after].1, c[&cell].1 + 1, "{cell}");
                }
            }
        }
    }

    #[test]
    fn every_cell_of_a_crowded_board_is_drawn_where_its_name_says() {
        let game = crowded_game();
        // And a stack six high with a PÜNCT on top.
        let tall = Position::from_position_string(
            "standard:w:0:wE@C4/0,wE@C4/0^1,wE@C4/0^2,wE@C4/0^3,wC@C3/0^4,wC@C3/0^5",
        )
        .unwrap();
        assert_eq!(tall.height("C3".parse().unwrap()), 6);
        for pos in [game.position(), &tall] {
            every_cell_is_drawn(pos);
        }
    }

    fn every_cell_is_drawn(pos: &Position) {
        let lines = board_compact(pos, false);
        for cell in Cell::all() {
            let (x, y) = compact_at(cell);
            let line = &lines[y];
            let (before, main, after) =
                (char_at(line, x - 1), char_at(line, x), char_at(line, x + 1));
            match pos.visible_side(cell) {
                None => {
                    let dot = if cell.is_central() { '∘' } else { '·' };
                    assert_eq!((before, main, after), (' ', dot, ' '), "{cell}");
                }
                Some(side) => {
                    let letter = if side == Side::White { 'W' } else { 'B' };
                    assert_eq!(main, letter, "{cell}");
                    let punct = pos.stack(cell).last().unwrap().is_punct;
                    assert_eq!(before, if punct { '*' } else { ' ' }, "{cell}");
                    let height = match pos.height(cell) {
                        1 => ' ',
                        h @ 2..=9 => char::from(b'0' + h),
                        _ => '+',
                    };
                    assert_eq!(after, height, "{cell}");
                }
            }
        }
        // Nothing else on the board: one mark per cell (the column letters
        // on the first and last lines include a B).
        let marks: usize = lines[1..COMPACT_LINES - 1]
            .iter()
            .map(|l| l.chars().filter(|c| "WB·∘".contains(*c)).count())
            .sum();
        assert_eq!(marks, 211);
    }

    #[test]
    fn compact_rows_columns_and_centre_are_labelled() {
        let lines = board_compact(&Position::new(Variant::Standard), false);
        // Column letters over and under their columns, as on the full board.
        let letters = "A   B   C   D   E   F   G   H   I   J   K   L   M   N   O   P   Q";
        for line in [&lines[0], &lines[COMPACT_LINES - 1]] {
            assert_eq!(line.trim(), letters);
            for col in 0..17u8 {
                let letter = COLUMN_LETTERS[col as usize] as char;
                assert_eq!(char_at(line, compact_x(col.into())), letter);
            }
        }
        // Each row's number at both ends, where the row's next cell would
        // be, with blanks around it; each number twice and nothing else.
        // Blank at x, and before x (or x at the start of the line).
        let blank = |line: &str, x: usize| char_at(line, x) == ' ';
        let blank_before = |line: &str, x: usize| x == 0 || blank(line, x - 1);
        for row in 1..=17u8 {
            let (first, last) = row_columns(row);
            let r = i32::from(row);
            let number = row.to_string();
            let len = number.len();
            let before = i32::from(first) - 1;
            let line = &lines[compact_y(before, r)];
            let end = compact_x(before) + 1;
            let left: String = line.chars().skip(end - len).take(len).collect();
            assert_eq!(left, number, "row {row} left");
            assert!(
                blank_before(line, end - len) && blank(line, end),
                "row {row}"
            );
            let after = i32::from(last) + 1;
            let line = &lines[compact_y(after, r)];
            let start = compact_x(after);
            let right: String = line.chars().skip(start).take(len).collect();
            assert_eq!(right, number, "row {row} right");
            assert!(
                blank_before(line, start) && blank(line, start + len),
                "row {row}"
            );
        }
        let mut numbers: Vec<u8> = lines[1..COMPACT_LINES - 1]
            .iter()
            .flat_map(|l| l.split_whitespace())
            .filter_map(|w| w.parse().ok())
            .collect();
        numbers.sort();
        let twice: Vec<u8> = (1..=17).flat_map(|n| [n, n]).collect();
        assert_eq!(numbers, twice);
        // The central hexagon: its part of each line in brackets.
        let mut central = 0;
        for (y, line) in lines.iter().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            let open = chars.iter().filter(|&&c| c == '[').count();
            let close = chars.iter().filter(|&&c| c == ']').count();
            assert_eq!(open, close, "line {y}");
            if open == 1 {
                let a = chars.iter().position(|&c| c == '[').unwrap();
                let b = chars.iter().position(|&c| c == ']').unwrap();
                central += chars[a..b].iter().filter(|&&c| c == '∘').count();
                assert!(!chars[..a].contains(&'∘') && !chars[b..].contains(&'∘'));
            }
        }
        assert_eq!(central, 19);
    }

    #[test]
    fn status_lines_say_move_turn_last_move_centre_and_reserves() {
        let start = Game::new(Variant::Standard);
        assert_eq!(
            status_lines(&start),
            [
                "Move 1: White to move. Central: W 0, B 0",
                "Reserves: White T6 C2 E4 L2 M2 R2 (18), Black T6 C2 E4 L2 M2 R2 (18)"
            ]
        );
        let moves = punct_core::parse_moves("C@B7/2 R@F2/0 C@P15/2").unwrap();
        let game = Game::replay(Position::new(Variant::Basic), &moves).unwrap();
        let lines = status_lines(&game);
        assert_eq!(lines[0], "Move 2: Black to move. Last: C@P15/2 by White.");
        assert!(
            lines[1].contains("White T6 C0 E4 L2 M2 R2 (16)"),
            "{lines:?}"
        );
        let over = crowded_game();
        let head = &status_lines(&over)[0];
        assert!(head.starts_with("Game over: "), "{head}");
    }
}
