//! The lobby: open seeks anyone may accept, and quick pairing that pairs
//! the two closest ratings of one time control within a range that widens
//! with waiting. Seeks live in the store (`punct_store::Lobby`), shared by
//! every instance on one database; a seek belongs to the live socket that
//! made it and goes when that socket closes (or its instance dies: its
//! rows stop being confirmed). Taking a seek, or a pair of pool entries, is
//! one atomic step of the store, so however many instances race, a seek
//! becomes one game. The game is made here (through `create.rs`) with both
//! seats taken; each seeker's own instance hands it its seat's token.
//!
//! Watchers hear one small message per change (`Added`, `Removed`), never
//! the whole list again: on PostgreSQL every instance learns of changes
//! through the database's announcements (`app::follow_changes` calls
//! [`on_change`]); on SQLite the one process announces them itself.

mod hub;

pub(crate) use hub::{Hub, LobbyEvent, Mine, Paired, SeekNews};

use crate::app::{new_token, App};
use crate::clock::TimeControl;
use crate::create::Seat;
use crate::error::ApiError;
use crate::games::{now_ms, Account};
use punct_core::{Side, Variant};
use punct_store::{Change, SeekRow};
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Open seeks one socket may hold at once.
pub(crate) const SEEKS_PER_SOCKET: usize = 3;
/// Seeks this instance holds at most (every socket's together).
const SEEKS_PER_INSTANCE: usize = 5000;
/// The rating range quick pairing starts with, and how much it widens per
/// second of waiting (either player's: the longer wait counts).
const RANGE_START: i64 = 100;
const RANGE_PER_SECOND: i64 = 25;
/// A seek whose instance has not confirmed it for this long is gone.
const SEEK_EXPIRY_MS: i64 = 15_000;
/// The rating shown and paired by for a player without one.
const DEFAULT_RATING: i64 = 1500;

/// Who seeks or accepts: an account (signed in) or an anonymous visitor
/// with an optional display name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seeker {
    pub(crate) account: Option<Account>,
    pub(crate) name: Option<String>,
    pub(crate) bot: bool,
}

/// A seek as asked for.
#[derive(Clone, Debug)]
pub(crate) struct Wanted {
    pub(crate) variant: Variant,
    pub(crate) clock: Option<TimeControl>,
    pub(crate) rated: bool,
    /// `white`, `black` or `random`: the seeker's colour.
    pub(crate) side: String,
    /// A quick-pairing entry rather than an open seek.
    pub(crate) pool: bool,
    /// A challenge: offered to this account only (`challenges.rs`).
    pub(crate) to: Option<Account>,
}

/// The public JSON of a seek (never its token); a challenge's also names
/// the account it is offered to (`to`, added by `challenges.rs`).
pub(crate) fn view(row: &SeekRow) -> Value {
    json!({
        "id": row.id,
        "kind": row.kind,
        "name": row.name,
        "account": row.user.is_some(),
        "bot": row.bot,
        "rating": row.rating,
        "category": row.category,
        "variant": row.variant,
        "clock": row.clock.as_deref().and_then(TimeControl::from_stored).map(TimeControl::to_json),
        "rated": row.rated,
        "side": row.side,
        "created": row.created,
    })
}

/// The open seeks now (pool entries are not listed: they pair by
/// themselves).
pub(crate) async fn list(app: &App) -> Result<Vec<Value>, ApiError> {
    let rows = app
        .store
        .lobby()
        .seeks(2 * SEEKS_PER_INSTANCE as u32)
        .await?;
    Ok(rows.iter().filter(|r| r.kind == "seek").map(view).collect())
}

/// Whether this instance announces lobby changes itself (one process on
/// SQLite) rather than hearing them back from the database.
fn local(app: &App) -> bool {
    app.store.changes().is_none()
}

fn announce_added(app: &App, row: &SeekRow) {
    let text = || Arc::from(view(row).to_string());
    match (row.kind.as_str(), &row.to_user) {
        ("seek", _) => {
            let _ = app.lobby.events.send(LobbyEvent::Added(text()));
        }
        ("challenge", Some(to)) => {
            let _ = app.lobby.events.send(LobbyEvent::Challenge {
                to: to.clone(),
                seek: text(),
            });
        }
        _ => {}
    }
}

fn announce_removed(app: &App, id: &str) {
    let _ = app.lobby.events.send(LobbyEvent::Removed(id.to_string()));
}

/// A rating category's name for a time control (`None`: untimed).
fn category(clock: Option<TimeControl>) -> Option<punct_ratings::Category> {
    match clock? {
        TimeControl::Realtime { initial, increment } => Some(punct_ratings::Category::real_time(
            initial.into(),
            increment.into(),
        )),
        TimeControl::Correspondence { .. } => Some(punct_ratings::Category::Correspondence),
    }
}

/// The seeker's rating in `category`, as shown and paired by.
async fn rating_of(
    app: &App,
    account: Option<&Account>,
    category: Option<punct_ratings::Category>,
) -> Result<Option<i64>, ApiError> {
    let (Some(account), Some(category)) = (account, category) else {
        return Ok(None);
    };
    let rows = app.store.accounts().ratings(&account.id).await?;
    let shown = rows
        .iter()
        .find(|r| r.category == category.name())
        .map(|r| i64::from(crate::ratings::rating_of(r).shown()))
        .unwrap_or(DEFAULT_RATING);
    Ok(Some(shown))
}

/// Refuses an account in a playban's cooldown a new game (playban.rs).
async fn playban(app: &App, seeker: &Seeker) -> Result<(), ApiError> {
    let Some(account) = &seeker.account else {
        return Ok(());
    };
    let unit_ms = app.config.playban_base.as_millis() as i64;
    crate::playban::check(app.store.as_ref(), &account.id, unit_ms, now_ms()).await
}

/// Opens a seek (or joins the pool) for a socket; its pairing reaches the
/// socket through `socket`. Returns the seek's id.
pub(crate) async fn seek(
    app: &Arc<App>,
    seeker: &Seeker,
    wanted: Wanted,
    socket: mpsc::Sender<SeekNews>,
) -> Result<String, ApiError> {
    if wanted.rated && seeker.account.is_none() {
        return Err(ApiError::forbidden(
            "rated_needs_account",
            "sign in to seek a rated game",
        ));
    }
    if wanted.rated && wanted.clock.is_none() {
        return Err(ApiError::bad_request(
            "not_ratable",
            "a rated game needs a clock",
        ));
    }
    if wanted.pool && wanted.to.is_some() {
        return Err(ApiError::bad_request(
            "bad_message",
            "a challenge is offered to one player, not to quick pairing",
        ));
    }
    if wanted.pool && seeker.bot {
        return Err(ApiError::forbidden(
            "bots_not_paired",
            "bots do not join quick pairing: they play challenges",
        ));
    }
    if !matches!(wanted.side.as_str(), "white" | "black" | "random") {
        return Err(ApiError::bad_request(
            "bad_side",
            format!(
                "{:?} is not a colour: use white, black or random",
                wanted.side
            ),
        )
        .with("side", wanted.side.as_str()));
    }
    playban(app, seeker).await?;
    if app.lobby.mine_len() >= SEEKS_PER_INSTANCE {
        return Err(ApiError::unavailable(
            "lobby_full",
            "the lobby holds as many seeks as it takes: try again soon",
        ));
    }
    let category = category(wanted.clock);
    let now = now_ms();
    let token = new_token(app, 24);
    let row = SeekRow {
        id: new_token(app, 10),
        kind: match (wanted.pool, &wanted.to) {
            (true, _) => "pool",
            (false, Some(_)) => "challenge",
            (false, None) => "seek",
        }
        .to_string(),
        user: seeker.account.as_ref().map(|a| a.id.clone()),
        name: seeker
            .account
            .as_ref()
            .map(|a| a.name.clone())
            .or_else(|| seeker.name.clone()),
        bot: seeker.bot,
        rating: rating_of(app, seeker.account.as_ref(), category).await?,
        category: category.map(|c| c.name().to_string()),
        variant: wanted.variant.name().to_string(),
        clock: wanted.clock.map(|c| c.to_json().to_string()),
        rated: wanted.rated,
        side: if wanted.pool {
            "random".into()
        } else {
            wanted.side.clone()
        },
        token: token.clone(),
        instance: app.jobs.lease.owner.clone(),
        created: now,
        seen: now,
        to_user: wanted.to.as_ref().map(|a| a.id.clone()),
    };
    let id = row.id.clone();
    // Known here before it is stored: a pairing that comes back at once
    // finds its socket.
    app.lobby.mine.lock().expect("lobby lock").insert(
        id.clone(),
        Mine {
            token,
            socket,
            row: row.clone(),
        },
    );
    if let Err(e) = app.store.lobby().add_seek(row.clone()).await {
        app.lobby.mine.lock().expect("lobby lock").remove(&id);
        return Err(e.into());
    }
    if local(app) {
        announce_added(app, &row);
    }
    if wanted.pool {
        try_pair(app, &id).await;
    }
    Ok(id)
}

/// Withdraws seeks of a socket (cancelled, or the socket closed).
pub(crate) async fn withdraw(app: &App, ids: &[String]) {
    for id in ids {
        let was_mine = app
            .lobby
            .mine
            .lock()
            .expect("lobby lock")
            .remove(id)
            .is_some();
        if !was_mine {
            continue;
        }
        match app.store.lobby().remove_seek(id).await {
            Ok(true) if local(app) => announce_removed(app, id),
            Ok(_) => {}
            Err(e) => tracing::warn!("withdrawing seek {id}: {e}"),
        }
    }
}

/// Accepts open seek `id`: a game between its seeker and `acceptor`,
/// made once however many accept at the same moment.
pub(crate) async fn accept(
    app: &Arc<App>,
    acceptor: &Seeker,
    id: &str,
) -> Result<Paired, ApiError> {
    let gone = || {
        ApiError::conflict(
            "seek_gone",
            "this seek is gone: someone else took it, or it was withdrawn",
        )
        .with("seek", id)
    };
    let Some(seek) = app.store.lobby().seek(id).await? else {
        return Err(gone());
    };
    // A challenge is taken by the one it is offered to, and by no one
    // else (who is told nothing of it).
    let offered_to_acceptor = match (&seek.to_user, &acceptor.account) {
        (Some(to), Some(a)) => *to == a.id,
        _ => false,
    };
    match seek.kind.as_str() {
        "seek" => {}
        "challenge" if offered_to_acceptor => {}
        _ => return Err(gone()),
    }
    if seek.rated && acceptor.account.is_none() {
        return Err(ApiError::forbidden(
            "rated_needs_account",
            "sign in to play a rated game",
        ));
    }
    let same = match (&seek.user, &acceptor.account) {
        (Some(u), Some(a)) => *u == a.id,
        _ => false,
    };
    if same {
        return Err(ApiError::conflict("own_seek", "this is your own seek"));
    }
    if let (Some(seeker), Some(acceptor)) = (&seek.user, &acceptor.account) {
        if crate::blocks::between(app, seeker, &acceptor.id).await? {
            return Err(crate::blocks::refused(seek.name.as_deref().unwrap_or("")));
        }
    }
    playban(app, acceptor).await?;
    let Some(seek) = app.store.lobby().take_seek(id).await? else {
        return Err(gone());
    };
    if local(app) {
        announce_removed(app, id);
    }
    let seeker_side = match seek.side.as_str() {
        "white" => Side::White,
        "black" => Side::Black,
        _ => app.pick_side(Some("random"))?,
    };
    let token = new_token(app, 24);
    let accepting = Seat {
        token: token.clone(),
        account: acceptor.account.clone(),
        name: acceptor
            .account
            .as_ref()
            .map(|a| a.name.clone())
            .or_else(|| acceptor.name.clone()),
        bot: acceptor.bot,
    };
    let game = make_game(app, &seek, seeker_side, accepting).await?;
    deliver(app, &seek, &game, seeker_side).await;
    Ok(Paired {
        seek: seek.id.clone(),
        game,
        token,
        side: seeker_side.opponent(),
    })
}

/// The seeker's seat of a taken seek.
fn seat_of(row: &SeekRow) -> Seat {
    Seat {
        token: row.token.clone(),
        account: row.user.clone().map(|id| Account {
            id,
            name: row.name.clone().unwrap_or_default(),
        }),
        name: row.name.clone(),
        bot: row.bot,
    }
}

/// Stores the game of a taken seek (`seek`'s seeker on `side`); its id.
async fn make_game(
    app: &Arc<App>,
    seek: &SeekRow,
    side: Side,
    other: Seat,
) -> Result<String, ApiError> {
    let variant = match seek.variant.as_str() {
        "basic" => Variant::Basic,
        "standard" => Variant::Standard,
        other => {
            return Err(ApiError::internal(format!(
                "seek {}: variant {other:?}",
                seek.id
            )))
        }
    };
    let clock = seek.clock.as_deref().and_then(TimeControl::from_stored);
    let (white, black) = match side {
        Side::White => (seat_of(seek), other),
        Side::Black => (other, seat_of(seek)),
    };
    let game = app.paired_game(variant, clock, seek.rated, white, black)?;
    let stored = app
        .open_game(game, crate::limits::ClientKey::server())
        .await?;
    Ok(stored.row.id)
}

/// Hands a taken seek's game to its seeker: here if its socket is here,
/// else through the database to the instance that holds it.
async fn deliver(app: &App, seek: &SeekRow, game: &str, side: Side) {
    let here = app.lobby.mine.lock().expect("lobby lock").remove(&seek.id);
    match here {
        Some(mine) => {
            let _ = mine.socket.try_send(SeekNews::Paired(Paired {
                seek: seek.id.clone(),
                game: game.to_string(),
                token: mine.token,
                side,
            }));
        }
        None => {
            if let Err(e) = app.store.lobby().announce_paired(&seek.id, game).await {
                tracing::warn!("seek {}: announcing game {game}: {e}", seek.id);
            }
        }
    }
}

/// Tells the socket holding challenge `seek`, if it is here, that it was
/// declined.
pub(crate) fn tell_declined(app: &App, seek: &str) {
    let here = app.lobby.mine.lock().expect("lobby lock").remove(seek);
    if let Some(mine) = here {
        let _ = mine.socket.try_send(SeekNews::Declined(seek.to_string()));
    }
}

/// Tries to pair this instance's pool entry `id` with the closest rating
/// of the same time control within the range its wait allows.
async fn try_pair(app: &Arc<App>, id: &str) {
    let me = {
        let mine = app.lobby.mine.lock().expect("lobby lock");
        match mine.get(id) {
            Some(m) => m.row.clone(),
            None => return,
        }
    };
    let pool = match app
        .store
        .lobby()
        .pool(&me.variant, me.clock.as_deref())
        .await
    {
        Ok(pool) => pool,
        Err(e) => {
            tracing::warn!("reading the quick-pairing pool: {e}");
            return;
        }
    };
    // Nobody is paired with someone they block or who blocks them.
    let blocked: Vec<String> = match &me.user {
        Some(user) => match app.store.accounts().blocks(user).await {
            Ok(rows) => rows
                .into_iter()
                .map(|b| if b.user == *user { b.other } else { b.user })
                .collect(),
            Err(e) => {
                tracing::warn!("reading the blocks of {user}: {e}");
                return;
            }
        },
        None => Vec::new(),
    };
    let now = now_ms();
    let rating = |r: &SeekRow| r.rating.unwrap_or(DEFAULT_RATING);
    let best = pool
        .iter()
        .filter(|o| o.id != me.id && o.rated == me.rated && !o.bot)
        .filter(|o| o.user.as_ref().is_none_or(|u| !blocked.contains(u)))
        .filter(|o| match (&o.user, &me.user) {
            (Some(a), Some(b)) => a != b,
            _ => true,
        })
        .filter(|o| {
            // Casual pairing takes anyone; rated pairing widens with the
            // longer of the two waits.
            let waited = (now - o.created.min(me.created)).max(0) / 1000;
            !me.rated || (rating(o) - rating(&me)).abs() <= RANGE_START + RANGE_PER_SECOND * waited
        })
        .min_by_key(|o| ((rating(o) - rating(&me)).abs(), o.created))
        .cloned();
    let Some(other) = best else {
        return;
    };
    let taken = match app.store.lobby().take_pair(&me.id, &other.id).await {
        Ok(Some(pair)) => pair,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!("pairing {} and {}: {e}", me.id, other.id);
            return;
        }
    };
    let (a, b) = taken;
    if local(app) {
        announce_removed(app, &a.id);
        announce_removed(app, &b.id);
    }
    let a_side = match app.pick_side(Some("random")) {
        Ok(side) => side,
        Err(_) => Side::White,
    };
    let game = match make_game(app, &a, a_side, seat_of(&b)).await {
        Ok(game) => game,
        Err(e) => {
            tracing::warn!("pairing {} and {}: the game: {}", a.id, b.id, e.message);
            return;
        }
    };
    deliver(app, &a, &game, a_side).await;
    deliver(app, &b, &game, a_side.opponent()).await;
}

/// The lobby's upkeep on this instance until the server stops: its pool
/// entries tried again every second (their range widening), its seeks
/// confirmed, and seeks of dead instances removed.
pub(crate) async fn upkeep(app: Arc<App>) {
    let mut stopping = app.stopping.subscribe();
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    let mut ticks: u64 = 0;
    let Some(mut news) = app.lobby.news_rx.lock().expect("lobby lock").take() else {
        return;
    };
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            Some(change) = news.recv() => {
                // Each on its own: a slow read does not hold up the rest.
                let app = app.clone();
                tokio::spawn(async move { on_change(&app, &change).await });
                continue;
            }
            _ = stopping.changed() => return,
        }
        ticks += 1;
        let pool: Vec<String> = app
            .lobby
            .mine
            .lock()
            .expect("lobby lock")
            .iter()
            .filter(|(_, m)| m.row.kind == "pool")
            .map(|(id, _)| id.clone())
            .collect();
        for id in pool {
            try_pair(&app, &id).await;
        }
        if ticks.is_multiple_of(5) {
            let now = now_ms();
            let lobby = app.store.lobby();
            if let Err(e) = lobby.renew(&app.jobs.lease.owner, now).await {
                tracing::warn!("confirming this instance's seeks: {e}");
            }
            match lobby.forget(now - SEEK_EXPIRY_MS).await {
                Ok(ids) if local(&app) => ids.iter().for_each(|id| announce_removed(&app, id)),
                Ok(_) => {}
                Err(e) => tracing::warn!("removing seeks of stopped instances: {e}"),
            }
        }
    }
}

/// Whether this instance announces lobby changes itself (SQLite).
pub(crate) fn announces_itself(app: &App) -> bool {
    local(app)
}

/// Tells this instance's watchers that seek `id` left the lobby.
pub(crate) fn removed(app: &App, id: &str) {
    announce_removed(app, id);
}

/// What another instance announced about the lobby (PostgreSQL).
pub(crate) async fn on_change(app: &Arc<App>, change: &Change) {
    match change {
        Change::Seek { id, added: true } => match app.store.lobby().seek(id).await {
            Ok(Some(row)) => announce_added(app, &row),
            Ok(None) => {}
            Err(e) => tracing::warn!("reading seek {id}: {e}"),
        },
        Change::Seek { id, added: false } => announce_removed(app, id),
        Change::Paired { seek, game } => {
            let here = app.lobby.mine.lock().expect("lobby lock").remove(seek);
            if let Some(mine) = here {
                let side = match app.store.load(game).await {
                    Ok(Some(row)) if row.white_token.as_deref() == Some(mine.token.as_str()) => {
                        Side::White
                    }
                    Ok(Some(_)) => Side::Black,
                    Ok(None) | Err(_) => {
                        tracing::warn!("seek {seek}: its game {game} cannot be read");
                        return;
                    }
                };
                let _ = mine.socket.try_send(SeekNews::Paired(Paired {
                    seek: seek.clone(),
                    game: game.clone(),
                    token: mine.token,
                    side,
                }));
            }
        }
        Change::Declined { seek } => tell_declined(app, seek),
        _ => {}
    }
}
