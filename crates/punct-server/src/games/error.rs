//! Why a game refuses a change: one value per rule of the server's game,
//! with what the message names. The game knows no HTTP; `error.rs` maps
//! each to its status, code and parameters once.

use super::Request;
use punct_core::{IllegalMove, Move, Side};
use std::fmt;

/// What is waiting for an answer from the other player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    Draw,
    Rematch,
}

/// Why a character may not be in a display name (see [`super::parse_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameChar {
    /// A control character (general category Cc).
    Control,
    /// A quote or a backslash: names go into records' quoted tags.
    Quoting,
    /// A bidi control: the name would read differently from what it is.
    Direction,
    /// An invisible or formatting character (Cf, the Hangul fillers, the
    /// combining grapheme joiner): two names that look alike would differ.
    Invisible,
    /// Whitespace other than a plain space (U+0020).
    Space,
    /// A variation selector that follows no visible character.
    Selector,
}

/// Why the game is over for this request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// It has ended.
    Ended,
    /// It ended before its waiting seat was claimed.
    BeforeJoined,
    /// A resignation or an agreement cannot be taken back.
    ByResultOrAgreement,
    /// Its rematch has begun: the players have gone on to it.
    RematchBegun,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The token holds no seat in this game.
    NoSeat,
    /// The token holds a seat, not this side's.
    NotSeatOf(Side),
    /// `side`'s seat still waits for its player: nobody to answer
    /// (`leave`: to leave, for abandonment).
    NoOpponent {
        side: Side,
        leave: bool,
    },
    /// No seat waits for a player any more.
    InviteUsed,
    /// Not this game's invite code.
    BadInvite,
    Over(Over),
    /// `side`'s flag fell before this request.
    TimeOut(Side),
    /// It is `side`'s turn (`waiting`: and its player has not joined).
    NotYourTurn {
        side: Side,
        waiting: bool,
    },
    /// The move was made for another ply.
    Stale {
        ply: usize,
        plies: usize,
    },
    /// The text is not a move (the text, why).
    BadMove {
        text: String,
        why: String,
    },
    Illegal(Move, IllegalMove),
    NoOffer(Offer),
    OwnOffer(Offer),
    /// An action that is not one of `request`'s.
    BadAction {
        request: Request,
        action: String,
    },
    NothingToTakeBack(Side),
    /// The other player's takeback request comes first.
    PendingRequest,
    NoRequest,
    OwnRequest,
    /// A display name over 40 characters in NFC (how many).
    NameTooLong(usize),
    /// A display name with a character it may not have, and why not.
    NameCharacter(char, NameChar),
    /// There is no invite to renew: its seat has been claimed (`online`),
    /// or the game is not played online.
    NoInvite {
        online: bool,
    },
    /// A rematch is for games that have ended.
    GameOn,
    /// The rematch has begun: this game.
    RematchStarted(String),
    /// Abandonment is for online games: this mode's name.
    NotOnline(&'static str),
    /// Abandonment is for real-time clocks (`correspondence`: the game
    /// has a correspondence clock, else none).
    NoClock {
        correspondence: bool,
    },
    /// The opponent has not been away long enough: `gone_ms` (`None`:
    /// connected) of `after_ms`.
    NotAbandoned {
        opponent: Side,
        gone_ms: Option<i64>,
        after_ms: i64,
    },
    /// A rated game's seat is for a signed-in player.
    RatedNeedsAccount,
    /// The account holds the other seat already (a rated game against
    /// oneself).
    OwnGame,
    /// A seat held by an account shows the account's name.
    AccountName(Side),
    /// Moves are not taken back in a rated game against the AI.
    RatedTakeback,
    /// A phrase of the chat refused (`chat.rs`).
    Chat(super::chat::Refused),
    /// A game is aborted only before each side has moved: `plies` have
    /// been played.
    TooLateToAbort {
        plies: usize,
    },
}

impl GameError {
    /// Seconds of `after_ms`, rounded up (as the message says them).
    pub(crate) fn after_s(after_ms: i64) -> i64 {
        (after_ms + 999) / 1000
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use GameError::*;
        match self {
            NoSeat => write!(f, "this token holds no seat in this game"),
            NotSeatOf(side) => write!(f, "this token does not hold {side}'s seat"),
            NoOpponent { side, leave } => write!(
                f,
                "{side}'s player has not joined yet: there is nobody to {}",
                if *leave { "leave" } else { "answer" }
            ),
            InviteUsed => write!(
                f,
                "this invite has been used: no seat of this game is waiting for a player, \
                 but you can watch the game"
            ),
            BadInvite => write!(f, "this invite code is not the one of this game"),
            Over(self::Over::Ended) => write!(f, "the game is over"),
            Over(self::Over::BeforeJoined) => write!(
                f,
                "the game ended before anyone joined it; you can still watch it"
            ),
            Over(self::Over::ByResultOrAgreement) => write!(
                f,
                "a game ended by resignation or agreement cannot be taken back"
            ),
            Over(self::Over::RematchBegun) => {
                write!(f, "a game whose rematch has begun cannot be taken back")
            }
            TimeOut(side) => {
                let fell = super::End::by(super::EndReason::Time(*side))
                    .map(super::end_text)
                    .unwrap_or_default();
                write!(
                    f,
                    "{fell}: the flag fell before this request, and the game is over"
                )
            }
            NotYourTurn { side, waiting } => {
                write!(f, "it is {side}'s turn")?;
                if *waiting {
                    write!(f, ", and {side}'s player has not joined yet")?;
                }
                Ok(())
            }
            Stale { ply, plies } => write!(
                f,
                "the move was made for ply {ply}, but {plies} plies have been played"
            ),
            BadMove { why, .. } => write!(f, "{why}"),
            Illegal(mv, why) => write!(f, "{mv} is illegal: {why}"),
            NoOffer(Offer::Draw) => write!(f, "no draw has been offered"),
            NoOffer(Offer::Rematch) => write!(f, "no rematch has been offered to you"),
            OwnOffer(Offer::Draw) => write!(f, "the other player must answer your draw offer"),
            OwnOffer(Offer::Rematch) => write!(
                f,
                "you have offered a rematch already: the other player must answer"
            ),
            BadAction { request, action } => write!(
                f,
                "{action:?} is not a {} action: use {}",
                request.name(),
                request.actions()
            ),
            NothingToTakeBack(side) => write!(f, "{side} has no move to take back"),
            PendingRequest => write!(f, "answer the other player's takeback request first"),
            NoRequest => write!(f, "no takeback has been requested"),
            OwnRequest => write!(f, "the other player must answer your takeback request"),
            NameTooLong(chars) => write!(
                f,
                "the name has {chars} characters: at most {}",
                super::NAME_MAX
            ),
            NameCharacter(c, why) => {
                let shown = code_point(*c);
                match why {
                    NameChar::Control => write!(
                        f,
                        "the name may not contain {shown}: control characters, quotes and \
                         backslashes are not allowed"
                    ),
                    NameChar::Quoting => write!(
                        f,
                        "the name may not contain {shown} ({c}): control characters, quotes \
                         and backslashes are not allowed"
                    ),
                    NameChar::Direction => write!(
                        f,
                        "the name may not contain {shown}: characters that change the \
                         direction of text are not allowed"
                    ),
                    NameChar::Invisible => write!(
                        f,
                        "the name may not contain {shown}: invisible and formatting characters \
                         are not allowed"
                    ),
                    NameChar::Space => write!(
                        f,
                        "the name may not contain {shown}: the only space allowed is a plain \
                         space (U+0020)"
                    ),
                    NameChar::Selector => write!(
                        f,
                        "the name may not contain {shown} there: a variation selector must \
                         follow a visible character"
                    ),
                }
            }
            NoInvite { online: true } => write!(
                f,
                "there is no invite to renew: your opponent has claimed their seat"
            ),
            NoInvite { online: false } => {
                write!(f, "there is no invite to renew: only online games have one")
            }
            GameOn => write!(
                f,
                "the game is still being played: a rematch can be offered when it ends"
            ),
            RematchStarted(id) => write!(f, "the rematch has begun already: game {id}"),
            NotOnline(mode) => write!(
                f,
                "a win by abandonment can be claimed in online games only, not in a {mode} game"
            ),
            NoClock { correspondence } => write!(
                f,
                "a win by abandonment can be claimed in games with a real-time clock only; \
                 this game {}",
                if *correspondence {
                    "has a correspondence clock"
                } else {
                    "is untimed"
                }
            ),
            RatedTakeback => write!(f, "moves are not taken back in a rated game"),
            Chat(why) => write!(f, "{why}"),
            TooLateToAbort { plies } => write!(
                f,
                "{plies} plies have been played: a game can be aborted only before each side \
                 has moved; resign or offer a draw instead"
            ),
            RatedNeedsAccount => write!(
                f,
                "a rated game is played between accounts: sign in to take this seat"
            ),
            OwnGame => write!(f, "this account holds the other seat of this game already"),
            AccountName(side) => write!(
                f,
                "{side}'s seat belongs to an account and shows its user name"
            ),
            NotAbandoned {
                opponent,
                gone_ms: None,
                after_ms,
            } => write!(
                f,
                "{opponent}'s player is connected; the win can be claimed once they have been \
                 gone for {} s",
                GameError::after_s(*after_ms)
            ),
            NotAbandoned {
                opponent,
                gone_ms: Some(ms),
                after_ms,
            } => write!(
                f,
                "{opponent}'s player has been gone for {} s; the win can be claimed after {} s, \
                 in {} s",
                ms / 1000,
                GameError::after_s(*after_ms),
                GameError::after_s(after_ms - ms)
            ),
        }
    }
}

impl std::error::Error for GameError {}

/// A character as its code point, `U+202E`: safe to show whatever it is.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}
