//! A game on the server: its seats, whose turn it is, offers, the result
//! and the record (its JSON view is `view.rs`), and why it refuses a change
//! (`GameError`). No I/O here: the caller stores a changed game and tells
//! the watchers.

pub mod chat;
mod clock;
mod error;
#[cfg(test)]
mod rules_tests;

pub(crate) use clock::after_flag;
pub use error::{code_point, GameError, NameChar, Offer, Over};

use punct_core::{Game, Move, Outcome, Position, Record, Side, Status};
pub use punct_store::{End, EndReason, GameRow, Mode};

/// What a deleted account's seats and profile show as its name.
pub const DELETED_NAME: &str = "deleted";

/// A signed-in player taking a seat: the account's id and user name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub name: String,
}

/// How a game ended off the board, in English ("white resigns", "White
/// ran out of time").
pub fn end_text(end: End) -> String {
    let capital = |side: Side| match side {
        Side::White => "White",
        Side::Black => "Black",
    };
    match end.reason {
        EndReason::Resignation(side) => format!("{side} resigns"),
        EndReason::Agreement => "drawn by agreement".to_string(),
        EndReason::Time(side) => format!("{} ran out of time", capital(side)),
        EndReason::Abandonment(side) => format!("{} left the game", capital(side)),
        EndReason::Recorded => format!("result {} as recorded", end.outcome.token()),
        EndReason::Aborted(side) => format!("{side} aborted the game"),
    }
}

/// A game may be aborted while fewer plies than this have been played:
/// until each side has moved once.
pub const ABORT_PLIES: usize = 2;

/// A word for the players that is not stored (the AI declining a draw, a
/// player joining): a client says it in its own language by its code
/// (`game.notice.<code>`) with the side it names; `text()` is the English.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// This side's player has claimed their seat.
    Joined(Side),
    AiDeclinesDraw,
    DrawDeclined(Side),
    TakebackDeclined(Side),
    RematchDeclined(Side),
    /// The AI's move could not be saved; it tries again shortly.
    AiNotSaved,
    /// The AI's search failed; it tries again shortly.
    AiNoMove,
    /// The AI's queue was full; it tries again shortly.
    AiBusy,
}

impl Notice {
    /// One of each (a side where it names one), for checking that every
    /// code has a text.
    pub const ALL: [Notice; 8] = [
        Notice::Joined(Side::White),
        Notice::AiDeclinesDraw,
        Notice::DrawDeclined(Side::White),
        Notice::TakebackDeclined(Side::White),
        Notice::RematchDeclined(Side::White),
        Notice::AiNotSaved,
        Notice::AiNoMove,
        Notice::AiBusy,
    ];

    /// The stable code clients word it by.
    pub fn code(self) -> &'static str {
        match self {
            Notice::Joined(_) => "joined",
            Notice::AiDeclinesDraw => "ai_declines_draw",
            Notice::DrawDeclined(_) => "draw_declined",
            Notice::TakebackDeclined(_) => "takeback_declined",
            Notice::RematchDeclined(_) => "rematch_declined",
            Notice::AiNotSaved => "ai_not_saved",
            Notice::AiNoMove => "ai_no_move",
            Notice::AiBusy => "ai_busy",
        }
    }

    /// The side it is about, if any.
    pub fn side(self) -> Option<Side> {
        match self {
            Notice::Joined(side)
            | Notice::DrawDeclined(side)
            | Notice::TakebackDeclined(side)
            | Notice::RematchDeclined(side) => Some(side),
            _ => None,
        }
    }

    /// The notice in English.
    pub fn text(self) -> String {
        match self {
            Notice::Joined(side) => format!("{} has joined", side.name()),
            Notice::AiDeclinesDraw => "the AI declines the draw".into(),
            Notice::DrawDeclined(side) => format!("{} declines the draw", side.name()),
            Notice::TakebackDeclined(side) => format!("{} declines the takeback", side.name()),
            Notice::RematchDeclined(side) => format!("{} declines the rematch", side.name()),
            Notice::AiNotSaved => {
                "the AI's move could not be saved; it will try again shortly".into()
            }
            Notice::AiNoMove => "the AI failed to find a move; it will try again shortly".into(),
            Notice::AiBusy => "the AI is too busy to answer now; it will try again shortly".into(),
        }
    }
}

/// What a player does about a draw offer, a takeback request or a
/// rematch offer (a request's `action`, read by [`Request::action`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Offer a draw or a rematch, ask for a takeback.
    Propose,
    Accept,
    Decline,
}

/// The three things that wait for the other player's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    Draw,
    Takeback,
    Rematch,
}

impl Request {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Request::Draw => "draw",
            Request::Takeback => "takeback",
            Request::Rematch => "rematch",
        }
    }

    /// The actions' words: `offer` (`request` for a takeback), `accept`,
    /// `decline`.
    pub(crate) fn actions(self) -> &'static str {
        match self {
            Request::Draw | Request::Rematch => "offer, accept or decline",
            Request::Takeback => "request, accept or decline",
        }
    }

    /// Reads a request's `action` word.
    pub fn action(self, text: &str) -> Result<Action, GameError> {
        let propose = match self {
            Request::Takeback => "request",
            Request::Draw | Request::Rematch => "offer",
        };
        match text {
            "accept" => Ok(Action::Accept),
            "decline" => Ok(Action::Decline),
            word if word == propose => Ok(Action::Propose),
            other => Err(GameError::BadAction {
                request: self,
                action: other.to_string(),
            }),
        }
    }
}

/// A game being played or looked at: the stored row and the replayed game.
#[derive(Clone)]
pub struct LiveGame {
    pub row: GameRow,
    pub game: Game,
    /// A word for the players that is not stored (the AI declining a draw).
    pub notice: Option<Notice>,
    /// An AI job (queued or running) will answer this game: set and
    /// cleared by the AI's scheduler (ai.rs), not stored.
    pub ai_queued: bool,
    /// Another instance sharing the database holds the AI's move (jobs.rs):
    /// the game shows the AI thinking though no job here answers it. Not
    /// stored.
    pub ai_elsewhere: bool,
    /// The rematch this change starts (rematch.rs): stored with the
    /// change, in one transaction, which also links this game to it
    /// (`row.rematch`). Not stored itself.
    pub rematch_new: Option<GameRow>,
    /// Which seats (by `Side::index`) a bot account holds: shown with the
    /// players. Read from the accounts when the game is loaded (an account
    /// becomes a bot only before its first game, so it never changes
    /// during one); not stored with the game.
    pub bots: [bool; 2],
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl LiveGame {
    /// A new game; `row` holds its metadata with no moves.
    pub fn new(row: GameRow, start: Position) -> Result<LiveGame, String> {
        let mut g = LiveGame::from_row(GameRow {
            moves: String::new(),
            ..row
        })?;
        g.game = Game::from_position(start);
        g.sync_row();
        Ok(g)
    }

    /// Rebuilds a stored game by replaying its moves.
    pub fn from_row(row: GameRow) -> Result<LiveGame, String> {
        let start = Position::from_position_string(&row.start)
            .map_err(|e| format!("game {}: start position: {e}", row.id))?;
        let moves = punct_core::parse_moves(&row.moves)
            .map_err(|(i, e)| format!("game {}: move {i}: {e}", row.id))?;
        let game =
            Game::replay(start, &moves).map_err(|e| format!("game {}: replay: {e}", row.id))?;
        Ok(LiveGame {
            row,
            game,
            notice: None,
            ai_queued: false,
            ai_elsewhere: false,
            rematch_new: None,
            bots: [false; 2],
        })
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn is_over(&self) -> bool {
        self.row.end.is_some() || self.position().status().is_over()
    }

    /// The side the AI plays, in a game against it.
    pub fn ai_side(&self) -> Option<Side> {
        self.row.mode.ai_side()
    }

    /// Whether the AI should move now.
    pub fn ai_to_move(&self) -> bool {
        !self.is_over() && self.ai_side() == Some(self.position().side_to_move())
    }

    /// The outcome: how it ended off the board (resignation, agreement,
    /// flag, abandonment, record) or what the position shows.
    pub fn outcome(&self) -> Outcome {
        match self.row.end {
            Some(end) => end.outcome,
            None => Outcome::from_status(self.position().status()),
        }
    }

    /// Ends the game off the board for `reason`, which names its outcome
    /// (a record's stated result is stored as read, in create.rs): offers
    /// and requests lapse.
    pub(crate) fn end(&mut self, reason: EndReason) {
        let Some(end) = End::by(reason) else {
            return;
        };
        self.row.end = Some(end);
        self.row.draw_offer = None;
        self.row.takeback = None;
        self.notice = None;
        self.changed();
    }

    /// Brings the stored row's derived fields up to date after a change.
    fn sync_row(&mut self) {
        self.row.moves = self
            .game
            .moves()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        self.row.plies = self.game.len() as i64;
        self.row.finished = self.is_over().then(|| self.outcome());
    }

    /// Marks a change: new version, time and derived fields.
    pub(crate) fn changed(&mut self) {
        self.row.version += 1;
        self.row.updated = now_ms().max(self.row.updated);
        self.sync_row();
        // Start or stop the clock as the game now needs (clock.rs).
        self.sync_clock();
    }

    /// The seats `token` holds (both in a hot-seat game).
    pub fn seats(&self, token: &str) -> Vec<Side> {
        let holds = |t: &Option<String>| t.as_deref().is_some_and(|t| constant_eq(t, token));
        let mut v = Vec::new();
        if holds(&self.row.white_token) {
            v.push(Side::White);
        }
        if holds(&self.row.black_token) {
            v.push(Side::Black);
        }
        v
    }

    /// The seats account `user` holds here and their token: a signed-in
    /// player's seat on a device that does not keep the token. `None` when
    /// no seat is theirs.
    pub fn account_seat(&self, user: &str) -> Option<(Vec<Side>, String)> {
        let theirs = |u: &Option<String>, t: &Option<String>| {
            if u.as_deref() == Some(user) {
                t.clone()
            } else {
                None
            }
        };
        let token = theirs(&self.row.white_user, &self.row.white_token)
            .or_else(|| theirs(&self.row.black_user, &self.row.black_token))?;
        Some((self.seats(&token), token))
    }

    /// The one side `token` acts for: its seat, or with both seats (hot
    /// seat) `prefer`.
    fn acting_side(&self, token: &str, prefer: Side) -> Result<Side, GameError> {
        match self.seats(token).as_slice() {
            [] => Err(GameError::NoSeat),
            [one] => Ok(*one),
            _ => Ok(prefer),
        }
    }

    /// The online seat still waiting for its player (its token is made
    /// only when someone claims it with the invite code).
    pub fn invite_open(&self) -> Option<Side> {
        if self.row.mode != Mode::Online || self.row.invite.is_none() {
            return None;
        }
        if self.row.white_token.is_none() {
            Some(Side::White)
        } else if self.row.black_token.is_none() {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// Offers and requests need someone to answer them.
    fn ensure_opponent(&self) -> Result<(), GameError> {
        match self.invite_open() {
            Some(side) => Err(GameError::NoOpponent { side, leave: false }),
            None => Ok(()),
        }
    }

    /// Gives the waiting online seat to whoever brings its invite `code`:
    /// the seat's token becomes `token` and the invite is used up.
    pub fn claim(
        &mut self,
        code: &str,
        token: String,
        name: Option<String>,
        account: Option<&Account>,
    ) -> Result<Side, GameError> {
        let (Some(side), Some(invite)) = (self.invite_open(), self.row.invite.as_deref()) else {
            return Err(GameError::InviteUsed);
        };
        if !constant_eq(invite, code) {
            return Err(GameError::BadInvite);
        }
        if self.is_over() {
            return Err(GameError::Over(Over::BeforeJoined));
        }
        if let Some(account) = account {
            if self.user(side.opponent()) == Some(account.id.as_str()) && self.row.rated {
                return Err(GameError::OwnGame);
            }
        } else if self.row.rated {
            return Err(GameError::RatedNeedsAccount);
        }
        *self.token_mut(side) = Some(token);
        if name.is_some() {
            *self.name_mut(side) = name;
        }
        if let Some(account) = account {
            self.seat_account(side, account);
        }
        self.row.invite = None;
        self.notice = Some(Notice::Joined(side));
        self.changed();
        Ok(side)
    }

    /// Replaces the waiting seat's invite code by `code`, for the holder of
    /// `token` (the creator: nobody else holds a seat yet), so that an
    /// invite that went to the wrong person stops working. Answers the
    /// waiting side.
    pub fn renew_invite(&mut self, token: &str, code: String) -> Result<Side, GameError> {
        if self.seats(token).is_empty() {
            return Err(GameError::NoSeat);
        }
        let Some(side) = self.invite_open() else {
            return Err(GameError::NoInvite {
                online: self.row.mode == Mode::Online,
            });
        };
        // Nobody could claim it: a claim after the end is refused.
        self.ensure_not_over()?;
        self.row.invite = Some(code);
        self.notice = None;
        self.changed();
        Ok(side)
    }

    /// The account holding `side`'s seat, if any.
    pub fn user(&self, side: Side) -> Option<&str> {
        match side {
            Side::White => self.row.white_user.as_deref(),
            Side::Black => self.row.black_user.as_deref(),
        }
    }

    /// Gives `side`'s seat to `account`: the seat shows its name.
    pub fn seat_account(&mut self, side: Side, account: &Account) {
        let (user, name) = match side {
            Side::White => (&mut self.row.white_user, &mut self.row.white_name),
            Side::Black => (&mut self.row.black_user, &mut self.row.black_name),
        };
        *user = Some(account.id.clone());
        *name = Some(account.name.clone());
    }

    /// Gives the seats `token` holds that no account holds yet to
    /// `account` (a player who played signed out, then signed up or in);
    /// answers the seats given. A hot seat's two seats stay with nobody:
    /// they are one screen's, not one player's.
    pub fn attach(&mut self, token: &str, account: &Account) -> Result<Vec<Side>, GameError> {
        let seats = self.seats(token);
        if seats.is_empty() {
            return Err(GameError::NoSeat);
        }
        if self.row.mode == Mode::Hotseat {
            return Ok(Vec::new());
        }
        let free: Vec<Side> = seats
            .into_iter()
            .filter(|&s| self.user(s).is_none())
            .collect();
        for &side in &free {
            self.seat_account(side, account);
        }
        if !free.is_empty() {
            self.changed();
        }
        Ok(free)
    }

    /// The seats of a deleted account show "deleted" (the account stays
    /// linked, so its games stay on its profile's address). Answers
    /// whether a seat was the account's.
    pub fn forget_account(&mut self, user: &str) -> bool {
        let mut changed = false;
        for side in [Side::White, Side::Black] {
            if self.user(side) == Some(user) {
                *self.name_mut(side) = Some(DELETED_NAME.to_string());
                changed = true;
            }
        }
        if changed {
            self.changed();
        }
        changed
    }

    /// The stored display name of `side`'s player.
    fn name_mut(&mut self, side: Side) -> &mut Option<String> {
        match side {
            Side::White => &mut self.row.white_name,
            Side::Black => &mut self.row.black_name,
        }
    }

    /// What to call `side`'s player: the name they chose, the AI's level,
    /// or `None` for a person who gave no name.
    pub fn player_name(&self, side: Side) -> Option<String> {
        match self.row.mode {
            Mode::Ai { level, ai_side } if ai_side == side => Some(ai_name(level)),
            _ => match side {
                Side::White => self.row.white_name.clone(),
                Side::Black => self.row.black_name.clone(),
            },
        }
    }

    /// Sets the display name of the seats `token` holds (both at a hot
    /// seat: then `side` says which; `None` for both).
    pub fn set_name(
        &mut self,
        token: &str,
        side: Option<Side>,
        name: Option<String>,
    ) -> Result<(), GameError> {
        let seats = self.seats(token);
        if seats.is_empty() {
            return Err(GameError::NoSeat);
        }
        let targets: Vec<Side> = match side {
            Some(s) if seats.contains(&s) => vec![s],
            Some(s) => return Err(GameError::NotSeatOf(s)),
            None => seats,
        };
        if let Some(&s) = targets.iter().find(|&&s| self.user(s).is_some()) {
            return Err(GameError::AccountName(s));
        }
        for s in targets {
            *self.name_mut(s) = name.clone();
        }
        self.changed();
        Ok(())
    }

    /// The stored token of `side`'s seat.
    fn token_mut(&mut self, side: Side) -> &mut Option<String> {
        match side {
            Side::White => &mut self.row.white_token,
            Side::Black => &mut self.row.black_token,
        }
    }

    /// Replaces the token `old` by `new` in every seat it holds (both at a
    /// hot seat), so that a link that leaked stops working. Allowed at any
    /// time, also after the game ended.
    pub fn renew_token(&mut self, old: &str, new: String) -> Result<Vec<Side>, GameError> {
        let seats = self.seats(old);
        if seats.is_empty() {
            return Err(GameError::NoSeat);
        }
        for &side in &seats {
            *self.token_mut(side) = Some(new.clone());
        }
        self.changed();
        Ok(seats)
    }

    fn ensure_not_over(&self) -> Result<(), GameError> {
        if self.is_over() {
            Err(GameError::Over(Over::Ended))
        } else {
            Ok(())
        }
    }

    /// Which side played ply `i` (0-based) of this game.
    fn mover_of(&self, i: usize) -> Side {
        let first = self.game.start().side_to_move();
        if i.is_multiple_of(2) {
            first
        } else {
            first.opponent()
        }
    }

    /// Plays `text` for the holder of `token`. `expected_ply`, when given,
    /// must be the number of plies played so far (a guard against moving
    /// on a position the client no longer shows).
    pub fn play(
        &mut self,
        token: &str,
        text: &str,
        expected_ply: Option<usize>,
    ) -> Result<(), GameError> {
        self.ensure_not_over()?;
        let side = self.position().side_to_move();
        let seats = self.seats(token);
        if seats.is_empty() {
            return Err(GameError::NoSeat);
        }
        if !seats.contains(&side) {
            return Err(GameError::NotYourTurn {
                side,
                waiting: self.invite_open() == Some(side),
            });
        }
        if let Some(ply) = expected_ply {
            if ply != self.game.len() {
                return Err(GameError::Stale {
                    ply,
                    plies: self.game.len(),
                });
            }
        }
        let mv: Move = text
            .trim()
            .parse()
            .map_err(|e: punct_core::ParseMoveError| GameError::BadMove {
                text: text.trim().to_string(),
                why: e.to_string(),
            })?;
        self.game
            .play(mv)
            .map_err(|reason| GameError::Illegal(mv, reason))?;
        // The time used is charged; out of time, the move is refused.
        if let Err(e) = self.clock_move(side) {
            self.game.undo();
            return Err(e);
        }
        if self.row.draw_offer == Some(side.opponent()) {
            // Playing on declines the opponent's offer.
            self.row.draw_offer = None;
        }
        self.row.takeback = None;
        self.notice = None;
        self.changed();
        Ok(())
    }

    /// The AI plays `mv` (already checked legal by the caller's search).
    pub fn play_ai(&mut self, mv: Move) -> Result<(), String> {
        let side = self.position().side_to_move();
        self.game
            .play(mv)
            .map_err(|e| format!("the AI chose an illegal move `{mv}`: {e}"))?;
        if self.clock_move(side).is_err() {
            // Its flag fell first: the game ends on time instead.
            self.game.undo();
            self.flag(side);
            return Ok(());
        }
        self.row.draw_offer = None;
        self.row.takeback = None;
        self.notice = None;
        self.changed();
        Ok(())
    }

    /// Whether the game may still be aborted (see [`LiveGame::abort`]).
    pub fn abortable(&self) -> bool {
        !self.is_over() && self.game.len() < ABORT_PLIES
    }

    /// The holder of `token` aborts the game: allowed in every mode until
    /// each side has moved once (against the AI and at one screen too,
    /// as a player expects of a game hardly begun, and while an online
    /// seat still waits for its player). It ends with no result, which no
    /// rating and no record of wins counts.
    pub fn abort(&mut self, token: &str) -> Result<(), GameError> {
        self.ensure_not_over()?;
        let side = self.acting_side(token, self.position().side_to_move())?;
        let plies = self.game.len();
        if plies >= ABORT_PLIES {
            return Err(GameError::TooLateToAbort { plies });
        }
        self.end(EndReason::Aborted(side));
        Ok(())
    }

    pub fn resign(&mut self, token: &str) -> Result<(), GameError> {
        self.ensure_not_over()?;
        let side = self.acting_side(token, self.position().side_to_move())?;
        self.end(EndReason::Resignation(side));
        Ok(())
    }

    /// Offers, accepts or declines a draw. Against the AI an offer is
    /// answered at once: accepted when the AI judges its own position bad.
    pub fn draw(&mut self, token: &str, action: Action) -> Result<(), GameError> {
        self.ensure_not_over()?;
        let offered_by = self.row.draw_offer;
        match action {
            Action::Propose => {
                let side = self.acting_side(token, self.position().side_to_move())?;
                self.ensure_opponent()?;
                if offered_by == Some(side.opponent()) {
                    return self.agree_draw();
                }
                if let Some(ai) = self.ai_side() {
                    // Clearly behind in the race (three cells or more).
                    if punct_engine::evaluate(self.position(), ai) <= -30 {
                        return self.agree_draw();
                    }
                    self.notice = Some(Notice::AiDeclinesDraw);
                    self.changed();
                    return Ok(());
                }
                self.row.draw_offer = Some(side);
                self.notice = None;
                self.changed();
                Ok(())
            }
            Action::Accept | Action::Decline => {
                let Some(offerer) = offered_by else {
                    return Err(GameError::NoOffer(Offer::Draw));
                };
                let side = self.acting_side(token, offerer.opponent())?;
                if side == offerer {
                    return Err(GameError::OwnOffer(Offer::Draw));
                }
                if action == Action::Accept {
                    self.agree_draw()
                } else {
                    self.row.draw_offer = None;
                    self.notice = Some(Notice::DrawDeclined(side));
                    self.changed();
                    Ok(())
                }
            }
        }
    }

    fn agree_draw(&mut self) -> Result<(), GameError> {
        self.end(EndReason::Agreement);
        Ok(())
    }

    /// Asks for, accepts or declines a takeback. Against the AI and at
    /// one screen a request is granted at once.
    pub fn takeback(&mut self, token: &str, action: Action) -> Result<(), GameError> {
        if self.row.end.is_some() {
            return Err(GameError::Over(Over::ByResultOrAgreement));
        }
        if self.row.rematch.is_some() {
            // The players have gone on to the rematch, which the pages
            // follow: the old game stays ended.
            return Err(GameError::Over(Over::RematchBegun));
        }
        let requested_by = self.row.takeback;
        match action {
            Action::Propose => {
                let side = match self.row.mode {
                    // At one screen the last move is taken back, whoever made it.
                    Mode::Hotseat => self.acting_side(
                        token,
                        self.game
                            .len()
                            .checked_sub(1)
                            .map_or(Side::White, |i| self.mover_of(i)),
                    )?,
                    _ => self.acting_side(token, self.position().side_to_move())?,
                };
                self.ensure_opponent()?;
                if !self.has_moved(side) {
                    return Err(GameError::NothingToTakeBack(side));
                }
                match self.row.mode {
                    // Against an AI level the takeback is granted at
                    // once: in a rated game that would be a free retry.
                    Mode::Ai { .. } if self.row.rated => Err(GameError::RatedTakeback),
                    Mode::Ai { .. } | Mode::Hotseat => {
                        self.undo_last_move_of(side);
                        Ok(())
                    }
                    Mode::Online => {
                        if requested_by == Some(side.opponent()) {
                            return Err(GameError::PendingRequest);
                        }
                        self.row.takeback = Some(side);
                        self.notice = None;
                        self.changed();
                        Ok(())
                    }
                }
            }
            Action::Accept | Action::Decline => {
                let Some(requester) = requested_by else {
                    return Err(GameError::NoRequest);
                };
                let side = self.acting_side(token, requester.opponent())?;
                if side == requester {
                    return Err(GameError::OwnRequest);
                }
                if action == Action::Accept {
                    self.undo_last_move_of(requester);
                } else {
                    self.row.takeback = None;
                    self.notice = Some(Notice::TakebackDeclined(side));
                    self.changed();
                }
                Ok(())
            }
        }
    }

    fn has_moved(&self, side: Side) -> bool {
        (0..self.game.len()).any(|i| self.mover_of(i) == side)
    }

    /// Takes back moves until `side`'s last move is undone.
    fn undo_last_move_of(&mut self, side: Side) {
        // The clock restarts for the side then to move (clock.rs).
        self.pause_clock();
        while let Some(i) = self.game.len().checked_sub(1) {
            self.game.undo();
            if self.mover_of(i) == side {
                break;
            }
        }
        self.row.takeback = None;
        self.row.draw_offer = None;
        // A game taken back from its end goes on: its analysis and any
        // rematch offer belonged to the ended game.
        self.row.review = None;
        self.row.rematch_offer = None;
        self.notice = None;
        self.changed();
    }

    /// An imported record's own tags (`None` for games begun here).
    pub fn imported_tags(&self) -> Option<Vec<(String, String)>> {
        if !self.row.imported {
            return None;
        }
        serde_json::from_str(self.row.tags.as_deref()?).ok()
    }

    /// The game as a record, with its result. An imported game keeps the
    /// tags of the record it came from (who played, where, when) instead
    /// of this server's, plus `Imported` with the date of the import.
    pub fn record(&self) -> String {
        let date = date_tag(self.row.created);
        let mut rec = match self.imported_tags() {
            Some(tags) => {
                // What the game itself decides is written from the game.
                const DERIVED: [&str; 6] = [
                    "Variant",
                    "Position",
                    "Result",
                    "Termination",
                    "GameId",
                    "Imported",
                ];
                let own: Vec<(&str, &str)> = tags
                    .iter()
                    .filter(|(n, _)| !DERIVED.iter().any(|d| d.eq_ignore_ascii_case(n)))
                    .map(|(n, v)| (n.as_str(), v.as_str()))
                    .collect();
                let mut rec = Record::from_game(&self.game, &own);
                rec.set_tag("Imported", &date);
                rec
            }
            None => {
                // PGN writes an unknown player as `?`.
                let names = |side: Side| self.player_name(side).unwrap_or_else(|| "?".into());
                let (white, black) = (names(Side::White), names(Side::Black));
                Record::from_game(
                    &self.game,
                    &[
                        ("Event", "punct serve game"),
                        ("Site", "punct serve"),
                        ("Date", &date),
                        ("White", &white),
                        ("Black", &black),
                    ],
                )
            }
        };
        rec.set_tag("GameId", &self.row.id);
        if let Some(tc) = self.time_control() {
            rec.set_tag("TimeControl", &tc.tag());
        }
        if self.row.assisted {
            // The engine's hints were used during the game.
            rec.set_tag("Assisted", "yes");
        }
        if let Some(end) = self.row.end {
            rec.outcome = end.outcome;
            rec.set_tag("Result", end.outcome.token());
            rec.set_tag("Termination", &end.reason.to_string());
        }
        rec.to_text()
    }
}

/// Whether an imported record's result may stand, and what to store for
/// it. A result the moves show needs nothing stored (`Ok(None)`); one they
/// do not show stands only as a resignation, agreement, flag fall or
/// abandonment the record states in its `Termination` tag
/// (`resignation:white`, `resignation:black`, `agreement`, `time:white`,
/// `time:black`, `abandonment:white`, `abandonment:black`), with the result
/// that goes with it, or as an abort (`aborted:white`, `aborted:black`,
/// result `*`) before each side has moved. Anything else is
/// refused with a message naming the tag or result and why.
pub fn recorded_result(record: &Record, game: &Game) -> Result<Option<End>, String> {
    let status = game.position().status();
    let termination = record.tag("Termination").map(str::trim);
    // Every reason but `recorded`, which is ours for old rows, not a tag.
    let stated = termination
        .and_then(|t| EndReason::parse(&t.to_ascii_lowercase()))
        .and_then(|reason| Some((reason.outcome()?, reason)));
    let said = termination.unwrap_or_default();
    if status.is_over() {
        // `Record::replay` has checked that the result is the one shown.
        return match stated {
            Some(_) => Err(format!(
                "the Termination tag says `{said}`, but the moves end the game by themselves \
                 ({} {}): a finished game is not resigned, agreed, lost on time or \
                 abandoned",
                Outcome::from_status(status).token(),
                match status {
                    Status::Won(side) => format!("{side} wins"),
                    _ => "a draw".to_string(),
                }
            )),
            None => Ok(None),
        };
    }
    let result = record.outcome;
    match (result, stated) {
        (Outcome::Unfinished, None) => Ok(None),
        // An abort's `*`, before each side had moved.
        (Outcome::Unfinished, Some((Outcome::Unfinished, reason))) => {
            if game.len() < ABORT_PLIES {
                Ok(Some(End {
                    outcome: result,
                    reason,
                }))
            } else {
                Err(format!(
                    "the Termination tag says `{said}`, but {} plies were played: a game is \
                     aborted only before each side has moved",
                    game.len()
                ))
            }
        }
        (Outcome::Unfinished, Some((want, _))) => Err(format!(
            "the Termination tag says `{said}`, which ends the game {}, but the result is `*` \
             (unfinished)",
            want.token()
        )),
        (_, Some((want, reason))) if want == result => Ok(Some(End {
            outcome: result,
            reason,
        })),
        (_, Some((want, _))) => Err(format!(
            "the Termination tag says `{said}`, so the result must be `{}`, not `{}`",
            want.token(),
            result.token()
        )),
        (_, None) => {
            let tag = match termination {
                Some(t) => format!("the Termination tag `{t}` is none of them"),
                None => "the record has no Termination tag".to_string(),
            };
            Err(format!(
                "the result `{}` is not shown by the moves (the game is unfinished after \
                 them); a result that did not happen on the board needs a Termination tag \
                 `resignation:white`, `resignation:black`, `agreement`, `time:white`, \
                 `time:black`, `abandonment:white`, `abandonment:black`, `aborted:white` or \
                 `aborted:black`, and {tag}",
                result.token()
            ))
        }
    }
}

/// What the AI's seat is called in states, lists and records.
pub fn ai_name(level: u32) -> String {
    format!("PÜNCT AI level {level}")
}

/// The longest display name, in characters of its NFC form.
pub const NAME_MAX: usize = 40;

/// A display name from a request, as stored: in Unicode NFC (one name, one
/// form), trimmed; empty means none. At most [`NAME_MAX`] characters of
/// that form. Names go into states, lists and records' quoted tags, and
/// players tell each other apart by them, so a name may not hide what it
/// is: control characters, quotes and backslashes, bidi controls,
/// invisible and formatting characters, whitespace other than a plain
/// space and variation selectors that follow no visible character are
/// refused (naming the first one), never removed.
pub fn parse_name(name: Option<&str>) -> Result<Option<String>, GameError> {
    use unicode_normalization::UnicodeNormalization;
    let Some(name) = name else {
        return Ok(None);
    };
    let nfc: String = name.nfc().collect();
    let name = nfc.trim();
    if name.is_empty() {
        return Ok(None);
    }
    let chars = name.chars().count();
    if chars > NAME_MAX {
        return Err(GameError::NameTooLong(chars));
    }
    let mut after_visible = false;
    for c in name.chars() {
        if let Some(why) = name_char(c, after_visible) {
            return Err(GameError::NameCharacter(c, why));
        }
        after_visible = c != ' ' && !is_variation_selector(c);
    }
    Ok(Some(name.to_string()))
}

/// Why `c` may not be in a name (`after_visible`: it follows a visible
/// character), or `None`.
fn name_char(c: char, after_visible: bool) -> Option<NameChar> {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    Some(match c {
        c if c.is_control() => NameChar::Control,
        '"' | '\\' => NameChar::Quoting,
        '\u{061C}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}' => NameChar::Direction,
        ' ' => return None,
        c if c.is_whitespace() => NameChar::Space,
        // Letters and marks that show nothing: the Hangul fillers, the
        // combining grapheme joiner, Khmer's inherent vowels.
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{034F}' | '\u{17B4}'
        | '\u{17B5}' => NameChar::Invisible,
        c if c.general_category() == GeneralCategory::Format => NameChar::Invisible,
        // An emoji's or an ideograph's variant, but alone it shows nothing.
        c if is_variation_selector(c) && !after_visible => NameChar::Selector,
        _ => return None,
    })
}

/// The variation selectors (and Mongolian's free ones).
fn is_variation_selector(c: char) -> bool {
    matches!(
        c,
        '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' | '\u{180B}'..='\u{180D}' | '\u{180F}'
    )
}

/// Compares tokens in time independent of where they differ.
fn constant_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// `YYYY.MM.DD` of a time in milliseconds since 1970 (UTC).
fn date_tag(ms: i64) -> String {
    let (y, m, d) = crate::date::civil_from_days(ms.div_euclid(86_400_000));
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(date_tag(0), "1970.01.01");
        // 2026-11-22T12:00:00Z
        assert_eq!(date_tag(1_795_348_800_000), "2026.11.22");
        assert_eq!(date_tag(951_782_400_000), "2000.02.29");
    }

    /// What the live game says it waits for, in the job table's terms.
    fn waits_for(g: &LiveGame) -> Option<punct_store::JobKind> {
        use punct_store::JobKind;
        if g.ai_to_move() {
            Some(JobKind::Move)
        } else if g.is_over() && g.row.review.is_none() && !g.game.is_empty() {
            Some(JobKind::Review)
        } else {
            None
        }
    }

    #[test]
    fn the_job_read_off_a_stored_row_is_what_the_live_game_waits_for() {
        use punct_core::Variant;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut checked = [0usize; 3];
        for game_no in 0..40 {
            let mode = match game_no % 3 {
                0 => Mode::Ai {
                    level: 2,
                    ai_side: Side::White,
                },
                1 => Mode::Ai {
                    level: 2,
                    ai_side: Side::Black,
                },
                _ => Mode::Online,
            };
            let variant = if game_no % 2 == 0 {
                Variant::Standard
            } else {
                Variant::Basic
            };
            let start = Position::new(variant);
            let row = GameRow {
                id: format!("g{game_no}"),
                variant: variant.to_string(),
                mode,
                white_token: Some("w".into()),
                black_token: Some("b".into()),
                start: start.to_position_string(),
                ..GameRow::default()
            };
            let mut g = LiveGame::new(row, start).unwrap();
            loop {
                let expected = waits_for(&g);
                assert_eq!(punct_store::job_of(&g.row), expected, "{:?}", g.row);
                checked[expected.map_or(0, |k| k as usize + 1)] += 1;
                if g.is_over() {
                    // Reviewed, it waits for nothing.
                    g.row.review = Some("{}".into());
                    assert_eq!(punct_store::job_of(&g.row), None);
                    break;
                }
                // Some games end by resignation, mid-game.
                if g.game.len() > 4 && rng.random_range(0..60) == 0 {
                    let token = if g.position().side_to_move() == Side::White {
                        "w"
                    } else {
                        "b"
                    };
                    g.resign(token).unwrap();
                    continue;
                }
                let moves = g.position().legal_moves();
                let mv = moves[rng.random_range(0..moves.len())];
                g.play_ai(mv).unwrap();
            }
        }
        assert!(
            checked.iter().all(|&n| n > 20),
            "each case seen: {checked:?}"
        );
    }

    #[test]
    fn ends_read_as_words() {
        let end = |reason: EndReason| {
            end_text(End {
                outcome: reason.outcome().unwrap_or(Outcome::WhiteWins),
                reason,
            })
        };
        assert_eq!(end(EndReason::Time(Side::White)), "White ran out of time");
        assert_eq!(
            end(EndReason::Abandonment(Side::Black)),
            "Black left the game"
        );
        assert_eq!(end(EndReason::Resignation(Side::Black)), "black resigns");
        assert_eq!(end(EndReason::Agreement), "drawn by agreement");
        assert_eq!(end(EndReason::Recorded), "result 1-0 as recorded");
        let aborted = End::by(EndReason::Aborted(Side::White)).unwrap();
        assert_eq!(end_text(aborted), "white aborted the game");
    }

    #[test]
    fn tokens_compare_exactly() {
        assert!(constant_eq("abc", "abc"));
        assert!(!constant_eq("abc", "abd"));
        assert!(!constant_eq("abc", "abcd"));
    }
}
