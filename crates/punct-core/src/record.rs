//! Game records in the style of PGN.
//!
//! ```text
//! [Event "Casual game"]
//! [Date "2026.11.22"]
//! [White "Ann"]
//! [Black "Bob"]
//! [Variant "standard"]
//! [Result "0-1"]
//!
//! 1. C@B7/2 R@F2/0 2. C@P15/2 L@E4/2 {a comment} 3. R@L13/1 M@F7/0 0-1
//! ```
//!
//! Tag pairs come first, one per line (`\"` and `\\` escape inside values).
//! A `Position` tag holds a position string to start from instead of the
//! start position; `Variant` must agree with it. The move text is moves in
//! canonical notation, optionally numbered (`12.` before White's move,
//! `12...` before a Black move that does not follow White's), with `{…}` and
//! `;…` comments, ending with the result: `1-0`, `0-1`, `1/2-1/2` or `*`.

use crate::game::{Game, ReplayError};
use crate::moves::Move;
use crate::piece::Side;
use crate::position::{Position, Status, Variant};
use crate::position_string::PositionError;
use std::fmt;

/// A record's result token.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unfinished or unknown.
    Unfinished,
}

impl Outcome {
    pub const fn token(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unfinished => "*",
        }
    }

    pub fn from_token(t: &str) -> Option<Outcome> {
        Some(match t {
            "1-0" => Outcome::WhiteWins,
            "0-1" => Outcome::BlackWins,
            "1/2-1/2" => Outcome::Draw,
            "*" => Outcome::Unfinished,
            _ => return None,
        })
    }

    pub const fn from_status(s: Status) -> Outcome {
        match s {
            Status::Ongoing => Outcome::Unfinished,
            Status::Won(Side::White) => Outcome::WhiteWins,
            Status::Won(Side::Black) => Outcome::BlackWins,
            Status::Draw => Outcome::Draw,
        }
    }
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not a record; `line` is 1-based.
    Syntax { line: usize, message: String },
    /// The `Position` or `Variant` tag is unusable.
    Start(String),
    /// Move number `number` (White's or Black's half) is illegal.
    Illegal {
        number: usize,
        side: Side,
        error: ReplayError,
    },
    /// The result disagrees with how the moves end the game.
    Result(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax { line, message } => write!(f, "line {line}: {message}"),
            RecordError::Start(m) => write!(f, "start position: {m}"),
            RecordError::Illegal {
                number,
                side,
                error,
            } => write!(
                f,
                "move {number} ({side}, ply {}): `{}` is illegal: {}",
                error.ply, error.mv, error.reason
            ),
            RecordError::Result(m) => write!(f, "result: {m}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A parsed record: tags in their order, moves and the result token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<Move>,
    pub outcome: Outcome,
}

/// Tags every record written by this crate carries, in this order.
pub const SEVEN_TAGS: [&str; 7] = [
    "Event", "Site", "Date", "White", "Black", "Variant", "Result",
];

impl Record {
    /// A record of `game` with the given tags (`Variant`, `Result` and, when
    /// the game did not start from the start position, `Position` are set
    /// from the game).
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> Record {
        let outcome = Outcome::from_status(game.position().status());
        let mut rec = Record {
            tags: Vec::new(),
            moves: game.moves().collect(),
            outcome,
        };
        for name in SEVEN_TAGS {
            let value = tags
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map_or("?", |(_, v)| v);
            rec.set_tag(name, value);
        }
        for (n, v) in tags {
            if !n.eq_ignore_ascii_case("Position") {
                rec.set_tag(n, v);
            }
        }
        rec.set_tag("Variant", game.start().variant().name());
        rec.set_tag("Result", outcome.token());
        if *game.start() != Position::new(game.start().variant()) {
            rec.set_tag("Position", &game.start().to_position_string());
        }
        rec
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag (names compare ignoring case; the value is made one line).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        let value = one_line(value);
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The position the moves start from (`Position` tag, else the start
    /// position of the `Variant` tag's variant, standard when absent).
    pub fn start_position(&self) -> Result<Position, RecordError> {
        let variant = match self.tag("Variant") {
            Some(v) => v
                .parse::<Variant>()
                .map_err(|e| RecordError::Start(format!("Variant tag: {e}")))?,
            None => Variant::Standard,
        };
        match self.tag("Position") {
            None => Ok(Position::new(variant)),
            Some(text) => {
                let pos = Position::from_position_string(text)
                    .map_err(|e: PositionError| RecordError::Start(format!("Position tag: {e}")))?;
                if self.tag("Variant").is_some() && pos.variant() != variant {
                    return Err(RecordError::Start(format!(
                        "the Variant tag says {variant} but the Position tag is a {} position",
                        pos.variant()
                    )));
                }
                Ok(pos)
            }
        }
    }

    /// Replays every move from the start position, checking each, and checks
    /// that the result agrees: a game the rules ended must carry that result;
    /// an unfinished one may carry any (resignation, time, adjudication).
    pub fn replay(&self) -> Result<Game, RecordError> {
        let start = self.start_position()?;
        let first = start.side_to_move();
        let game = Game::replay(start, &self.moves).map_err(|error| {
            let (number, side) = move_number(first, error.ply - 1);
            RecordError::Illegal {
                number,
                side,
                error,
            }
        })?;
        if let Some(tag) = self.tag("Result") {
            if Outcome::from_token(tag) != Some(self.outcome) {
                return Err(RecordError::Result(format!(
                    "the Result tag `{tag}` disagrees with the result `{}` after the moves",
                    self.outcome.token()
                )));
            }
        }
        let status = game.position().status();
        if status.is_over() && Outcome::from_status(status) != self.outcome {
            return Err(RecordError::Result(format!(
                "the moves end the game with {} ({}), but the record says `{}`",
                Outcome::from_status(status).token(),
                match status {
                    Status::Won(s) => format!("{s} wins"),
                    _ => "a draw".to_string(),
                },
                self.outcome.token()
            )));
        }
        Ok(game)
    }

    /// Reads a record (syntax only; see [`Record::replay`] for legality).
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut tags = Vec::new();
        let mut moves = Vec::new();
        let mut outcome = None;
        let mut in_comment = false;
        let mut comment_line = 0;
        let mut seen_moves = false;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let syntax = |message: String| RecordError::Syntax {
                line: line_no,
                message,
            };
            let line = raw.trim();
            if !in_comment && line.starts_with('[') {
                if seen_moves {
                    return Err(syntax("tag pairs must come before the moves".into()));
                }
                let (name, value) = parse_tag(line).map_err(syntax)?;
                if tags
                    .iter()
                    .any(|(n, _): &(String, String)| n.eq_ignore_ascii_case(&name))
                {
                    return Err(syntax(format!("tag `{name}` appears twice")));
                }
                tags.push((name, value));
                continue;
            }
            let mut rest = line;
            while !rest.is_empty() {
                if in_comment {
                    match rest.find('}') {
                        Some(end) => {
                            in_comment = false;
                            rest = &rest[end + 1..];
                        }
                        None => rest = "",
                    }
                    continue;
                }
                rest = rest.trim_start();
                if rest.is_empty() || rest.starts_with(';') {
                    break;
                }
                if let Some(r) = rest.strip_prefix('{') {
                    in_comment = true;
                    comment_line = line_no;
                    rest = r;
                    continue;
                }
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '{' || c == ';')
                    .unwrap_or(rest.len());
                let token = &rest[..end];
                rest = &rest[end..];
                seen_moves = true;
                if outcome.is_some() {
                    return Err(syntax(format!(
                        "`{token}` after the result: the result must be the last token"
                    )));
                }
                if let Some(o) = Outcome::from_token(token) {
                    outcome = Some(o);
                    continue;
                }
                // Move numbers: `12.` or `12...`, possibly glued to the move.
                let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                let (number, after) = token.split_at(digits);
                let mv_text = if digits > 0 && after.starts_with('.') {
                    let dots = after.bytes().take_while(|&b| b == b'.').count();
                    if dots != 1 && dots != 3 {
                        return Err(syntax(format!(
                            "`{token}`: a move number ends in `.` or `...`"
                        )));
                    }
                    let n: usize = number
                        .parse()
                        .map_err(|_| syntax(format!("`{token}`: move number too large")))?;
                    check_number(n, dots, moves.len(), tags.as_slice())
                        .map_err(|m| syntax(format!("`{token}`: {m}")))?;
                    &after[dots..]
                } else {
                    token
                };
                if mv_text.is_empty() {
                    continue;
                }
                let mv: Move = mv_text.parse().map_err(|e| syntax(format!("{e}")))?;
                moves.push(mv);
            }
        }
        if in_comment {
            return Err(RecordError::Syntax {
                line: comment_line,
                message: "the `{` comment opened here is never closed".into(),
            });
        }
        let outcome = outcome.ok_or_else(|| RecordError::Syntax {
            line: text.lines().count().max(1),
            message: "the move text must end with a result: 1-0, 0-1, 1/2-1/2 or *".into(),
        })?;
        Ok(Record {
            tags,
            moves,
            outcome,
        })
    }

    /// The record as text: tag pairs, a blank line, numbered moves wrapped
    /// at 80 columns, the result.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (n, v) in &self.tags {
            out.push_str(&format!(
                "[{n} \"{}\"]\n",
                one_line(v).replace('\\', "\\\\").replace('"', "\\\"")
            ));
        }
        out.push('\n');
        let first = first_mover(&self.tags);
        let mut tokens = Vec::new();
        for (i, mv) in self.moves.iter().enumerate() {
            // A move number stays on the line of its move.
            let (number, side) = move_number(first, i);
            tokens.push(match side {
                Side::White => format!("{number}. {mv}"),
                Side::Black if i == 0 => format!("{number}... {mv}"),
                Side::Black => mv.to_string(),
            });
        }
        tokens.push(self.outcome.token().to_string());
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }
}

/// The move number and side of the 0-based ply `index` when `first` moves first.
pub fn move_number(first: Side, index: usize) -> (usize, Side) {
    let offset = if first == Side::White { 0 } else { 1 };
    let half = index + offset;
    let side = if half.is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    (half / 2 + 1, side)
}

/// Who moves first as far as move numbers go: the side field of the
/// `Position` tag (even when the rest of the tag is unusable), else White.
/// Reading and writing both number moves by this, so they always agree.
fn first_mover(tags: &[(String, String)]) -> Side {
    let black = tags.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("Position")
            && v.split(':')
                .nth(1)
                .is_some_and(|s| s.eq_ignore_ascii_case("b"))
    });
    if black {
        Side::Black
    } else {
        Side::White
    }
}

/// Tag values are one line: line breaks and other control characters become spaces.
fn one_line(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn check_number(
    n: usize,
    dots: usize,
    plies: usize,
    tags: &[(String, String)],
) -> Result<(), String> {
    // Where the record starts from Black, ply 0 is Black's half of move 1.
    let (number, side) = move_number(first_mover(tags), plies);
    if n != number {
        return Err(format!("move number {n} should be {number}"));
    }
    match (dots, side) {
        (1, Side::White) | (3, Side::Black) => Ok(()),
        (1, Side::Black) => Err(format!("it is Black's move, written `{n}...`")),
        _ => Err(format!("it is White's move, written `{n}.`")),
    }
}

fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("`{line}` is not a tag pair `[Name \"value\"]`"))?;
    let (name, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("`{line}` is not a tag pair `[Name \"value\"]`"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("tag name `{name}` must be letters, digits or `_`"));
    }
    let value = value.trim();
    let quoted = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .filter(|_| value.len() >= 2)
        .ok_or_else(|| format!("the value of tag `{name}` must be in double quotes"))?;
    let mut out = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => out.push(e),
                _ => {
                    return Err(format!(
                        "tag `{name}`: `\\` must be followed by `\"` or `\\`"
                    ))
                }
            },
            '"' => {
                return Err(format!(
                    "tag `{name}`: a `\"` inside the value must be written `\\\"`"
                ))
            }
            c => out.push(c),
        }
    }
    Ok((name.to_string(), one_line(&out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax_line(text: &str) -> (usize, String) {
        match Record::parse(text) {
            Err(RecordError::Syntax { line, message }) => (line, message),
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn a_tag_after_the_moves_is_refused_as_such() {
        let (line, msg) = syntax_line("1. C@B7/2\n[Event \"x\"]\n*\n");
        assert_eq!(line, 2);
        assert!(
            msg.contains("tag pairs must come before the moves"),
            "{msg}"
        );
    }

    #[test]
    fn a_bracket_inside_a_multi_line_comment_is_part_of_the_comment() {
        let rec = Record::parse("1. C@B7/2 {a\n[x} *\n").unwrap();
        assert_eq!(rec.moves.len(), 1);
        assert_eq!(rec.outcome, Outcome::Unfinished);
    }

    #[test]
    fn an_unclosed_comment_is_reported_where_it_opens() {
        let (line, msg) = syntax_line("[Result \"*\"]\n\n1. C@B7/2 {oops\nR@F2/0\n*\n");
        assert_eq!(line, 3);
        assert!(msg.contains("never closed"), "{msg}");
    }

    #[test]
    fn set_tag_replaces_a_tag_whatever_its_case() {
        let mut rec = Record::parse("[result \"*\"]\n\n*\n").unwrap();
        rec.set_tag("Result", "1-0");
        assert_eq!(rec.tags.len(), 1);
        assert_eq!(rec.tag("RESULT"), Some("1-0"));
    }
}
