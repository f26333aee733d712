//! The accounts and ratings on both backends: every test runs on a new
//! SQLite file and, where `PUNCT_TEST_DATABASE_URL` names a PostgreSQL
//! cluster (`scripts/postgres.sh start DIR`), on a new database there.

use super::*;
use crate::{GameRow, ListFilter, Mode, Storage};
use punct_core::{Outcome, Side};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A store for one test, with what it needs kept alive (the lobby's
/// tests use it too).
pub(crate) struct Db {
    pub(crate) store: Arc<dyn Storage>,
    pub(crate) dir: Option<PathBuf>,
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

static N: AtomicUsize = AtomicUsize::new(0);

pub(crate) fn unique() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{}_{}_{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    )
}

pub(crate) fn sqlite() -> Db {
    let dir = std::env::temp_dir().join(format!("punct-accounts-test-{}", unique()));
    let store = crate::sqlite::Store::open(&dir, crate::SyncMode::Normal).unwrap();
    Db {
        store: Arc::new(store),
        dir: Some(dir),
    }
}

/// A new, empty database on the test cluster: its URL; `None` without
/// one (under `PUNCT_REQUIRE_POSTGRES=1` a missing cluster fails).
pub(crate) async fn empty_postgres(test: &str) -> Option<String> {
    let cluster = std::env::var("PUNCT_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    let Some(cluster) = cluster else {
        if std::env::var("PUNCT_REQUIRE_POSTGRES").is_ok_and(|v| v == "1") {
            panic!("PUNCT_REQUIRE_POSTGRES=1 but PUNCT_TEST_DATABASE_URL is not set");
        }
        eprintln!("{test}: skipped on PostgreSQL (PUNCT_TEST_DATABASE_URL is not set)");
        return None;
    };
    let name = format!("punct_store_{}", unique());
    let (client, connection) = tokio_postgres::connect(&cluster, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    // A name of our own making: nothing to quote.
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    let base = cluster
        .rsplit_once('/')
        .map_or(cluster.as_str(), |(b, _)| b);
    Some(format!("{base}/{name}"))
}

/// A new, migrated database on the test cluster; `None` without one
/// (under `PUNCT_REQUIRE_POSTGRES=1` a missing cluster fails).
pub(crate) async fn postgres(test: &str) -> Option<Db> {
    let url = empty_postgres(test).await?;
    crate::postgres::migrate(&url).await.unwrap();
    let store = crate::postgres::Store::open(&url).await.unwrap();
    Some(Db {
        store: Arc::new(store),
        dir: None,
    })
}

/// `test` on SQLite and on PostgreSQL (where there is a cluster).
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::sqlite()).await;
                }
            )*
        }
        mod on_postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(db) = super::postgres(stringify!($name)).await {
                        super::$name(db).await;
                    }
                }
            )*
        }
    };
}

both!(
    users_are_stored_and_their_names_taken_once,
    sessions_live_until_they_expire_or_are_removed,
    passkeys_and_tokens_are_added_used_and_removed,
    a_deleted_user_keeps_name_games_and_history_but_no_credentials,
    a_rated_game_is_applied_once,
    a_rating_computed_from_a_moved_row_is_stale,
    one_of_eight_concurrent_applications_of_a_game_lands,
    two_games_computed_from_one_row_land_once,
    the_leaderboard_shows_active_established_living_players_best_first,
    lists_filter_by_user_side_rating_variant_result_and_page,
    a_users_stats_count_ended_games_per_variant_and_side,
    credentials_need_a_stored_user,
    a_passkey_account_is_made_whole_or_not_at_all,
    the_last_way_to_sign_in_is_kept_even_under_a_race,
    a_ceremony_is_taken_once_and_not_after_it_expires,
    one_of_eight_concurrent_takes_of_a_ceremony_gets_it,
    an_account_becomes_a_bot_only_before_its_first_game,
    conduct_is_noted_once_per_game_and_read_by_time,
);

fn user(id: &str, name: &str) -> UserRow {
    UserRow {
        id: id.into(),
        name: name.into(),
        name_key: name.to_lowercase(),
        created: 100,
        seen: 100,
        password: Some(format!("$argon2id$v=19$m=19456,t=2,p=1$salt${id}")),
        bot: false,
        deleted: false,
    }
}

async fn with_users(a: &dyn AccountStore, ids: &[&str]) {
    for id in ids {
        a.create_user(user(id, &format!("Name-{id}")))
            .await
            .unwrap();
    }
}

fn session(hash: &str, user: &str, expires: i64) -> SessionRow {
    SessionRow {
        hash: hash.into(),
        user: user.into(),
        created: 10,
        seen: 10,
        expires,
        agent: "Firefox".into(),
    }
}

/// One side of a rated game in `category`: `user` against `opponent`,
/// from a row that counted `expected` games, to `rating`.
fn side(user: &str, opponent: &str, expected: i64, rating: f64, score: f64) -> RatedSide {
    RatedSide {
        new: RatingRow {
            user: user.into(),
            category: "standard".into(),
            rating,
            deviation: 200.0,
            volatility: 0.06,
            games: expected + 1,
            updated: 1000,
        },
        expected_games: expected,
        score,
        opponent: opponent.into(),
        change: rating - 1500.0,
    }
}

/// Game `game`: `white` beat `black`, each from a row that counted
/// `expected` games.
fn rated(game: &str, white: (&str, i64), black: (&str, i64), at: i64) -> RatedResult {
    let mut result = RatedResult {
        game: game.into(),
        at,
        sides: [
            side(white.0, black.0, white.1, 1512.0, 1.0),
            side(black.0, white.0, black.1, 1488.0, 0.0),
        ],
    };
    for s in &mut result.sides {
        s.new.updated = at;
    }
    result
}

fn ended(
    id: &str,
    white: Option<&str>,
    black: Option<&str>,
    outcome: Option<Outcome>,
    updated: i64,
) -> GameRow {
    GameRow {
        id: id.into(),
        variant: "standard".into(),
        mode: Mode::Online,
        start: "start".into(),
        created: updated,
        updated,
        version: 1,
        finished: outcome,
        white_user: white.map(str::to_string),
        black_user: black.map(str::to_string),
        ..GameRow::default()
    }
}

async fn users_are_stored_and_their_names_taken_once(db: Db) {
    let a = db.store.accounts();
    let ada = user("u1", "Ada");
    a.create_user(ada.clone()).await.unwrap();
    // The same name in other letters has the same key: taken.
    let shout = UserRow {
        id: "u2".into(),
        name: "ADA".into(),
        name_key: "ada".into(),
        ..user("u2", "ADA")
    };
    assert!(matches!(
        a.create_user(shout).await,
        Err(AccountError::Taken)
    ));
    // So is the id.
    assert!(matches!(
        a.create_user(user("u1", "Other")).await,
        Err(AccountError::Taken)
    ));
    let bot = UserRow {
        bot: true,
        password: None,
        ..user("u3", "Robo")
    };
    a.create_user(bot.clone()).await.unwrap();
    assert_eq!(a.user("u1").await.unwrap(), Some(ada.clone()));
    assert_eq!(a.user("u2").await.unwrap(), None);
    assert_eq!(a.user_by_key("ada").await.unwrap(), Some(ada.clone()));
    assert_eq!(a.user_by_key("ADA").await.unwrap(), None);
    assert_eq!(a.user_by_key("robo").await.unwrap(), Some(bot.clone()));
    // In the order asked, the missing left out.
    let ids: Vec<String> = ["u3", "nobody", "u1"].map(String::from).to_vec();
    assert_eq!(a.users(&ids).await.unwrap(), vec![bot.clone(), ada.clone()]);
    assert_eq!(a.users(&[]).await.unwrap(), vec![]);
    a.set_password("u1", Some("$argon2id$new")).await.unwrap();
    a.set_seen("u1", 999).await.unwrap();
    let changed = a.user("u1").await.unwrap().unwrap();
    assert_eq!(changed.password.as_deref(), Some("$argon2id$new"));
    assert_eq!(changed.seen, 999);
    a.set_password("u1", None).await.unwrap();
    assert_eq!(a.user("u1").await.unwrap().unwrap().password, None);
}

async fn sessions_live_until_they_expire_or_are_removed(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["u1", "u2"]).await;
    for s in [
        session("h1", "u1", 1000),
        session("h2", "u1", 2000),
        session("h3", "u1", 500),
        session("h4", "u2", 3000),
    ] {
        a.create_session(s).await.unwrap();
    }
    // Valid while now < expires.
    let (s, u) = a.session("h1", 999).await.unwrap().unwrap();
    assert_eq!((s, u.id.as_str()), (session("h1", "u1", 1000), "u1"));
    assert_eq!(a.session("h1", 1000).await.unwrap(), None);
    assert_eq!(a.session("nope", 0).await.unwrap(), None);
    // A session in use lasts.
    a.touch_session("h1", 900, 5000).await.unwrap();
    let (s, _) = a.session("h1", 1000).await.unwrap().unwrap();
    assert_eq!((s.seen, s.expires), (900, 5000));
    // Every one of the user's, last seen first.
    let hashes = |list: Vec<SessionRow>| list.into_iter().map(|s| s.hash).collect::<Vec<_>>();
    assert_eq!(hashes(a.sessions("u1").await.unwrap()), ["h1", "h2", "h3"]);
    // The expired go (those no longer valid), the others stay.
    assert_eq!(a.expire_sessions(1000).await.unwrap(), 1);
    assert_eq!(hashes(a.sessions("u1").await.unwrap()), ["h1", "h2"]);
    assert!(a.delete_session("h2").await.unwrap());
    assert!(!a.delete_session("h2").await.unwrap());
    a.create_session(session("h5", "u1", 9000)).await.unwrap();
    a.create_session(session("h6", "u1", 9000)).await.unwrap();
    // Signing out everywhere else.
    assert_eq!(a.delete_sessions("u1", Some("h5")).await.unwrap(), 2);
    assert_eq!(hashes(a.sessions("u1").await.unwrap()), ["h5"]);
    assert_eq!(a.delete_sessions("u1", None).await.unwrap(), 1);
    assert_eq!(a.sessions("u1").await.unwrap(), vec![]);
    // Another user's are left alone; a deleted user's do not count.
    assert_eq!(hashes(a.sessions("u2").await.unwrap()), ["h4"]);
    assert!(a.session("h4", 0).await.unwrap().is_some());
    a.delete_user("u2").await.unwrap();
    assert_eq!(a.session("h4", 0).await.unwrap(), None);
}

async fn passkeys_and_tokens_are_added_used_and_removed(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["u1", "u2"]).await;
    let key = |id: &str, user: &str, created: i64| PasskeyRow {
        id: id.into(),
        user: user.into(),
        name: format!("key {id}"),
        data: format!("{{\"cred\":\"{id}\",\"counter\":0}}"),
        created,
        used: None,
    };
    a.add_passkey(key("k2", "u1", 20)).await.unwrap();
    a.add_passkey(key("k1", "u1", 10)).await.unwrap();
    a.add_passkey(key("k3", "u2", 10)).await.unwrap();
    assert!(matches!(
        a.add_passkey(key("k1", "u2", 30)).await,
        Err(AccountError::Taken)
    ));
    assert_eq!(
        a.passkeys("u1").await.unwrap(),
        vec![key("k1", "u1", 10), key("k2", "u1", 20)]
    );
    assert_eq!(a.passkey("k3").await.unwrap(), Some(key("k3", "u2", 10)));
    assert_eq!(a.passkey("k9").await.unwrap(), None);
    a.update_passkey("k1", "{\"counter\":7}", 77).await.unwrap();
    let used = a.passkey("k1").await.unwrap().unwrap();
    assert_eq!(
        (used.data.as_str(), used.used),
        ("{\"counter\":7}", Some(77))
    );
    // Only the owner removes a key.
    assert_eq!(
        a.remove_passkey("u2", "k1").await.unwrap(),
        PasskeyRemoval::NotFound
    );
    assert_eq!(
        a.remove_passkey("u1", "k1").await.unwrap(),
        PasskeyRemoval::Removed
    );
    assert_eq!(
        a.remove_passkey("u1", "k1").await.unwrap(),
        PasskeyRemoval::NotFound
    );
    // With a password, the last passkey goes too.
    assert_eq!(
        a.remove_passkey("u2", "k3").await.unwrap(),
        PasskeyRemoval::Removed
    );
    assert_eq!(a.passkeys("u1").await.unwrap(), vec![key("k2", "u1", 20)]);

    let token = |hash: &str, user: &str, created: i64| TokenRow {
        hash: hash.into(),
        user: user.into(),
        label: format!("bot {hash}"),
        created,
        used: None,
    };
    a.add_token(token("t2", "u1", 20)).await.unwrap();
    a.add_token(token("t1", "u1", 10)).await.unwrap();
    a.add_token(token("t3", "u2", 10)).await.unwrap();
    assert!(a.add_token(token("t1", "u2", 10)).await.is_err());
    assert_eq!(
        a.tokens("u1").await.unwrap(),
        vec![token("t1", "u1", 10), token("t2", "u1", 20)]
    );
    let (t, u) = a.token("t3").await.unwrap().unwrap();
    assert_eq!((t, u.id.as_str()), (token("t3", "u2", 10), "u2"));
    assert_eq!(a.token("t9").await.unwrap(), None);
    a.touch_token("t1", 55).await.unwrap();
    assert_eq!(a.token("t1").await.unwrap().unwrap().0.used, Some(55));
    assert!(!a.remove_token("u2", "t1").await.unwrap());
    assert!(a.remove_token("u1", "t1").await.unwrap());
    assert_eq!(a.tokens("u1").await.unwrap(), vec![token("t2", "u1", 20)]);
}

async fn a_deleted_user_keeps_name_games_and_history_but_no_credentials(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["u1", "u2"]).await;
    a.create_session(session("h1", "u1", 9000)).await.unwrap();
    a.add_passkey(PasskeyRow {
        id: "k1".into(),
        user: "u1".into(),
        data: "{}".into(),
        ..PasskeyRow::default()
    })
    .await
    .unwrap();
    a.add_token(TokenRow {
        hash: "t1".into(),
        user: "u1".into(),
        ..TokenRow::default()
    })
    .await
    .unwrap();
    a.create_session(session("h2", "u2", 9000)).await.unwrap();
    let game = ended("g1", Some("u1"), Some("u2"), Some(Outcome::WhiteWins), 50);
    db.store.insert(game.clone()).await.unwrap();
    a.apply_rating(rated("g1", ("u1", 0), ("u2", 0), 60))
        .await
        .unwrap();

    a.delete_user("u1").await.unwrap();
    let gone = a.user("u1").await.unwrap().unwrap();
    assert!(gone.deleted);
    assert_eq!(gone.password, None);
    assert_eq!(gone.name_key, "name-u1");
    // Its credentials are gone.
    assert_eq!(a.sessions("u1").await.unwrap(), vec![]);
    assert_eq!(a.session("h1", 0).await.unwrap(), None);
    assert_eq!(a.passkeys("u1").await.unwrap(), vec![]);
    assert_eq!(a.passkey("k1").await.unwrap(), None);
    assert_eq!(a.tokens("u1").await.unwrap(), vec![]);
    assert_eq!(a.token("t1").await.unwrap(), None);
    // The name stays taken.
    assert!(matches!(
        a.create_user(user("u9", "Name-u1")).await,
        Err(AccountError::Taken)
    ));
    // Its games, ratings and history stay; the other user's sessions too.
    assert_eq!(db.store.load("g1").await.unwrap(), Some(game));
    assert_eq!(a.ratings("u1").await.unwrap().len(), 1);
    assert_eq!(a.rating_history("u1", "standard").await.unwrap().len(), 1);
    assert_eq!(a.game_rating("g1").await.unwrap().len(), 2);
    assert!(a.session("h2", 0).await.unwrap().is_some());
}

async fn a_rated_game_is_applied_once(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["u1", "u2"]).await;
    let first = rated("g1", ("u1", 0), ("u2", 0), 100);
    a.apply_rating(first.clone()).await.unwrap();
    // The same game again, even computed anew: nothing written.
    assert!(matches!(
        a.apply_rating(first.clone()).await,
        Err(ApplyError::AlreadyApplied)
    ));
    assert!(matches!(
        a.apply_rating(rated("g1", ("u1", 1), ("u2", 1), 200)).await,
        Err(ApplyError::AlreadyApplied)
    ));
    let ratings = a.ratings("u1").await.unwrap();
    assert_eq!(ratings, vec![first.sides[0].new.clone()]);
    assert_eq!(ratings[0].games, 1);
    let points = a.game_rating("g1").await.unwrap();
    assert_eq!(
        points,
        vec![
            HistoryPoint {
                game: "g1".into(),
                user: "u1".into(),
                category: "standard".into(),
                at: 100,
                rating: 1512.0,
                deviation: 200.0,
                change: 12.0,
                score: 1.0,
                opponent: "u2".into(),
            },
            HistoryPoint {
                game: "g1".into(),
                user: "u2".into(),
                category: "standard".into(),
                at: 100,
                rating: 1488.0,
                deviation: 200.0,
                change: -12.0,
                score: 0.0,
                opponent: "u1".into(),
            },
        ]
    );
    // The next game goes on from the stored count; `games` is counted by
    // the store whatever the row says.
    let mut second = rated("g2", ("u2", 1), ("u1", 1), 300);
    second.sides[0].new.games = 77;
    a.apply_rating(second).await.unwrap();
    assert_eq!(a.ratings("u2").await.unwrap()[0].games, 2);
    let history = a.rating_history("u1", "standard").await.unwrap();
    assert_eq!(
        history
            .iter()
            .map(|p| (p.game.as_str(), p.at))
            .collect::<Vec<_>>(),
        [("g1", 100), ("g2", 300)]
    );
    assert_eq!(a.rating_history("u1", "blitz").await.unwrap(), vec![]);
    assert_eq!(a.game_rating("g9").await.unwrap(), vec![]);
    // Both sides one rating row is refused.
    assert!(matches!(
        a.apply_rating(rated("g3", ("u1", 2), ("u1", 2), 400)).await,
        Err(ApplyError::Failed(_))
    ));
}

async fn a_rating_computed_from_a_moved_row_is_stale(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["u1", "u2", "u3"]).await;
    a.apply_rating(rated("g1", ("u1", 0), ("u2", 0), 100))
        .await
        .unwrap();
    // u1 counts 1 game now: computed from 0, stale; nothing written.
    assert!(matches!(
        a.apply_rating(rated("g2", ("u3", 0), ("u1", 0), 200)).await,
        Err(ApplyError::Stale)
    ));
    // A count from the future is stale too, as is a row that is not there.
    assert!(matches!(
        a.apply_rating(rated("g2", ("u3", 0), ("u1", 5), 200)).await,
        Err(ApplyError::Stale)
    ));
    assert!(matches!(
        a.apply_rating(rated("g2", ("u3", 3), ("u1", 1), 200)).await,
        Err(ApplyError::Stale)
    ));
    assert_eq!(a.ratings("u3").await.unwrap(), vec![]);
    assert_eq!(a.game_rating("g2").await.unwrap(), vec![]);
    assert_eq!(a.ratings("u1").await.unwrap()[0].games, 1);
    // Recomputed from what is stored, it lands.
    a.apply_rating(rated("g2", ("u3", 0), ("u1", 1), 200))
        .await
        .unwrap();
    assert_eq!(a.ratings("u1").await.unwrap()[0].games, 2);
    assert_eq!(a.ratings("u3").await.unwrap()[0].games, 1);
}

async fn one_of_eight_concurrent_applications_of_a_game_lands(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["u1", "u2"]).await;
    // Each round a new game, from the counts the rounds before left.
    for round in 0..5 {
        let game = format!("g{round}");
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let store = db.store.clone();
                let result = rated(&game, ("u1", round), ("u2", round), 100 + round);
                tokio::spawn(async move { store.accounts().apply_rating(result).await })
            })
            .collect();
        let mut ok = 0;
        for task in tasks {
            match task.await.unwrap() {
                Ok(()) => ok += 1,
                Err(ApplyError::AlreadyApplied | ApplyError::Stale) => {}
                Err(ApplyError::Failed(e)) => panic!("round {round}: {e}"),
            }
        }
        assert_eq!(ok, 1, "round {round}");
        assert_eq!(a.game_rating(&game).await.unwrap().len(), 2);
        assert_eq!(a.ratings("u1").await.unwrap()[0].games, round + 1);
    }
}

async fn two_games_computed_from_one_row_land_once(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["a", "b", "c"]).await;
    for round in 0..5 {
        // Both games of `a` computed from the same row: one lands, the
        // other is stale (and is computed again by its caller).
        let stored = |user: &'static str| {
            let store = db.store.clone();
            async move {
                store
                    .accounts()
                    .ratings(user)
                    .await
                    .unwrap()
                    .first()
                    .map_or(0, |r| r.games)
            }
        };
        let (na, nb, nc) = (stored("a").await, stored("b").await, stored("c").await);
        let one = rated(&format!("ab{round}"), ("a", na), ("b", nb), 10 + round);
        let two = rated(&format!("ca{round}"), ("c", nc), ("a", na), 10 + round);
        let (s1, s2) = (db.store.clone(), db.store.clone());
        let first = tokio::spawn(async move { s1.accounts().apply_rating(one).await });
        let second = tokio::spawn(async move { s2.accounts().apply_rating(two).await });
        let answers = [first.await.unwrap(), second.await.unwrap()];
        let ok = answers.iter().filter(|a| a.is_ok()).count();
        let stale = answers
            .iter()
            .filter(|a| matches!(a, Err(ApplyError::Stale)))
            .count();
        assert_eq!((ok, stale), (1, 1), "round {round}: {answers:?}");
        assert_eq!(a.ratings("a").await.unwrap()[0].games, na + 1);
    }
}

async fn the_leaderboard_shows_active_established_living_players_best_first(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["p1", "p2", "p3", "p4", "p5", "p6"]).await;
    // Each user's rating from one game against a partner (`zz`, whose
    // deviation keeps it off the board).
    let set = |user: &str, rating: f64, deviation: f64, at: i64, game: &str| {
        let mut result = rated(game, (user, 0), ("zz", 0), at);
        result.sides[0].new.rating = rating;
        result.sides[0].new.deviation = deviation;
        result
    };
    a.create_user(user("zz", "Partner")).await.unwrap();
    for (partner_games, (user, rating, deviation, at)) in [
        ("p1", 1600.0, 80.0, 1000),  // shown
        ("p2", 1700.0, 80.0, 1000),  // shown, best
        ("p3", 1800.0, 80.0, 10),    // inactive
        ("p4", 1900.0, 300.0, 1000), // provisional
        ("p5", 2000.0, 80.0, 1000),  // deleted
        ("p6", 1600.0, 100.0, 999),  // shown, tied with p1 (by id after it)
    ]
    .into_iter()
    .enumerate()
    {
        let mut result = set(user, rating, deviation, at, &format!("g-{user}"));
        result.sides[1].expected_games = partner_games as i64;
        a.apply_rating(result).await.unwrap();
    }
    a.delete_user("p5").await.unwrap();
    let board = a.leaderboard("standard", 500, 150.0, 10).await.unwrap();
    let shown: Vec<(&str, f64)> = board
        .iter()
        .map(|(u, r)| (u.id.as_str(), r.rating))
        .filter(|(id, _)| *id != "zz")
        .collect();
    assert_eq!(shown, [("p2", 1700.0), ("p1", 1600.0), ("p6", 1600.0)]);
    let (u, r) = &board[0];
    assert_eq!(
        (u.name.as_str(), r.category.as_str()),
        ("Name-p2", "standard")
    );
    // At most `limit`; other categories are empty.
    assert_eq!(
        a.leaderboard("standard", 500, 150.0, 1).await.unwrap()[0]
            .0
            .id,
        "p2"
    );
    assert_eq!(a.leaderboard("blitz", 0, 1e9, 10).await.unwrap(), vec![]);
}

async fn lists_filter_by_user_side_rating_variant_result_and_page(db: Db) {
    let games = [
        // id, white, black, result, updated, rated, variant
        (
            "a",
            Some("u1"),
            Some("u2"),
            Some(Outcome::WhiteWins),
            10,
            true,
            "standard",
        ),
        (
            "b",
            Some("u2"),
            Some("u1"),
            Some(Outcome::WhiteWins),
            20,
            true,
            "standard",
        ),
        (
            "c",
            Some("u1"),
            None,
            Some(Outcome::Draw),
            30,
            false,
            "standard",
        ),
        ("d", Some("u2"), Some("u1"), None, 40, false, "small"),
        (
            "e",
            Some("u3"),
            Some("u2"),
            Some(Outcome::BlackWins),
            50,
            true,
            "small",
        ),
        (
            "f",
            None,
            Some("u1"),
            Some(Outcome::BlackWins),
            60,
            false,
            "small",
        ),
    ];
    for (id, white, black, outcome, updated, rated, variant) in games {
        let row = GameRow {
            rated,
            variant: variant.into(),
            ..ended(id, white, black, outcome, updated)
        };
        db.store.insert(row).await.unwrap();
    }
    let ids = |filter: ListFilter| {
        let store = db.store.clone();
        async move {
            store
                .list(&filter)
                .await
                .unwrap()
                .into_iter()
                .map(|g| g.id)
                .collect::<Vec<_>>()
        }
    };
    let u1 = || Some("u1".to_string());
    let all = ListFilter {
        limit: 100,
        ..ListFilter::default()
    };
    assert_eq!(
        ids(ListFilter { ..all }).await,
        ["f", "e", "d", "c", "b", "a"]
    );
    let mine = || ListFilter {
        user: u1(),
        limit: 100,
        ..ListFilter::default()
    };
    assert_eq!(ids(mine()).await, ["f", "d", "c", "b", "a"]);
    let on = |side| ListFilter {
        side: Some(side),
        ..mine()
    };
    assert_eq!(ids(on(Side::White)).await, ["c", "a"]);
    assert_eq!(ids(on(Side::Black)).await, ["f", "d", "b"]);
    let rated = |r| ListFilter {
        rated: Some(r),
        ..mine()
    };
    assert_eq!(ids(rated(true)).await, ["b", "a"]);
    assert_eq!(ids(rated(false)).await, ["f", "d", "c"]);
    let variant = ListFilter {
        variant: Some("small".into()),
        ..mine()
    };
    assert_eq!(ids(variant).await, ["f", "d"]);
    let result = |r| ListFilter {
        result: Some(r),
        ..mine()
    };
    assert_eq!(ids(result(UserResult::Won)).await, ["f", "a"]);
    assert_eq!(ids(result(UserResult::Lost)).await, ["b"]);
    assert_eq!(ids(result(UserResult::Drawn)).await, ["c"]);
    let won_as_black = ListFilter {
        side: Some(Side::Black),
        result: Some(UserResult::Won),
        ..mine()
    };
    assert_eq!(ids(won_as_black).await, ["f"]);
    // Another user's view of the same games.
    let theirs = ListFilter {
        user: Some("u2".into()),
        result: Some(UserResult::Won),
        ..mine()
    };
    assert_eq!(ids(theirs).await, ["e", "b"]);
    // Pages of two, after the ordering.
    let page = |offset| ListFilter {
        limit: 2,
        offset,
        ..mine()
    };
    assert_eq!(ids(page(0)).await, ["f", "d"]);
    assert_eq!(ids(page(2)).await, ["c", "b"]);
    assert_eq!(ids(page(4)).await, ["a"]);
    assert_eq!(ids(page(6)).await, Vec::<String>::new());
    // Without a user, side and result mean nothing; the rest still counts.
    let no_user = ListFilter {
        side: Some(Side::White),
        result: Some(UserResult::Lost),
        rated: Some(true),
        limit: 100,
        ..ListFilter::default()
    };
    assert_eq!(ids(no_user).await, ["e", "b", "a"]);
    // The seats and the rating read back, in lists too.
    let listed = db.store.list(&mine()).await.unwrap();
    let game = listed.iter().find(|g| g.id == "a").unwrap();
    assert_eq!(
        (
            game.white_user.as_deref(),
            game.black_user.as_deref(),
            game.rated
        ),
        (Some("u1"), Some("u2"), true)
    );
}

async fn a_users_stats_count_ended_games_per_variant_and_side(db: Db) {
    let a = db.store.accounts();
    let games = [
        (
            "a",
            Some("u1"),
            Some("u2"),
            Some(Outcome::WhiteWins),
            "standard",
        ),
        (
            "b",
            Some("u1"),
            Some("u2"),
            Some(Outcome::BlackWins),
            "standard",
        ),
        ("c", Some("u1"), None, Some(Outcome::Draw), "standard"),
        (
            "d",
            Some("u1"),
            Some("u2"),
            Some(Outcome::WhiteWins),
            "standard",
        ),
        (
            "e",
            Some("u2"),
            Some("u1"),
            Some(Outcome::WhiteWins),
            "standard",
        ),
        ("f", Some("u2"), Some("u1"), None, "standard"),
        // Aborted: no line of its own, nothing counted.
        (
            "i",
            Some("u1"),
            Some("u2"),
            Some(Outcome::Unfinished),
            "tiny",
        ),
        (
            "g",
            Some("u3"),
            Some("u1"),
            Some(Outcome::BlackWins),
            "small",
        ),
        (
            "h",
            Some("u3"),
            Some("u2"),
            Some(Outcome::BlackWins),
            "small",
        ),
    ];
    for (i, (id, white, black, outcome, variant)) in games.into_iter().enumerate() {
        let row = GameRow {
            variant: variant.into(),
            end: (outcome == Some(Outcome::Unfinished))
                .then(|| crate::End::by(crate::EndReason::Aborted(Side::White)))
                .flatten(),
            ..ended(id, white, black, outcome, i as i64)
        };
        db.store.insert(row).await.unwrap();
    }
    let line = |variant: &str, side: &str, won, lost, drawn| StatLine {
        variant: variant.into(),
        side: side.into(),
        won,
        lost,
        drawn,
    };
    assert_eq!(
        a.user_stats("u1").await.unwrap(),
        vec![
            line("small", "black", 1, 0, 0),
            line("standard", "white", 2, 1, 1),
            line("standard", "black", 0, 1, 0),
        ]
    );
    assert_eq!(
        a.user_stats("u2").await.unwrap(),
        vec![
            line("small", "black", 1, 0, 0),
            line("standard", "white", 1, 0, 0),
            line("standard", "black", 1, 2, 0),
        ]
    );
    assert_eq!(a.user_stats("nobody").await.unwrap(), vec![]);
}

async fn credentials_need_a_stored_user(db: Db) {
    let a = db.store.accounts();
    assert!(a
        .create_session(session("h1", "ghost", 9000))
        .await
        .is_err());
    assert!(a
        .add_token(TokenRow {
            hash: "t1".into(),
            user: "ghost".into(),
            ..TokenRow::default()
        })
        .await
        .is_err());
    assert!(matches!(
        a.add_passkey(PasskeyRow {
            id: "k1".into(),
            user: "ghost".into(),
            ..PasskeyRow::default()
        })
        .await,
        Err(AccountError::Failed(_))
    ));
    assert_eq!(a.session("h1", 0).await.unwrap(), None);
}

fn passkey_of(id: &str, user: &str) -> PasskeyRow {
    PasskeyRow {
        id: id.into(),
        user: user.into(),
        name: format!("key {id}"),
        data: format!("{{\"cred\":\"{id}\"}}"),
        created: 10,
        used: None,
    }
}

/// A user with no password: passkeys only.
fn passkey_user(id: &str, name: &str) -> UserRow {
    UserRow {
        password: None,
        ..user(id, name)
    }
}

async fn a_passkey_account_is_made_whole_or_not_at_all(db: Db) {
    let a = db.store.accounts();
    a.create_user_with_passkey(passkey_user("p1", "Pia"), passkey_of("c1", "p1"))
        .await
        .unwrap();
    assert_eq!(a.user("p1").await.unwrap(), Some(passkey_user("p1", "Pia")));
    assert_eq!(
        a.passkeys("p1").await.unwrap(),
        vec![passkey_of("c1", "p1")]
    );
    // A taken name: neither row.
    assert!(matches!(
        a.create_user_with_passkey(passkey_user("p2", "pia"), passkey_of("c2", "p2"))
            .await,
        Err(AccountError::Taken)
    ));
    assert_eq!(a.user("p2").await.unwrap(), None);
    assert_eq!(a.passkey("c2").await.unwrap(), None);
    // A taken credential id: no user either (its name stays free).
    assert!(matches!(
        a.create_user_with_passkey(passkey_user("p3", "Quin"), passkey_of("c1", "p3"))
            .await,
        Err(AccountError::Taken)
    ));
    assert_eq!(a.user("p3").await.unwrap(), None);
    assert_eq!(a.user_by_key("quin").await.unwrap(), None);
    assert_eq!(a.passkey("c1").await.unwrap().unwrap().user, "p1");
}

async fn the_last_way_to_sign_in_is_kept_even_under_a_race(db: Db) {
    let a = db.store.accounts();
    a.create_user_with_passkey(passkey_user("p1", "Pia"), passkey_of("c1", "p1"))
        .await
        .unwrap();
    assert_eq!(
        a.remove_passkey("p1", "c1").await.unwrap(),
        PasskeyRemoval::Last
    );
    assert_eq!(a.passkeys("p1").await.unwrap().len(), 1);
    // Two passkeys removed at once, again and again: one always stays.
    for round in 0..10 {
        let second = format!("c2-{round}");
        a.add_passkey(passkey_of(&second, "p1")).await.unwrap();
        let keys: Vec<String> = a
            .passkeys("p1")
            .await
            .unwrap()
            .into_iter()
            .map(|k| k.id)
            .collect();
        assert_eq!(keys.len(), 2, "round {round}");
        let (x, y) = tokio::join!(
            a.remove_passkey("p1", &keys[0]),
            a.remove_passkey("p1", &keys[1])
        );
        let mut got = [x.unwrap(), y.unwrap()];
        got.sort_by_key(|r| *r == PasskeyRemoval::Last);
        assert_eq!(
            got,
            [PasskeyRemoval::Removed, PasskeyRemoval::Last],
            "round {round}"
        );
        assert_eq!(a.passkeys("p1").await.unwrap().len(), 1, "round {round}");
    }
    // With a password set, the last one may go.
    a.set_password("p1", Some("$argon2id$v=19$m=19456,t=2,p=1$s$h"))
        .await
        .unwrap();
    let last = a.passkeys("p1").await.unwrap().remove(0).id;
    assert_eq!(
        a.remove_passkey("p1", &last).await.unwrap(),
        PasskeyRemoval::Removed
    );
}

fn ceremony(id: &str, kind: &str, user: Option<&str>, expires: i64) -> CeremonyRow {
    CeremonyRow {
        id: id.into(),
        kind: kind.into(),
        user: user.map(str::to_string),
        state: format!("{{\"challenge\":\"{id}\"}}"),
        expires,
    }
}

async fn a_ceremony_is_taken_once_and_not_after_it_expires(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["u1"]).await;
    a.put_ceremony(ceremony("n1", "signin", None, 1000))
        .await
        .unwrap();
    a.put_ceremony(ceremony("n2", "add", Some("u1"), 1000))
        .await
        .unwrap();
    a.put_ceremony(ceremony("n3", "signup", None, 500))
        .await
        .unwrap();
    // Another kind's finish does not take it (nor use it up).
    assert_eq!(a.take_ceremony("n1", "signup", 10).await.unwrap(), None);
    assert_eq!(
        a.take_ceremony("n1", "signin", 10).await.unwrap(),
        Some(ceremony("n1", "signin", None, 1000))
    );
    // Replayed: gone.
    assert_eq!(a.take_ceremony("n1", "signin", 10).await.unwrap(), None);
    assert_eq!(a.take_ceremony("n9", "signin", 10).await.unwrap(), None);
    assert_eq!(
        a.take_ceremony("n2", "add", 999).await.unwrap(),
        Some(ceremony("n2", "add", Some("u1"), 1000))
    );
    // Expired at 500: not taken, then removed by the housekeeping.
    assert_eq!(a.take_ceremony("n3", "signup", 500).await.unwrap(), None);
    a.put_ceremony(ceremony("n4", "signup", None, 2000))
        .await
        .unwrap();
    assert_eq!(a.expire_ceremonies(1000).await.unwrap(), 1);
    assert_eq!(a.expire_ceremonies(1000).await.unwrap(), 0);
    assert_eq!(
        a.take_ceremony("n4", "signup", 1000).await.unwrap(),
        Some(ceremony("n4", "signup", None, 2000))
    );
}

async fn one_of_eight_concurrent_takes_of_a_ceremony_gets_it(db: Db) {
    let store = db.store.clone();
    for round in 0..5 {
        let id = format!("race{round}");
        store
            .accounts()
            .put_ceremony(ceremony(&id, "signin", None, 1000))
            .await
            .unwrap();
        let takes: Vec<_> = (0..8)
            .map(|_| {
                let store = store.clone();
                let id = id.clone();
                tokio::spawn(async move {
                    store
                        .accounts()
                        .take_ceremony(&id, "signin", 10)
                        .await
                        .unwrap()
                })
            })
            .collect();
        let mut got = 0;
        for t in takes {
            got += usize::from(t.await.unwrap().is_some());
        }
        assert_eq!(got, 1, "round {round}");
    }
}

async fn an_account_becomes_a_bot_only_before_its_first_game(db: Db) {
    let a = db.store.accounts();
    with_users(a, &["u1", "u2", "u3", "u4"]).await;
    // No games: a bot now, for good (a second upgrade changes nothing).
    assert_eq!(a.make_bot("u1").await.unwrap(), BotUpgrade::Upgraded);
    assert!(a.user("u1").await.unwrap().unwrap().bot);
    assert_eq!(a.make_bot("u1").await.unwrap(), BotUpgrade::AlreadyBot);
    // A seat in any game, ongoing or ended, white or black, keeps a person.
    db.store
        .insert(ended("g1", None, Some("u2"), None, 50))
        .await
        .unwrap();
    db.store
        .insert(ended("g2", Some("u3"), None, Some(Outcome::Draw), 50))
        .await
        .unwrap();
    assert_eq!(a.make_bot("u2").await.unwrap(), BotUpgrade::HasGames);
    assert_eq!(a.make_bot("u3").await.unwrap(), BotUpgrade::HasGames);
    assert!(!a.user("u2").await.unwrap().unwrap().bot);
    // Unknown and deleted accounts are not found.
    assert_eq!(a.make_bot("nobody").await.unwrap(), BotUpgrade::NotFound);
    a.delete_user("u4").await.unwrap();
    assert_eq!(a.make_bot("u4").await.unwrap(), BotUpgrade::NotFound);
    assert!(!a.user("u4").await.unwrap().unwrap().bot);
}

async fn conduct_is_noted_once_per_game_and_read_by_time(db: Db) {
    let a = db.store.accounts();
    let row = |user: &str, game: &str, kind: &str, at| ConductRow {
        user: user.into(),
        game: game.into(),
        kind: kind.into(),
        at,
    };
    a.add_conduct(row("u1", "g2", "abandonment", 20))
        .await
        .unwrap();
    a.add_conduct(row("u1", "g1", "time_away", 10))
        .await
        .unwrap();
    a.add_conduct(row("u2", "g3", "abort", 15)).await.unwrap();
    // Noted again (another instance saw the end too): still one.
    a.add_conduct(row("u1", "g2", "abandonment", 25))
        .await
        .unwrap();
    a.add_conduct(row("u1", "g4", "abort", 30)).await.unwrap();
    assert_eq!(
        a.conduct("u1", 0).await.unwrap(),
        [
            row("u1", "g1", "time_away", 10),
            row("u1", "g2", "abandonment", 20),
            row("u1", "g4", "abort", 30),
        ]
    );
    // From a time on, that time included.
    assert_eq!(
        a.conduct("u1", 20).await.unwrap(),
        [
            row("u1", "g2", "abandonment", 20),
            row("u1", "g4", "abort", 30)
        ]
    );
    assert_eq!(a.conduct("u2", 16).await.unwrap(), []);
    assert_eq!(a.conduct("nobody", 0).await.unwrap(), []);
}
