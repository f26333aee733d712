//! Rated games into ratings. When a rated game between two accounts ends —
//! however it ends — both players' Glicko-2 ratings in the game's
//! category are computed (`punct-ratings`) and stored exactly once: the
//! store keeps one history row per game and player and refuses a second
//! application, and a rating that moved meanwhile (another game of the
//! same player ended at the same moment) is read again and recomputed.
//! Every instance that sees the game end may try; one succeeds.

use crate::clock::TimeControl;
use crate::games::now_ms;
use punct_core::Outcome;
use punct_ratings::{Category, Rating, Score};
use punct_store::{ApplyError, GameRow, RatedResult, RatedSide, RatingRow, Storage, StoreError};

/// Games ended before this many plies leave ratings untouched (an abort
/// in all but name).
pub(crate) const MIN_RATED_PLIES: i64 = 2;
/// Tries when a player's rating keeps moving under the computation.
const TRIES: usize = 8;
const DAY_MS: f64 = 86_400_000.0;

/// A game's rating category from its stored time control; `None` for an
/// untimed game (never rated).
pub(crate) fn category(row: &GameRow) -> Option<Category> {
    match TimeControl::from_stored(row.clock.as_deref()?)? {
        TimeControl::Realtime { initial, increment } => {
            Some(Category::real_time(initial.into(), increment.into()))
        }
        TimeControl::Correspondence { .. } => Some(Category::Correspondence),
    }
}

/// What rating a game would change: both users, the category and White's
/// score; `None` if the game is not (or not yet) one to rate.
fn ratable(row: &GameRow) -> Option<(String, String, Category, Score)> {
    if !row.rated || row.plies < MIN_RATED_PLIES {
        return None;
    }
    let score = match row.finished? {
        Outcome::WhiteWins => Score::WhiteWins,
        Outcome::BlackWins => Score::BlackWins,
        Outcome::Draw => Score::Draw,
        Outcome::Unfinished => return None,
    };
    let white = row.white_user.clone()?;
    let black = row.black_user.clone()?;
    (white != black).then_some(())?;
    Some((white, black, category(row)?, score))
}

/// Applies an ended rated game's result to both players' ratings, once.
/// Returns whether this call applied it (false: not a rated game, or
/// applied already).
pub(crate) async fn rate(store: &dyn Storage, row: &GameRow) -> Result<bool, StoreError> {
    let Some((white, black, category, score)) = ratable(row) else {
        return Ok(false);
    };
    let accounts = store.accounts();
    for _ in 0..TRIES {
        let now = now_ms();
        let current = |rows: Vec<RatingRow>, user: &str| {
            rows.into_iter()
                .find(|r| r.category == category.name())
                .unwrap_or(RatingRow {
                    user: user.to_string(),
                    category: category.name().to_string(),
                    rating: Rating::new().rating,
                    deviation: Rating::new().deviation,
                    volatility: Rating::new().volatility,
                    games: 0,
                    updated: now,
                })
        };
        let w = current(accounts.ratings(&white).await?, &white);
        let b = current(accounts.ratings(&black).await?, &black);
        let idle = |r: &RatingRow| ((now - r.updated).max(0) as f64) / DAY_MS;
        let (w_old, b_old) = (rating_of(&w), rating_of(&b));
        let (w_new, b_new) = punct_ratings::rate_game(&w_old, &b_old, score, idle(&w), idle(&b));
        let (w_score, b_score) = match score {
            Score::WhiteWins => (1.0, 0.0),
            Score::BlackWins => (0.0, 1.0),
            Score::Draw => (0.5, 0.5),
        };
        let side =
            |old: &RatingRow, was: &Rating, new: &Rating, score: f64, opponent: &str| RatedSide {
                new: RatingRow {
                    user: old.user.clone(),
                    category: category.name().to_string(),
                    rating: new.rating,
                    deviation: new.deviation,
                    volatility: new.volatility,
                    games: old.games + 1,
                    updated: now,
                },
                expected_games: old.games,
                score,
                opponent: opponent.to_string(),
                change: f64::from(punct_ratings::change(was, new)),
            };
        let result = RatedResult {
            game: row.id.clone(),
            at: now,
            sides: [
                side(&w, &w_old, &w_new, w_score, &black),
                side(&b, &b_old, &b_new, b_score, &white),
            ],
        };
        match accounts.apply_rating(result).await {
            Ok(()) => return Ok(true),
            Err(ApplyError::AlreadyApplied) => return Ok(false),
            Err(ApplyError::Stale) => continue,
            Err(ApplyError::Failed(e)) => return Err(e),
        }
    }
    Err(StoreError::failed(format!(
        "game {}: the players' ratings kept changing during {TRIES} tries",
        row.id
    )))
}

/// A stored rating as Glicko-2 values; an unusable one (never written by
/// punct) starts again from the default rather than poisoning the next.
pub(crate) fn rating_of(row: &RatingRow) -> Rating {
    let r = Rating {
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
    };
    if r.valid() {
        r
    } else {
        tracing::warn!(
            "user {}: the stored {} rating is unusable; starting it again",
            row.user,
            row.category
        );
        Rating::new()
    }
}
