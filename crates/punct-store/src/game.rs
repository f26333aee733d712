//! A game as stored ([`GameRow`]) and the typed values it holds: how it is
//! played ([`Mode`]), how it ended off the board ([`End`]), who offers
//! what (`Option<Side>`). The columns hold them as text; this module is
//! the one place that turns the one into the other, for both backends
//! alike ([`Words`]), so nothing above the stores reads a column's text.

use crate::StoreError;
use punct_core::{Outcome, Side};
use std::fmt;

/// A game as stored: everything needed to rebuild it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub mode: Mode,
    pub white_token: Option<String>,
    pub black_token: Option<String>,
    /// Position string the game started from.
    pub start: String,
    /// The moves in notation, separated by spaces.
    pub moves: String,
    /// How the game ended when the position does not show it (a
    /// resignation, an agreement, a flag, an abandonment, an imported
    /// record's stated result).
    pub end: Option<End>,
    /// The side offering a draw / asking for a takeback, if any.
    pub draw_offer: Option<Side>,
    pub takeback: Option<Side>,
    /// Milliseconds since 1970.
    pub created: i64,
    pub updated: i64,
    /// Counts every change; clients use it to order updates.
    pub version: i64,
    /// The result once the game is over, on the board or by `end` (for
    /// listings, which cannot replay the moves); `None` while it goes on.
    pub finished: Option<Outcome>,
    /// Plies played (for listings).
    pub plies: i64,
    /// The code that claims the online seat still waiting for its player
    /// (`None` once claimed, and in other modes).
    pub invite: Option<String>,
    /// The game came from an imported record.
    pub imported: bool,
    /// An imported record's own tags, as a JSON array of `[name, value]`.
    pub tags: Option<String>,
    /// The players' display names (`None`: not given).
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// The time control as JSON (the server's `clock.rs`), `None` for
    /// untimed games.
    pub clock: Option<String>,
    /// Each side's time left when its current or last turn began (ms).
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    /// When the side to move's clock started running (ms since 1970);
    /// `None` while no clock runs.
    pub clock_since: Option<i64>,
    /// The engine helped a player during the game (hints against the AI).
    pub assisted: bool,
    /// The side offering a rematch after the game, if any.
    pub rematch_offer: Option<Side>,
    /// The id of the rematch game this game led to.
    pub rematch: Option<String>,
    /// The post-game analysis as JSON (the server's `review.rs`).
    pub review: Option<String>,
    /// The users (ids) in the seats, where signed-in players sit.
    pub white_user: Option<String>,
    pub black_user: Option<String>,
    /// The game counts for the players' ratings.
    pub rated: bool,
    /// The fixed phrases the players said, in the words the server's
    /// `chat.rs` writes (none: `None`).
    pub chat: Option<String>,
}

/// How a game is played (`Hotseat` in a row made from defaults).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// One person against the AI at `level`, which plays `ai_side` (the
    /// person plays the other).
    Ai { level: u32, ai_side: Side },
    /// Two people at one screen: one token moves for both.
    #[default]
    Hotseat,
    /// Two people, each with their seat's token.
    Online,
}

impl Mode {
    /// `ai`, `hotseat` or `online` (the API's and the column's word).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Ai { .. } => "ai",
            Mode::Hotseat => "hotseat",
            Mode::Online => "online",
        }
    }

    /// The side the AI plays, in a game against it.
    pub fn ai_side(self) -> Option<Side> {
        match self {
            Mode::Ai { ai_side, .. } => Some(ai_side),
            _ => None,
        }
    }
}

/// How a game ended off the board, with its result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub outcome: Outcome,
    pub reason: EndReason,
}

impl End {
    /// The end `reason` makes, its outcome following from it; `None` for
    /// a recorded result, whose outcome is the record's own.
    pub fn by(reason: EndReason) -> Option<End> {
        Some(End {
            outcome: reason.outcome()?,
            reason,
        })
    }
}

/// Why a game ended when the position does not show it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// This side resigned.
    Resignation(Side),
    /// The players agreed to a draw.
    Agreement,
    /// This side's time ran out.
    Time(Side),
    /// This side left the game and the other claimed it.
    Abandonment(Side),
    /// An imported record's result, stored by releases before
    /// Termination tags were read (kept so their games still load).
    Recorded,
    /// This side aborted the game before both sides had moved: it ends
    /// with no result (`*`), counted for nobody.
    Aborted(Side),
}

impl EndReason {
    /// The reason's kind without its side: `resignation`, `agreement`,
    /// `time`, `abandonment`, `recorded` or `aborted`.
    pub fn kind(self) -> &'static str {
        match self {
            EndReason::Resignation(_) => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Time(_) => "time",
            EndReason::Abandonment(_) => "abandonment",
            EndReason::Recorded => "recorded",
            EndReason::Aborted(_) => "aborted",
        }
    }

    /// The side it names: the loser, or who aborted.
    pub fn side(self) -> Option<Side> {
        match self {
            EndReason::Aborted(side) => Some(side),
            _ => self.loser(),
        }
    }

    /// The side that lost by it (none for an agreement, a record or an
    /// abort).
    pub fn loser(self) -> Option<Side> {
        match self {
            EndReason::Resignation(side) | EndReason::Time(side) | EndReason::Abandonment(side) => {
                Some(side)
            }
            EndReason::Agreement | EndReason::Recorded | EndReason::Aborted(_) => None,
        }
    }

    /// The outcome it gives: the loser's opponent wins, an agreement is a
    /// draw, an abort leaves it unfinished (a record's outcome is its own:
    /// `None`).
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            EndReason::Agreement => Some(Outcome::Draw),
            EndReason::Aborted(_) => Some(Outcome::Unfinished),
            EndReason::Recorded => None,
            _ => self.loser().map(|side| match side {
                Side::White => Outcome::BlackWins,
                Side::Black => Outcome::WhiteWins,
            }),
        }
    }

    /// Reads the reason's word (`resignation:white`, `agreement`,
    /// `time:black`, `abandonment:white`, `recorded`, `aborted:white`):
    /// the column's text
    /// and a record's `Termination` tag.
    pub fn parse(word: &str) -> Option<EndReason> {
        let side = Side::from_name;
        Some(match word.split_once(':') {
            None if word == "agreement" => EndReason::Agreement,
            None if word == "recorded" => EndReason::Recorded,
            Some(("resignation", s)) => EndReason::Resignation(side(s)?),
            Some(("time", s)) => EndReason::Time(side(s)?),
            Some(("abandonment", s)) => EndReason::Abandonment(side(s)?),
            Some(("aborted", s)) => EndReason::Aborted(side(s)?),
            _ => return None,
        })
    }
}

/// The reason's word, as [`EndReason::parse`] reads it.
impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side() {
            Some(side) => write!(f, "{}:{}", self.kind(), side.name()),
            None => f.write_str(self.kind()),
        }
    }
}

/// The columns that hold [`GameRow`]'s typed values as text, as both
/// backends read and write them.
#[derive(Debug, Default)]
pub(crate) struct Words {
    pub mode: String,
    pub ai_level: Option<u32>,
    pub ai_side: Option<String>,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub draw_offer: Option<String>,
    pub takeback: Option<String>,
    pub status: String,
    pub rematch_offer: Option<String>,
}

/// The `status` column of a game that goes on.
const ONGOING: &str = "ongoing";

/// `white` / `black`.
fn side_word(side: Option<Side>) -> Option<String> {
    side.map(|s| s.name().to_string())
}

impl Words {
    /// The typed values' words, to write.
    pub(crate) fn of(row: &GameRow) -> Words {
        let (ai_level, ai_side) = match row.mode {
            Mode::Ai { level, ai_side } => (Some(level), side_word(Some(ai_side))),
            _ => (None, None),
        };
        Words {
            mode: row.mode.name().to_string(),
            ai_level,
            ai_side,
            result: row.end.map(|e| e.outcome.token().to_string()),
            reason: row.end.map(|e| e.reason.to_string()),
            draw_offer: side_word(row.draw_offer),
            takeback: side_word(row.takeback),
            status: row.finished.map_or(ONGOING, Outcome::token).to_string(),
            rematch_offer: side_word(row.rematch_offer),
        }
    }

    /// Sets `row`'s typed values from the words read; a word that means
    /// nothing is a [corrupt](StoreError::corrupt) game, named with the
    /// column and what it holds.
    pub(crate) fn read_into(self, row: &mut GameRow) -> Result<(), StoreError> {
        let id = row.id.clone();
        let bad = |column: &str, text: &str| {
            StoreError::corrupt(&id, format!("the column {column} holds {text:?}"))
        };
        let side = |column: &str, text: Option<String>| match text.as_deref() {
            None => Ok(None),
            Some(word) => Side::from_name(word)
                .map(Some)
                .ok_or_else(|| bad(column, word)),
        };
        row.mode = match self.mode.as_str() {
            // The first releases' rows read as they did then: a missing
            // level is 4, a missing side Black.
            "ai" => Mode::Ai {
                level: self.ai_level.unwrap_or(4),
                ai_side: side("ai_side", self.ai_side)?.unwrap_or(Side::Black),
            },
            "hotseat" => Mode::Hotseat,
            "online" => Mode::Online,
            other => return Err(bad("mode", other)),
        };
        row.end = match (self.result, self.reason) {
            (None, _) => None,
            (Some(result), reason) => {
                let reason = match reason {
                    // A result stored without its reason stands as recorded.
                    None => EndReason::Recorded,
                    Some(word) => EndReason::parse(&word).ok_or_else(|| bad("reason", &word))?,
                };
                // `*` ends a game only as an abort, and an abort only so.
                let aborted = matches!(reason, EndReason::Aborted(_));
                let outcome = Outcome::from_token(&result)
                    .filter(|o| (*o == Outcome::Unfinished) == aborted)
                    .ok_or_else(|| bad("result", &result))?;
                Some(End { outcome, reason })
            }
        };
        row.draw_offer = side("draw_offer", self.draw_offer)?;
        row.takeback = side("takeback", self.takeback)?;
        row.rematch_offer = side("rematch_offer", self.rematch_offer)?;
        let aborted = matches!(row.end, Some(e) if matches!(e.reason, EndReason::Aborted(_)));
        row.finished = match self.status.as_str() {
            ONGOING => None,
            token => Some(
                Outcome::from_token(token)
                    .filter(|o| (*o == Outcome::Unfinished) == aborted)
                    .ok_or_else(|| bad("status", token))?,
            ),
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_word() {
        let reasons = [
            EndReason::Agreement,
            EndReason::Recorded,
            EndReason::Resignation(Side::White),
            EndReason::Resignation(Side::Black),
            EndReason::Time(Side::White),
            EndReason::Time(Side::Black),
            EndReason::Abandonment(Side::White),
            EndReason::Abandonment(Side::Black),
            EndReason::Aborted(Side::White),
            EndReason::Aborted(Side::Black),
        ];
        for reason in reasons {
            assert_eq!(EndReason::parse(&reason.to_string()), Some(reason));
        }
        assert_eq!(EndReason::Time(Side::Black).to_string(), "time:black");
        assert_eq!(
            EndReason::Resignation(Side::White).outcome(),
            Some(Outcome::BlackWins)
        );
        for word in [
            "",
            "resignation",
            "resignation:",
            "time:red",
            "agreement:white",
            "Agreement",
            "aborted",
        ] {
            assert_eq!(EndReason::parse(word), None, "{word:?}");
        }
    }

    #[test]
    fn typed_values_survive_their_words() {
        let row = GameRow {
            id: "g1".into(),
            mode: Mode::Ai {
                level: 7,
                ai_side: Side::White,
            },
            end: Some(End {
                outcome: Outcome::WhiteWins,
                reason: EndReason::Time(Side::Black),
            }),
            draw_offer: Some(Side::Black),
            takeback: Some(Side::White),
            finished: Some(Outcome::WhiteWins),
            rematch_offer: Some(Side::White),
            ..GameRow::default()
        };
        let mut back = GameRow {
            id: "g1".into(),
            ..GameRow::default()
        };
        Words::of(&row).read_into(&mut back).unwrap();
        assert_eq!(back, row);
        let words = Words::of(&row);
        assert_eq!(
            (
                words.mode.as_str(),
                words.ai_side.as_deref(),
                words.status.as_str()
            ),
            ("ai", Some("white"), "1-0")
        );
    }

    #[test]
    fn an_aborted_game_is_over_with_no_result() {
        let row = GameRow {
            id: "g2".into(),
            mode: Mode::Online,
            end: End::by(EndReason::Aborted(Side::Black)),
            finished: Some(Outcome::Unfinished),
            ..GameRow::default()
        };
        let words = Words::of(&row);
        assert_eq!(
            (
                words.result.as_deref(),
                words.reason.as_deref(),
                words.status.as_str()
            ),
            (Some("*"), Some("aborted:black"), "*")
        );
        assert_eq!(EndReason::Aborted(Side::Black).loser(), None);
        let mut back = GameRow {
            id: "g2".into(),
            ..GameRow::default()
        };
        words.read_into(&mut back).unwrap();
        assert_eq!(back, row);
        // `*` with any other reason, or an abort with a result, is corrupt.
        let mut words = Words::of(&row);
        words.reason = Some("resignation:black".into());
        assert!(words.read_into(&mut GameRow::default()).is_err());
        let mut words = Words::of(&row);
        words.result = Some("1-0".into());
        assert!(words.read_into(&mut GameRow::default()).is_err());
    }

    #[test]
    fn a_word_that_means_nothing_names_the_game_and_column() {
        type Spoil = fn(&mut Words);
        let cases: [(&str, Spoil); 5] = [
            ("mode", |w| w.mode = "chess".into()),
            ("draw_offer", |w| w.draw_offer = Some("red".into())),
            ("reason", |w| {
                w.result = Some("1-0".into());
                w.reason = Some("boredom".into());
            }),
            ("result", |w| w.result = Some("*".into())),
            ("status", |w| w.status = "paused".into()),
        ];
        for (column, spoil) in cases {
            let mut words = Words::of(&GameRow::default());
            spoil(&mut words);
            let mut row = GameRow {
                id: "g9".into(),
                ..GameRow::default()
            };
            let e = words.read_into(&mut row).unwrap_err();
            assert_eq!(e.kind(), crate::ErrorKind::Corrupt);
            let text = e.to_string();
            assert!(text.contains("g9") && text.contains(column), "{text}");
        }
    }

    #[test]
    fn the_first_releases_rows_read_as_then() {
        let mut words = Words::of(&GameRow::default());
        words.mode = "ai".into();
        words.result = Some("0-1".into());
        let mut row = GameRow::default();
        words.read_into(&mut row).unwrap();
        assert_eq!(
            row.mode,
            Mode::Ai {
                level: 4,
                ai_side: Side::Black
            }
        );
        assert_eq!(
            row.end,
            Some(End {
                outcome: Outcome::BlackWins,
                reason: EndReason::Recorded
            })
        );
    }
}
