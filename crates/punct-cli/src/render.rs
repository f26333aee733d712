//! Terminal drawing of a position: the hexagonal board, then the reserves,
//! the side to move and the state of the game.
//!
//! Layout: column `c` (A = 0) is drawn at x = 5·c + [`MARGIN`], and cell
//! (c, r) on text line y = c − 2·r + [`TOP`]. Cells of one column are two
//! lines apart with row numbers growing upwards (row 1 at the bottom, as on
//! a chessboard), so columns run straight up the page; a row runs down and
//! to the right (its next cell is one line down, five characters on). The board
//! is a hexagon with vertical left (A) and right (Q) sides.
//!
//! Each cell is drawn as
//! - `·` when empty,
//! - `W2` / `B1`: the colour of its visible dot and its height,
//! - `W2*`: the same where the visible dot is a PÜNCT,
//!
//! and the 19 cells of the central hexagon sit in brackets: `[ · ]`, `[W2*]`.
//! Column letters run along the top and bottom; each row's number stands at
//! both of its ends, on the text line of its end cell.
//!
//! With `colour` off the result is plain text with no escape codes; with it
//! on, plain ANSI SGR codes style the pieces, the centre and the labels.

use punct_core::{Cell, Kind, Position, Side, Status, Variant};

/// x of column A.
const MARGIN: usize = 8;
/// Added to c − 2·r so that the highest line of the board is line 1 (J17
/// has c − 2·r = −25) and line 0 holds the column letters.
const TOP: i32 = 26;
/// Lines of the board drawing: column letters, the cells (c − 2·r from −25
/// to 25), column letters.
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
    fn new() -> Canvas {
        Canvas {
            cells: vec![vec![(' ', Style::Plain); WIDTH]; LINES],
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

fn side_word(side: Side) -> &'static str {
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

/// The board and the state of the game, for a terminal at least 100
/// columns wide. With `colour` off the text holds no escape codes.
pub fn render(pos: &Position, colour: bool) -> String {
    let mut canvas = Canvas::new();

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

    let mut lines = canvas.lines(colour);

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
}
