//! The players' chat: phrases from a fixed set only, said by a seat of an
//! online game, kept with the game (the row's `chat` column) and shown to
//! everyone who watches, each reader in their own language (the page
//! words a phrase by its code). No free text: nothing to moderate, and
//! nothing that a reader's language cannot show.

use super::{GameError, LiveGame};
use punct_core::Side;
use punct_store::Mode;
use serde_json::{json, Value};

/// The phrases, by code, as the page's catalogues word them
/// (`chat.phrase.<code>`).
pub const PHRASES: [&str; 6] = [
    "good_luck",
    "have_fun",
    "good_game",
    "thank_you",
    "well_played",
    "rematch",
];

/// Phrases one seat may say in one game: enough for a game's courtesies,
/// too few to flood the other player.
pub const PER_SIDE: usize = 12;

/// One phrase said: by which side, after how many plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Said {
    pub side: Side,
    pub phrase: &'static str,
    pub ply: usize,
}

/// Why a phrase is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not one of [`PHRASES`] (what was sent, cut short).
    NotAPhrase(String),
    /// The seat has said [`PER_SIDE`] phrases in this game.
    Full,
    /// Only online games have two people to talk (this mode's name).
    NotOnline(&'static str),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NotAPhrase(text) => write!(
                f,
                "`{text}` is not one of the chat's phrases: {}",
                PHRASES.join(", ")
            ),
            Refused::Full => write!(f, "a player says at most {PER_SIDE} phrases in a game"),
            Refused::NotOnline(mode) => write!(
                f,
                "the chat is for online games between two people, not a {mode} game"
            ),
        }
    }
}

/// The phrase of `code`, if it is one.
fn phrase(code: &str) -> Option<&'static str> {
    PHRASES.iter().copied().find(|p| *p == code)
}

/// Reads the stored words (`white:good_luck:0 black:have_fun:1`); a word
/// that means nothing (a phrase a later release dropped) is skipped.
pub fn read(words: Option<&str>) -> Vec<Said> {
    words
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|word| {
            let mut parts = word.split(':');
            let side = Side::from_name(parts.next()?)?;
            let phrase = phrase(parts.next()?)?;
            let ply = parts.next()?.parse().ok()?;
            Some(Said { side, phrase, ply })
        })
        .collect()
}

/// The words [`read`] reads; `None` for no phrase at all.
pub fn write(lines: &[Said]) -> Option<String> {
    (!lines.is_empty()).then(|| {
        lines
            .iter()
            .map(|s| format!("{}:{}:{}", s.side.name(), s.phrase, s.ply))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// The chat as the game's state shows it.
pub fn json(lines: &[Said]) -> Value {
    Value::Array(
        lines
            .iter()
            .map(|s| json!({"side": s.side.name(), "phrase": s.phrase, "ply": s.ply}))
            .collect(),
    )
}

impl LiveGame {
    /// The holder of `token` says the phrase `code`: during the game or
    /// after it (a "good game" comes at the end).
    pub fn say(&mut self, token: &str, code: &str) -> Result<(), GameError> {
        if self.row.mode != Mode::Online {
            return Err(GameError::Chat(Refused::NotOnline(self.row.mode.name())));
        }
        let side = match self.seats(token).as_slice() {
            [one] => *one,
            _ => return Err(GameError::NoSeat),
        };
        let Some(phrase) = phrase(code) else {
            let shown: String = code.chars().take(40).collect();
            return Err(GameError::Chat(Refused::NotAPhrase(shown)));
        };
        let mut lines = read(self.row.chat.as_deref());
        if lines.iter().filter(|s| s.side == side).count() >= PER_SIDE {
            return Err(GameError::Chat(Refused::Full));
        }
        lines.push(Said {
            side,
            phrase,
            ply: self.game.len(),
        });
        self.row.chat = write(&lines);
        self.changed();
        Ok(())
    }

    /// What the players said, oldest first.
    pub fn chat(&self) -> Vec<Said> {
        read(self.row.chat.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_read_back_and_unknown_ones_are_skipped() {
        let lines = vec![
            Said {
                side: Side::White,
                phrase: "good_luck",
                ply: 0,
            },
            Said {
                side: Side::Black,
                phrase: "well_played",
                ply: 31,
            },
        ];
        let words = write(&lines).expect("words");
        assert_eq!(words, "white:good_luck:0 black:well_played:31");
        assert_eq!(read(Some(&words)), lines);
        assert_eq!(
            read(Some("white:shout:3 black:good_game:x white:thank_you:4")),
            vec![Said {
                side: Side::White,
                phrase: "thank_you",
                ply: 4
            }]
        );
        assert_eq!(write(&[]), None);
        assert!(read(None).is_empty());
    }
}
