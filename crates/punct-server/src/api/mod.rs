//! The HTTP side: every route and its handler, grouped by concern. A
//! handler reads the request (`http.rs`: bodies, query strings, JSON
//! answers), calls the logic of its concern (the change path, the games'
//! rules, creation, analysis, learning) and shows the result as JSON;
//! nothing below this module knows of requests or status codes except
//! through `ApiError`.

mod accounts;
mod analysis;
mod bot;
mod challenges;
mod games;
pub(crate) mod http;
mod learn;
mod live;
mod lobby;
mod notes;
mod openapi;
pub(crate) mod ops;
mod passkeys;
mod upgrade;
mod users;

use crate::app::App;
use crate::error::ApiError;
use crate::limits::{self, Kind};
use crate::web;
use axum::extract::{DefaultBodyLimit, Path, Request};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use axum::Router;
use http::BODY_LIMIT;
use std::sync::Arc;

/// What a request to a route costs its client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Limit {
    /// A token of this kind's bucket (limits.rs), or 429.
    Bucket(Kind),
    /// Nothing, for a read that costs next to nothing; says why.
    Free(&'static str),
}

/// A page of the site: the same embedded HTML whatever the address.
const PAGE: Limit = Limit::Free(PAGE_WHY);
const PAGE_WHY: &str = "the page, embedded";
/// The page's files, built in.
const FILES: Limit = Limit::Free(FILES_WHY);
const FILES_WHY: &str = "embedded files";

/// One route: its method, path, what it costs, and its handler.
pub(crate) struct Route {
    /// (Read by the tests that walk the table; the handler knows it too.)
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) method: Method,
    pub(crate) path: &'static str,
    pub(crate) limit: Limit,
    handler: MethodRouter<Arc<App>>,
}

impl Route {
    pub(crate) fn get<H: Handler<T, Arc<App>>, T: 'static>(
        path: &'static str,
        limit: Limit,
        handler: H,
    ) -> Route {
        Route {
            method: Method::GET,
            path,
            limit,
            handler: axum::routing::get(handler),
        }
    }

    pub(crate) fn post<H: Handler<T, Arc<App>>, T: 'static>(
        path: &'static str,
        limit: Limit,
        handler: H,
    ) -> Route {
        Route {
            method: Method::POST,
            path,
            limit,
            handler: axum::routing::post(handler),
        }
    }
}

/// Every route the server answers: the router is made of this table and
/// nothing else, so no route escapes its limit.
pub(crate) fn routes() -> Vec<Route> {
    use Kind::*;
    use Limit::{Bucket, Free};
    let mut all = vec![
        Route::get("/", PAGE, page),
        Route::get("/game/{id}", PAGE, page),
        Route::get("/rules", PAGE, page),
        Route::get("/learn", PAGE, page),
        Route::get("/learn/{lesson}", PAGE, page),
        Route::get("/puzzles", PAGE, page),
        Route::get("/puzzles/{id}", PAGE, page),
        Route::get("/analysis", PAGE, page),
        Route::get("/editor", PAGE, page),
        Route::get("/signin", PAGE, page),
        Route::get("/signup", PAGE, page),
        Route::get("/account", PAGE, page),
        Route::get("/@/{name}", PAGE, page),
        Route::get("/leaderboard", PAGE, page),
        Route::get("/leaderboard/{category}", PAGE, page),
        Route::get("/static/{*file}", FILES, static_file),
        Route::get("/sw.js", FILES, service_worker),
        // Accounts: each of these checks a password (argon2id).
        Route::post("/api/account/signup", Bucket(Account), accounts::sign_up),
        Route::post("/api/account/signin", Bucket(Account), accounts::sign_in),
        Route::post(
            "/api/account/password",
            Bucket(Account),
            accounts::change_password,
        ),
        Route::post("/api/account/delete", Bucket(Account), accounts::delete),
        // Passkeys: a start draws a challenge and keeps one short-lived
        // row (Seat, as a claim's write); a finish checks a signature and
        // may open a session (Account, as a sign-in).
        Route::post(
            "/api/account/passkey/signup/start",
            Bucket(Seat),
            passkeys::sign_up_start,
        ),
        Route::post(
            "/api/account/passkey/signup/finish",
            Bucket(Account),
            passkeys::sign_up_finish,
        ),
        Route::post(
            "/api/account/passkey/add/start",
            Bucket(Seat),
            passkeys::add_start,
        ),
        Route::post(
            "/api/account/passkey/add/finish",
            Bucket(Account),
            passkeys::add_finish,
        ),
        Route::post(
            "/api/account/passkey/signin/start",
            Bucket(Seat),
            passkeys::sign_in_start,
        ),
        Route::post(
            "/api/account/passkey/signin/finish",
            Bucket(Account),
            passkeys::sign_in_finish,
        ),
        Route::post(
            "/api/account/passkey/remove",
            Bucket(Seat),
            passkeys::remove,
        ),
        Route::post("/api/account/signout", Bucket(Seat), accounts::sign_out),
        Route::get("/api/account", Bucket(Read), accounts::account),
        Route::get("/api/account/games", Bucket(List), accounts::records),
        Route::get("/api/account/turns", Bucket(List), users::turns),
        Route::get("/api/account/notifications", Bucket(List), notes::list),
        Route::post("/api/account/notifications/read", Bucket(Seat), notes::read),
        Route::get("/api/account/live", Bucket(WebSocket), notes::live),
        Route::post("/api/account/seats", Bucket(Seat), accounts::attach),
        // API tokens: made, listed and removed signed in (cookie); a
        // bot's program signs in with one (api/bot.rs).
        Route::post("/api/account/tokens", Bucket(Seat), accounts::create_token),
        Route::get("/api/account/tokens", Bucket(Read), accounts::tokens),
        Route::post(
            "/api/account/tokens/remove",
            Bucket(Seat),
            accounts::remove_token,
        ),
        Route::get("/api/bot/account", Bucket(Read), bot::account),
        Route::post("/api/bot/account/upgrade", Bucket(Seat), bot::upgrade),
        // A bot's streams are long-lived connections, as live sockets.
        Route::get(
            "/api/bot/stream/event",
            Bucket(WebSocket),
            bot::event_stream,
        ),
        Route::get(
            "/api/bot/game/stream/{id}",
            Bucket(WebSocket),
            bot::game_stream,
        ),
        Route::post(
            "/api/bot/game/{id}/move/{*move}",
            Bucket(Move),
            bot::post_move,
        ),
        Route::post("/api/bot/game/{id}/resign", Bucket(Move), bot::post_resign),
        Route::post(
            "/api/bot/challenge/{id}/accept",
            Bucket(Create),
            bot::post_challenge_accept,
        ),
        Route::post(
            "/api/bot/challenge/{id}/decline",
            Bucket(Seat),
            bot::post_challenge_decline,
        ),
        Route::post("/api/bot/game/{id}/abort", Bucket(Move), bot::post_abort),
        Route::post("/api/bot/seek", Bucket(Create), bot::post_seek),
        Route::post("/api/bot/seek/cancel", Bucket(Seat), bot::post_seek_cancel),
        Route::get("/api/users/{name}", Bucket(Read), users::profile),
        Route::get("/api/users/{name}/games", Bucket(List), users::games),
        Route::get(
            "/api/users/{name}/ratings/{category}",
            Bucket(Read),
            users::history,
        ),
        Route::get(
            "/api/leaderboard/{category}",
            Bucket(List),
            users::leaderboard,
        ),
        Route::get("/api/lobby", Bucket(List), lobby::seeks),
        Route::get("/api/challenges", Bucket(Read), challenges::list),
        // Accepting makes a game: it counts as one.
        Route::post(
            "/api/challenges/{id}/accept",
            Bucket(Create),
            challenges::accept,
        ),
        Route::post(
            "/api/challenges/{id}/decline",
            Bucket(Seat),
            challenges::decline,
        ),
        Route::get("/api/account/blocks", Bucket(Read), challenges::blocks),
        Route::post("/api/users/{name}/block", Bucket(Seat), challenges::block),
        Route::post(
            "/api/users/{name}/unblock",
            Bucket(Seat),
            challenges::unblock,
        ),
        Route::get("/api/lobby/live", Bucket(WebSocket), lobby::live),
        Route::get("/api/games/{id}/rating", Bucket(Read), users::game_rating),
        Route::get("/api/games", Bucket(List), games::list_games),
        // A rematch may begin a game: it counts as one.
        Route::post("/api/games", Bucket(Create), games::create_game),
        Route::post(
            "/api/games/{id}/rematch",
            Bucket(Create),
            games::post_rematch,
        ),
        Route::post("/api/games/import", Bucket(Import), games::import_game),
        Route::get("/api/games/{id}", Bucket(Read), games::get_game),
        Route::get("/api/games/{id}/record", Bucket(Read), games::get_record),
        Route::get("/api/board", Bucket(Read), games::board),
        // The API's description (openapi.rs), checked against this table.
        Route::get("/api/openapi.json", Bucket(Read), openapi::openapi),
        Route::post("/api/games/{id}/moves", Bucket(Move), games::post_move),
        Route::post("/api/games/{id}/resign", Bucket(Move), games::post_resign),
        Route::post("/api/games/{id}/chat", Bucket(Move), games::post_chat),
        Route::post("/api/games/{id}/abort", Bucket(Move), games::post_abort),
        Route::post("/api/games/{id}/draw", Bucket(Move), games::post_draw),
        Route::post(
            "/api/games/{id}/takeback",
            Bucket(Move),
            games::post_takeback,
        ),
        Route::post("/api/games/{id}/abandon", Bucket(Move), games::post_abandon),
        Route::post("/api/games/{id}/claim", Bucket(Seat), games::post_claim),
        Route::post("/api/games/{id}/token", Bucket(Seat), games::post_token),
        Route::post("/api/games/{id}/seat", Bucket(Seat), games::post_seat),
        Route::post("/api/games/{id}/invite", Bucket(Seat), games::post_invite),
        Route::post("/api/games/{id}/name", Bucket(Seat), games::post_name),
        Route::get("/api/games/{id}/live", Bucket(WebSocket), live::live),
        Route::post("/api/analyse", Bucket(Analyse), analysis::analyse),
        Route::post(
            "/api/games/{id}/analyse",
            Bucket(Analyse),
            analysis::analyse_game,
        ),
        Route::get(
            "/api/status",
            Free("two counts, for operators"),
            ops::status,
        ),
        Route::get(
            "/api/health",
            Free("the readiness check: balancers ask often"),
            ops::health,
        ),
        Route::get(
            "/metrics",
            Free("scraped by the operator's Prometheus"),
            ops::metrics,
        ),
    ];
    all.extend(learn::routes());
    all
}

pub(crate) fn router(app: Arc<App>) -> Router {
    let mut router = Router::new();
    for route in routes() {
        let handler = match route.limit {
            Limit::Bucket(kind) => route
                .handler
                .route_layer(axum::middleware::from_fn_with_state(
                    (app.rates.clone(), kind),
                    limits::limit,
                )),
            // The page and its files go compressed (brotli or gzip, as the
            // browser accepts): a tenth to a third of their size.
            Limit::Free(why) if why == PAGE_WHY || why == FILES_WHY => route.handler.layer(
                // Level 6 of brotli's 11: near its best for these files
                // at a fraction of its cost, and they are mostly
                // answered 304 anyway (their entity tags).
                tower_http::compression::CompressionLayer::new()
                    .quality(tower_http::CompressionLevel::Precise(6)),
            ),
            Limit::Free(_) => route.handler,
        };
        // (Two methods on one path make one route.)
        router = router.route(route.path, handler);
    }
    router
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

// ------------------------------------------------------------ pages

pub(crate) async fn page(headers: HeaderMap) -> Response {
    let bytes = web::page();
    tagged(HTML_TYPE, bytes.into(), NO_CACHE, &headers)
}

const HTML_TYPE: &str = "text/html; charset=utf-8";
/// Asked again each time (answered 304 while unchanged): the page, the
/// service worker, and files named without a release.
const NO_CACHE: &str = "no-cache";
/// A file under this release's prefix never changes.
const FOREVER: &str = "public, max-age=31536000, immutable";

pub(crate) async fn static_file(Path(file): Path<String>, headers: HeaderMap) -> Response {
    let (name, this_release) = web::unversioned(&file);
    // (`from_dir` reads only the names of built-in files.)
    let found = match web::from_dir(name) {
        Some((t, b)) => Some((t, std::borrow::Cow::Owned(b))),
        None => web::file(name).map(|(t, b)| (t, std::borrow::Cow::Borrowed(b))),
    };
    let Some((content_type, bytes)) = found else {
        return ApiError::not_found("not_found", format!("no file `{file}`")).into_response();
    };
    let cache = if this_release { FOREVER } else { NO_CACHE };
    tagged(content_type, bytes, cache, &headers)
}

/// The service worker, at the site's root so that it serves every page.
pub(crate) async fn service_worker(headers: HeaderMap) -> Response {
    let text = web::service_worker().into_bytes();
    tagged(
        "text/javascript; charset=utf-8",
        text.into(),
        NO_CACHE,
        &headers,
    )
}

/// A file with its entity tag and `cache` rule: a browser that holds
/// this version asks with `If-None-Match` and gets 304 with no body.
fn tagged(
    content_type: &'static str,
    bytes: std::borrow::Cow<'static, [u8]>,
    cache: &'static str,
    headers: &HeaderMap,
) -> Response {
    let tag = web::entity_tag(&bytes);
    let cache = [
        (header::ETAG, tag.clone()),
        (header::CACHE_CONTROL, cache.to_string()),
    ];
    let held = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    if held {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        cache,
        [(header::CONTENT_TYPE, content_type)],
        bytes.into_owned(),
    )
        .into_response()
}

pub(crate) async fn method_not_allowed(req: Request) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{} is not allowed on {} (docs/API.md lists the methods)",
            req.method(),
            req.uri().path()
        ),
    )
}

/// An address nothing answers: a browser asking for a page (a GET that
/// accepts HTML, outside `/api/` and `/static/`) gets the page, which says
/// "no such page" in its language with a way back, under status 404;
/// everything else the JSON error.
pub(crate) async fn not_found(req: Request) -> Response {
    let path = req.uri().path();
    let wants_page = matches!(*req.method(), Method::GET | Method::HEAD)
        && !path.starts_with("/api/")
        && !path.starts_with("/static/")
        && req
            .headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"));
    if wants_page {
        // (Never a 304: the answer is the 404's.)
        let mut page = tagged(HTML_TYPE, web::page().into(), NO_CACHE, &HeaderMap::new());
        *page.status_mut() = StatusCode::NOT_FOUND;
        return page;
    }
    ApiError::not_found(
        "not_found",
        format!("no such endpoint: {} {}", req.method(), req.uri().path()),
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit_of(method: &Method, path: &str) -> Option<Limit> {
        routes()
            .into_iter()
            .find(|r| r.method == method && r.path == path)
            .map(|r| r.limit)
    }

    /// Every write and every read that costs the server something takes a
    /// token; the free routes are the ones listed here, and only reads.
    #[test]
    fn every_route_but_cheap_reads_has_a_bucket() {
        let mut free = Vec::new();
        for route in routes() {
            if let Limit::Free(why) = route.limit {
                assert_eq!(
                    route.method,
                    Method::GET,
                    "{} {} is free",
                    route.method,
                    route.path
                );
                assert!(!why.is_empty());
                free.push(route.path);
            }
        }
        free.sort_unstable();
        assert_eq!(
            free,
            [
                "/",
                "/@/{name}",
                "/account",
                "/analysis",
                "/api/health",
                "/api/status",
                "/editor",
                "/game/{id}",
                "/leaderboard",
                "/leaderboard/{category}",
                "/learn",
                "/learn/{lesson}",
                "/metrics",
                "/puzzles",
                "/puzzles/{id}",
                "/rules",
                "/signin",
                "/signup",
                "/static/{*file}",
                "/sw.js",
            ]
        );
        let mut seen = std::collections::HashSet::new();
        for route in routes() {
            assert!(
                seen.insert((route.method.clone(), route.path)),
                "{} twice",
                route.path
            );
        }
    }

    #[test]
    fn requests_are_sorted_into_their_buckets() {
        use Kind::*;
        let post = Method::POST;
        let get = Method::GET;
        for (method, path, kind) in [
            (&post, "/api/games", Create),
            (&post, "/api/games/{id}/rematch", Create),
            (&post, "/api/games/import", Import),
            (&post, "/api/games/{id}/moves", Move),
            (&post, "/api/games/{id}/claim", Seat),
            (&post, "/api/games/{id}/token", Seat),
            (&post, "/api/games/{id}/invite", Seat),
            (&post, "/api/games/{id}/name", Seat),
            (&post, "/api/analyse", Analyse),
            (&post, "/api/games/{id}/analyse", Analyse),
            (&get, "/api/games/{id}/live", WebSocket),
            (&get, "/api/games", List),
            (&get, "/api/games/{id}", Read),
            (&get, "/api/openapi.json", Read),
            (&post, "/api/learn/puzzles/{id}/try", Read),
            (&post, "/api/account/passkey/signup/start", Seat),
            (&post, "/api/account/passkey/signin/start", Seat),
            (&post, "/api/account/passkey/add/start", Seat),
            (&post, "/api/account/passkey/signup/finish", Account),
            (&post, "/api/account/passkey/signin/finish", Account),
            (&post, "/api/account/passkey/add/finish", Account),
            (&post, "/api/account/passkey/remove", Seat),
            (&post, "/api/challenges/{id}/accept", Create),
            (&post, "/api/challenges/{id}/decline", Seat),
            (&post, "/api/users/{name}/block", Seat),
            (&post, "/api/account/tokens", Seat),
            (&get, "/api/account/tokens", Read),
            (&post, "/api/account/tokens/remove", Seat),
            (&get, "/api/bot/account", Read),
            (&post, "/api/bot/account/upgrade", Seat),
            (&get, "/api/bot/stream/event", WebSocket),
            (&get, "/api/bot/game/stream/{id}", WebSocket),
            (&post, "/api/bot/game/{id}/move/{*move}", Move),
            (&post, "/api/bot/game/{id}/resign", Move),
            (&post, "/api/bot/challenge/{id}/accept", Create),
            (&post, "/api/bot/challenge/{id}/decline", Seat),
            (&post, "/api/bot/game/{id}/abort", Move),
            (&post, "/api/bot/seek", Create),
            (&post, "/api/bot/seek/cancel", Seat),
        ] {
            assert_eq!(
                limit_of(method, path),
                Some(Limit::Bucket(kind)),
                "{method} {path}"
            );
        }
    }
}
