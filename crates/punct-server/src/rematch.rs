//! Rematches: after a game, the same players and settings again with the
//! colours swapped. Online the other player answers the offer; against
//! the AI or at one screen it starts at once. Each player keeps their
//! seat's token, so their browser holds the new seat without a new link.
//! The new game is stored with the change that links the old one to it,
//! in one transaction (`App::commit`): a rematch begins once.

use crate::app::App;
use crate::games::{now_ms, Action, GameError, LiveGame, Mode, Notice, Offer};
use crate::limits::ClientKey;
use punct_core::Position;
use punct_store::GameRow;
use std::sync::Arc;

impl LiveGame {
    /// Offers, accepts or declines a rematch for the holder of `token`.
    /// When the rematch starts, this game points to it (`new_id`) and
    /// `rematch_new` holds its row, to be stored with this change.
    pub fn rematch(&mut self, token: &str, action: Action, new_id: &str) -> Result<(), GameError> {
        if !self.is_over() {
            return Err(GameError::GameOn);
        }
        if let Some(id) = &self.row.rematch {
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
                self.start_rematch(new_id);
                Ok(())
            }
            Action::Propose => {
                if offered_by == Some(side) {
                    return Err(GameError::OwnOffer(Offer::Rematch));
                }
                self.row.rematch_offer = Some(side);
                self.notice = None;
                self.changed();
                Ok(())
            }
            // Online, with nothing offered to this player.
            Action::Accept => Err(GameError::NoOffer(Offer::Rematch)),
            Action::Decline if !answering => Err(GameError::NoOffer(Offer::Rematch)),
            Action::Decline => {
                self.row.rematch_offer = None;
                self.notice = Some(Notice::RematchDeclined(side));
                self.changed();
                Ok(())
            }
        }
    }

    /// The rematch's row (seats, names and the AI's side swapped; the
    /// same variant, mode and time control, the clocks full), in
    /// `rematch_new`; this game points to it.
    fn start_rematch(&mut self, new_id: &str) {
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
            // The same two accounts; a rated game's rematch is rated too.
            white_user: old.black_user.clone(),
            black_user: old.white_user.clone(),
            rated: old.rated,
            start: Position::new(variant).to_position_string(),
            moves: String::new(),
            created: now,
            updated: now,
            version: 1,
            clock: old.clock.clone(),
            ..GameRow::default()
        };
        // The clocks start full, as in any new game with this time control.
        let mut new = LiveGame {
            row,
            game: punct_core::Game::from_position(Position::new(variant)),
            notice: None,
            ai_queued: false,
            ai_elsewhere: false,
            rematch_new: None,
            // The seats swap: so do their bots.
            bots: [self.bots[1], self.bots[0]],
        };
        new.set_time_control(new.time_control());
        self.rematch_new = Some(new.row);
        self.row.rematch = Some(new_id.to_string());
        self.row.rematch_offer = None;
        self.notice = None;
        self.changed();
    }
}

impl App {
    /// Brings a rematch just stored into memory and starts the AI if it
    /// moves first, as `client`'s job (a full queue: the server's, later).
    pub(crate) async fn adopt_rematch(self: &Arc<Self>, id: &str, client: ClientKey) {
        let held = self.games.lock().expect("games lock").get(id).cloned();
        let slot = match held {
            Some(slot) => slot,
            None => match self.store.load(id).await {
                Ok(Some(row)) => match LiveGame::from_row(row) {
                    Ok(mut game) => {
                        self.mark_bots(&mut game).await;
                        self.insert(game)
                    }
                    Err(e) => return tracing::warn!("rematch {id}: {e}"),
                },
                // Read when asked for, like any stored game.
                Ok(None) | Err(_) => return,
            },
        };
        {
            let game = slot.game.lock().await;
            self.bot_hub.new_game(
                id,
                [
                    game.row.white_user.as_deref(),
                    game.row.black_user.as_deref(),
                ],
            );
        }
        let job = self.reserve_ai(client, &mut *slot.game.lock().await);
        match job {
            Ok(job) => self.start_ai(&slot, job),
            Err(_) => self.kick_ai(&slot).await,
        }
    }
}
