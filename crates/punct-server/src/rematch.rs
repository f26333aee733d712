//! Rematches: after a game, the same players and settings again with the
//! colours swapped. Online the other player answers the offer; against
//! the AI or at one screen it starts at once. Each player keeps their
//! seat's token, so their browser holds the new seat without a new link.

use crate::app::App;
use crate::error::ApiError;
use crate::games::{now_ms, Action, GameError, LiveGame, Mode, Notice, Offer};
use crate::limits::ClientKey;
use punct_core::Position;
use punct_store::GameRow;
use std::sync::Arc;

impl LiveGame {
    /// Offers, accepts or declines a rematch for the holder of `token`.
    /// Answers the new game's row (to be stored as `new_id`) when the
    /// rematch starts; the game then points to it.
    pub fn rematch(
        &mut self,
        token: &str,
        action: Action,
        new_id: &str,
    ) -> Result<Option<GameRow>, GameError> {
        if !self.is_over() {
            return Err(GameError::GameOn);
        }
        if let Some(id) = self.row.rematch.as_ref().or(self.rematch_pending.as_ref()) {
            return Err(GameError::RematchStarted(id.clone()));
        }
        let seats = self.seats(token);
        let Some(&side) = seats.first() else {
            return Err(GameError::NoSeat);
        };
        let offered_by = self.row.rematch_offer;
        let answering = offered_by.is_some_and(|o| o != side || seats.len() > 1);
        match action {
            Action::Propose | Action::Accept if self.row.mode != Mode::Online || answering => {
                Ok(Some(self.start_rematch(new_id)))
            }
            Action::Propose => {
                if offered_by == Some(side) {
                    return Err(GameError::OwnOffer(Offer::Rematch));
                }
                self.row.rematch_offer = Some(side);
                self.notice = None;
                self.changed();
                Ok(None)
            }
            // Online, with nothing offered to this player.
            Action::Accept => Err(GameError::NoOffer(Offer::Rematch)),
            Action::Decline if !answering => Err(GameError::NoOffer(Offer::Rematch)),
            Action::Decline => {
                self.row.rematch_offer = None;
                self.notice = Some(Notice::RematchDeclined(side));
                self.changed();
                Ok(None)
            }
        }
    }

    /// Ends the rematch `id` begun by [`LiveGame::rematch`]: points to it
    /// once it is `stored`, else says it failed (a new one may begin).
    pub fn point_to_rematch(&mut self, id: &str, stored: bool) {
        self.rematch_pending = None;
        if stored {
            self.row.rematch = Some(id.to_string());
        } else {
            self.notice = Some(Notice::RematchFailed);
        }
        self.changed();
    }

    /// The rematch's row (seats, names and the AI's side swapped; the
    /// same variant, mode and time control); this game points to it once
    /// it is stored ([`LiveGame::point_to_rematch`]).
    fn start_rematch(&mut self, new_id: &str) -> GameRow {
        let old = &self.row;
        let variant = self.position().variant();
        let now = now_ms();
        let row = GameRow {
            id: new_id.to_string(),
            variant: old.variant.clone(),
            mode: match old.mode {
                Mode::Ai { level, ai_side } => Mode::Ai {
                    level,
                    ai_side: ai_side.opponent(),
                },
                other => other,
            },
            white_token: old.black_token.clone(),
            black_token: old.white_token.clone(),
            white_name: old.black_name.clone(),
            black_name: old.white_name.clone(),
            start: Position::new(variant).to_position_string(),
            moves: String::new(),
            created: now,
            updated: now,
            version: 1,
            clock: old.clock.clone(),
            ..GameRow::default()
        };
        self.rematch_pending = Some(new_id.to_string());
        self.row.rematch_offer = None;
        self.notice = None;
        self.changed();
        row
    }
}

impl App {
    /// Stores a rematch's new game and starts the AI if it moves first.
    pub(crate) async fn add_rematch(
        self: &Arc<Self>,
        row: GameRow,
        client: ClientKey,
    ) -> Result<(), ApiError> {
        let mut game = LiveGame::from_row(row).map_err(ApiError::internal)?;
        // The clocks start full, as in any new game with this time control.
        game.set_time_control(game.time_control());
        let ai_job = self.reserve_ai(client, &mut game)?;
        self.store
            .insert(game.row.clone())
            .await
            .map_err(|e| ApiError::internal(e.to_string()))?;
        let slot = self.insert(game);
        self.start_ai(&slot, ai_job);
        Ok(())
    }
}
