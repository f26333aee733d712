//! Creating games: a new game's row (its mode, seats and tokens, the
//! invite, the creator's name, the clock), a game going on from an
//! imported record (only a result the moves show, or a resignation or
//! agreement the record states, is taken over), and storing it under a
//! fresh id — never over another game — with the AI's first move queued.
//! The handlers in `api/games.rs` read the requests and answer.

use crate::app::{new_token, App};
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::games::{now_ms, recorded_result, Account, LiveGame, Mode};
use crate::limits::ClientKey;
use punct_core::{Game, Position, Record, Side, Variant};
use punct_store::GameRow;
use rand::Rng;
use std::sync::Arc;

/// One seat of a game the lobby made: the token its player will hold,
/// their account (signed in) and display name.
pub(crate) struct Seat {
    pub(crate) token: String,
    pub(crate) account: Option<Account>,
    pub(crate) name: Option<String>,
    /// The account is a bot's.
    pub(crate) bot: bool,
}

/// What a new game is to be, as its creator asked.
pub(crate) struct NewGame {
    pub(crate) mode: Mode,
    /// The creator's colour (the seat they hold; against the AI, theirs).
    pub(crate) creator: Side,
    /// The creator's display name.
    pub(crate) name: Option<String>,
    pub(crate) clock: Option<TimeControl>,
    /// The signed-in creator: their seat is the account's.
    pub(crate) account: Option<Account>,
    /// Rated: online, timed, the creator signed in (and the other seat
    /// taken by an account, checked at the claim).
    pub(crate) rated: bool,
}

impl NewGame {
    /// A rated game must be one that can be rated.
    pub(crate) fn check_rated(&self) -> Result<(), ApiError> {
        if !self.rated {
            return Ok(());
        }
        let refuse = |why: &str| ApiError::bad_request("not_ratable", why.to_string());
        if self.mode == Mode::Hotseat {
            return Err(refuse(
                "a rated game is played online between two accounts, or against an AI level",
            ));
        }
        if self.clock.is_none() {
            return Err(refuse("a rated game needs a clock"));
        }
        if self.account.is_none() {
            return Err(ApiError::forbidden(
                "rated_needs_account",
                "sign in to create a rated game",
            ));
        }
        Ok(())
    }
}

impl App {
    /// The creator's colour from a request: `white` (also when absent),
    /// `black` or `random`.
    pub(crate) fn pick_side(&self, side: Option<&str>) -> Result<Side, ApiError> {
        match side.unwrap_or("white") {
            "random" => Ok(if self.rng.lock().expect("rng lock").random_bool(0.5) {
                Side::White
            } else {
                Side::Black
            }),
            s => Side::from_name(s).ok_or_else(|| {
                ApiError::bad_request(
                    "bad_side",
                    format!("{s:?} is not a colour: use white, black or random"),
                )
                .with("side", s)
            }),
        }
    }

    /// A new game's row: a token for each seat a person here holds. Online
    /// the creator's seat only; the other seat gets its token when its
    /// player claims it with the invite code.
    fn new_row(&self, variant: Variant, mode: Mode, start: &Position, creator: Side) -> GameRow {
        let now = now_ms();
        let (white_token, black_token) = match mode {
            Mode::Ai { ai_side, .. } => {
                let t = Some(new_token(self, 24));
                if ai_side == Side::White {
                    (None, t)
                } else {
                    (t, None)
                }
            }
            Mode::Hotseat => {
                let t = Some(new_token(self, 24));
                (t.clone(), t)
            }
            Mode::Online => {
                let t = Some(new_token(self, 24));
                if creator == Side::White {
                    (t, None)
                } else {
                    (None, t)
                }
            }
        };
        let invite = (mode == Mode::Online).then(|| new_token(self, 24));
        GameRow {
            id: new_token(self, 10),
            variant: variant.name().to_string(),
            mode,
            white_token,
            black_token,
            start: start.to_position_string(),
            created: now,
            updated: now,
            version: 1,
            invite,
            ..GameRow::default()
        }
    }

    /// A new game from the start position of `variant`.
    pub(crate) fn new_game(&self, variant: Variant, new: NewGame) -> Result<LiveGame, ApiError> {
        let start = Position::new(variant);
        let mut row = self.new_row(variant, new.mode, &start, new.creator);
        set_creator_name(&mut row, new.mode, new.creator, new.name);
        row.rated = new.rated;
        let mut game = LiveGame::new(row, start).map_err(ApiError::internal)?;
        game.set_time_control(new.clock);
        seat_creator(&mut game, new.mode, new.creator, new.account.as_ref());
        Ok(game)
    }

    /// A game between two people the lobby paired: both seats taken at
    /// once (no invite), each with its own token, account and name.
    pub(crate) fn paired_game(
        &self,
        variant: Variant,
        clock: Option<TimeControl>,
        rated: bool,
        white: Seat,
        black: Seat,
    ) -> Result<LiveGame, ApiError> {
        let start = Position::new(variant);
        let mut row = self.new_row(variant, Mode::Online, &start, Side::White);
        row.invite = None;
        row.white_token = Some(white.token);
        row.black_token = Some(black.token);
        row.white_name = white.name;
        row.black_name = black.name;
        row.rated = rated;
        let mut game = LiveGame::new(row, start).map_err(ApiError::internal)?;
        game.set_time_control(clock);
        game.bots = [white.bot, black.bot];
        for (side, account) in [(Side::White, white.account), (Side::Black, black.account)] {
            if let Some(account) = account {
                game.seat_account(side, &account);
            }
        }
        Ok(game)
    }

    /// A game going on from `record` (replayed as `replayed`).
    pub(crate) fn imported_game(
        &self,
        record: &Record,
        replayed: &Game,
        new: NewGame,
    ) -> Result<LiveGame, ApiError> {
        let start = replayed.start().clone();
        let variant = start.variant();
        // Only a result the moves show, or a resignation or agreement the
        // record states as such, is taken over.
        let end = recorded_result(record, replayed)
            .map_err(|e| ApiError::unprocessable("bad_record", format!("the record: {e}")))?;
        let mut row = self.new_row(variant, new.mode, &start, new.creator);
        set_creator_name(&mut row, new.mode, new.creator, new.name);
        row.moves = record
            .moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        row.end = end;
        row.imported = true;
        row.tags = Some(
            serde_json::to_string(&record.tags)
                .map_err(|e| ApiError::internal(format!("the record's tags: {e}")))?,
        );
        let mut game = LiveGame::from_row(row).map_err(ApiError::internal)?;
        game.row.finished = game.is_over().then(|| game.outcome());
        game.row.plies = game.game.len() as i64;
        game.set_time_control(new.clock);
        seat_creator(&mut game, new.mode, new.creator, new.account.as_ref());
        Ok(game)
    }

    /// Stores a new game and holds it in memory; answers the game as
    /// stored. The AI moving first needs a place in its queue: a full
    /// queue refuses the game (429) before anything is stored.
    pub(crate) async fn open_game(
        self: &Arc<Self>,
        mut game: LiveGame,
        client: ClientKey,
    ) -> Result<LiveGame, ApiError> {
        let ai_job = self.reserve_ai(client, &mut game)?;
        // A new id that is in use already gets another: a game is never
        // overwritten.
        let mut tries = 0;
        loop {
            match self.store.insert(game.row.clone()).await {
                Ok(()) => break,
                Err(punct_store::SaveError::Duplicate) if tries < 8 => {
                    tries += 1;
                    game.row.id = new_token(self, 10);
                }
                Err(e) => return Err(ApiError::internal(e.to_string())),
            }
        }
        let stored = game.clone();
        // An imported record may be a finished game: reviewed as any other.
        self.queue_review(&stored);
        let slot = self.insert(game);
        // Bots listening here hear of their new game (botapi.rs; other
        // instances' from the database's announcement).
        self.bot_hub.new_game(
            &stored.row.id,
            [
                stored.row.white_user.as_deref(),
                stored.row.black_user.as_deref(),
            ],
        );
        self.start_ai(&slot, ai_job);
        Ok(stored)
    }
}

/// A signed-in creator's seat is their account's (at one screen neither
/// seat is: two people share it).
fn seat_creator(game: &mut LiveGame, mode: Mode, creator: Side, account: Option<&Account>) {
    if let (Some(account), false) = (account, mode == Mode::Hotseat) {
        game.seat_account(creator, account);
        // In a rated game against an AI level, its seat is the level's
        // bot account (bots.rs): the game counts for both.
        if let (Mode::Ai { level, ai_side }, true) = (mode, game.row.rated) {
            game.seat_account(ai_side, &crate::bots::account(level));
        }
    }
}

/// The creator's name goes on their seat (at one screen on neither: two
/// people share it).
fn set_creator_name(row: &mut GameRow, mode: Mode, creator: Side, name: Option<String>) {
    if mode == Mode::Hotseat {
        return;
    }
    match creator {
        Side::White => row.white_name = name,
        Side::Black => row.black_name = name,
    }
}
