//! Players' public pages as JSON: a profile (ratings per category, games
//! won, lost and drawn by variant and colour, games being played), a
//! player's games with filters and paging, a rating's history for the
//! chart, the leaderboards, and a rated game's rating changes.

use super::http::{parse_variant, Params};
use crate::app::Shared;
use crate::error::ApiError;
use crate::games::{now_ms, LiveGame};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use punct_core::Side;
use punct_ratings::{Category, PROVISIONAL_DEVIATION};
use punct_store::{ListFilter, RatingRow, UserResult, UserRow};
use serde::Deserialize;
use serde_json::{json, Value};

/// Leaderboards list players active this recently.
const ACTIVE_MS: i64 = 28 * 86_400_000;
const LEADERBOARD_SIZE: u32 = 100;

/// The user of a profile's address, by name (any case, any confusable
/// spelling finds the one account).
async fn user(app: &crate::app::App, name: &str) -> Result<UserRow, ApiError> {
    let none = || {
        ApiError::not_found("no_user", format!("there is no player called {name:?}"))
            .with("name", name.chars().take(40).collect::<String>())
    };
    let Some(key) = punct_accounts::name::lookup_key(name) else {
        return Err(none());
    };
    app.store
        .accounts()
        .user_by_key(&key)
        .await?
        .ok_or_else(none)
}

/// A user's name as games and lists show it: "deleted" once deleted.
pub(crate) fn shown_name(user: &UserRow) -> &str {
    if user.deleted {
        crate::games::DELETED_NAME
    } else {
        &user.name
    }
}

fn rating_json(r: &RatingRow) -> Value {
    let rating = crate::ratings::rating_of(r);
    json!({
        "category": r.category,
        "rating": rating.shown(),
        "deviation": rating.deviation.round(),
        "provisional": rating.provisional(),
        "games": r.games,
        "updated": r.updated,
    })
}

/// `GET /api/users/{name}`: a profile.
pub(crate) async fn profile(
    State(app): Shared,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let user = user(&app, &name).await?;
    let accounts = app.store.accounts();
    let mut ratings = accounts.ratings(&user.id).await?;
    ratings.sort_by_key(|r| Category::parse(&r.category).ok());
    let stats = accounts.user_stats(&user.id).await?;
    let playing = app
        .store
        .list(&ListFilter {
            user: Some(user.id.clone()),
            over: Some(false),
            limit: 50,
            ..ListFilter::default()
        })
        .await?;
    Ok(axum::Json(json!({
        "name": shown_name(&user),
        "created": user.created,
        "seen": user.seen,
        "bot": user.bot,
        "deleted": user.deleted,
        "ratings": ratings.iter().map(rating_json).collect::<Vec<_>>(),
        "stats": stats.iter().map(|s| json!({
            "variant": s.variant, "side": s.side,
            "won": s.won, "lost": s.lost, "drawn": s.drawn,
        })).collect::<Vec<_>>(),
        "playing": playing.iter().map(LiveGame::summary).collect::<Vec<_>>(),
    }))
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GamesQuery {
    /// `ongoing` or `over`.
    status: Option<String>,
    /// The player's colour: `white` or `black`.
    side: Option<String>,
    rated: Option<bool>,
    variant: Option<String>,
    /// The player's result: `won`, `lost` or `drawn`.
    result: Option<String>,
    offset: Option<u32>,
    limit: Option<u32>,
}

/// The most games a page of a player's games lists.
const PAGE_MAX: u32 = 100;
/// How far a player's games can be paged (deeper: the record download).
const OFFSET_MAX: u32 = 10_000;

/// `GET /api/users/{name}/games`: a player's games, most recent first,
/// filtered and paged.
pub(crate) async fn games(
    State(app): Shared,
    Path(name): Path<String>,
    Params(q): Params<GamesQuery>,
) -> Result<Response, ApiError> {
    let over = match q.status.as_deref() {
        None => None,
        Some("ongoing") => Some(false),
        Some("over") => Some(true),
        Some(s) => {
            return Err(ApiError::bad_request(
                "bad_status",
                format!("{s:?} is not a status: use ongoing or over"),
            )
            .with("status", s))
        }
    };
    let side = match q.side.as_deref() {
        None => None,
        Some(s) => Some(Side::from_name(s).ok_or_else(|| {
            ApiError::bad_request(
                "bad_side",
                format!("{s:?} is not a colour: use white or black"),
            )
            .with("side", s)
        })?),
    };
    let result = match q.result.as_deref() {
        None => None,
        Some("won") => Some(UserResult::Won),
        Some("lost") => Some(UserResult::Lost),
        Some("drawn") => Some(UserResult::Drawn),
        Some(r) => {
            return Err(ApiError::bad_request(
                "bad_result",
                format!("{r:?} is not a result: use won, lost or drawn"),
            )
            .with("result", r))
        }
    };
    let variant = match q.variant.as_deref() {
        None => None,
        v => Some(parse_variant(v)?.name().to_string()),
    };
    let offset = q.offset.unwrap_or(0);
    if offset > OFFSET_MAX {
        return Err(ApiError::bad_request(
            "bad_offset",
            format!("offset {offset} is too deep: at most {OFFSET_MAX}"),
        )
        .with("max", OFFSET_MAX));
    }
    let limit = q.limit.unwrap_or(20).clamp(1, PAGE_MAX);
    let user = user(&app, &name).await?;
    // One more than asked, to say whether there is a next page.
    let rows = app
        .store
        .list(&ListFilter {
            user: Some(user.id.clone()),
            over,
            side,
            rated: q.rated,
            variant,
            result,
            offset,
            limit: limit + 1,
            ..ListFilter::default()
        })
        .await?;
    let more = rows.len() > limit as usize;
    let games: Vec<Value> = rows
        .iter()
        .take(limit as usize)
        .map(LiveGame::summary)
        .collect();
    Ok(axum::Json(json!({ "games": games, "offset": offset, "more": more })).into_response())
}

fn parse_category(word: &str) -> Result<Category, ApiError> {
    Category::parse(word)
        .map_err(|e| ApiError::bad_request("bad_category", e).with("category", word))
}

/// `GET /api/users/{name}/ratings/{category}`: the rating after each rated
/// game, oldest first (the profile's chart).
pub(crate) async fn history(
    State(app): Shared,
    Path((name, category)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let category = parse_category(&category)?;
    let user = user(&app, &name).await?;
    let points = app
        .store
        .accounts()
        .rating_history(&user.id, category.name())
        .await?;
    let points: Vec<Value> = points
        .iter()
        .map(|p| {
            json!({
                "at": p.at,
                "rating": p.rating.round(),
                "deviation": p.deviation.round(),
                "change": p.change,
                "score": p.score,
                "game": p.game,
            })
        })
        .collect();
    Ok(axum::Json(json!({ "category": category.name(), "points": points })).into_response())
}

/// `GET /api/leaderboard/{category}`: the best established players active
/// in the last four weeks.
pub(crate) async fn leaderboard(
    State(app): Shared,
    Path(category): Path<String>,
) -> Result<Response, ApiError> {
    let category = parse_category(&category)?;
    let rows = app
        .store
        .accounts()
        .leaderboard(
            category.name(),
            now_ms() - ACTIVE_MS,
            PROVISIONAL_DEVIATION,
            LEADERBOARD_SIZE,
        )
        .await?;
    let players: Vec<Value> = rows
        .iter()
        .map(|(user, rating)| {
            let mut line = rating_json(rating);
            line["name"] = json!(user.name);
            line["bot"] = json!(user.bot);
            line
        })
        .collect();
    Ok(axum::Json(json!({ "category": category.name(), "players": players })).into_response())
}

/// `GET /api/games/{id}/rating`: how a rated game changed each player's
/// rating (applied now if this instance is the first to ask).
pub(crate) async fn game_rating(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let row = app.store.load(&id).await?.ok_or_else(|| {
        ApiError::not_found("unknown_game", format!("there is no game {id:?}"))
            .with("id", id.as_str())
    })?;
    if !row.rated {
        return Ok(axum::Json(json!({ "rated": false })).into_response());
    }
    // Idempotent: the first to get here (or the end's commit) applies it.
    crate::ratings::rate(app.store.as_ref(), &row).await?;
    let points = app.store.accounts().game_rating(&id).await?;
    let side_of = |user: &Option<String>| {
        points
            .iter()
            .find(|p| Some(&p.user) == user.as_ref())
            .map(|p| {
                json!({
                    "rating": p.rating.round(),
                    "change": p.change,
                    "provisional": p.deviation > PROVISIONAL_DEVIATION,
                })
            })
    };
    Ok(axum::Json(json!({
        "rated": true,
        "category": crate::ratings::category(&row).map(|c| c.name()),
        "white": side_of(&row.white_user),
        "black": side_of(&row.black_user),
    }))
    .into_response())
}

/// The most games "your turn" looks through (a player's ongoing games).
const TURNS_MAX: u32 = 500;

/// `GET /api/account/turns`: the signed-in player's ongoing games where it
/// is their turn (the header's "your turn in N games"), most recently
/// changed first.
pub(crate) async fn turns(
    State(app): Shared,
    super::accounts::Member(who): super::accounts::Member,
) -> Result<Response, ApiError> {
    let rows = app
        .store
        .list(&ListFilter {
            user: Some(who.user.id.clone()),
            over: Some(false),
            limit: TURNS_MAX,
            ..ListFilter::default()
        })
        .await?;
    let games: Vec<Value> = rows
        .iter()
        .filter(|row| {
            let summary = LiveGame::summary(row);
            let to_move = summary["to_move"].as_str();
            let mine = |side: Side| match side {
                Side::White => row.white_user.as_deref(),
                Side::Black => row.black_user.as_deref(),
            } == Some(who.user.id.as_str());
            // Waiting for an opponent to join is nobody's turn.
            !(row.mode == punct_store::Mode::Online && row.invite.is_some())
                && match to_move {
                    Some("white") => mine(Side::White),
                    Some("black") => mine(Side::Black),
                    _ => false,
                }
        })
        .map(LiveGame::summary)
        .collect();
    Ok(axum::Json(json!({ "count": games.len(), "games": games })).into_response())
}
