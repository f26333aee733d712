//! The lobby on both backends: every test runs on a new SQLite file and,
//! where `PUNCT_TEST_DATABASE_URL` names a PostgreSQL cluster
//! (`scripts/postgres.sh start DIR`), on a new database there.

use super::*;
use crate::accounts::tests::{empty_postgres, postgres, sqlite, Db};
use crate::{Change, ErrorKind, GameRow, Mode, Storage, UserRow};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

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
    seeks_are_added_listed_without_their_token_and_removed,
    one_of_eight_concurrent_takes_gets_the_seek,
    a_pair_is_taken_whole_or_not_at_all,
    overlapping_pairings_take_each_seek_once,
    the_pool_is_one_games_entries,
    seeks_not_confirmed_in_time_are_forgotten,
    the_changes_are_announced_on_postgres_only,
    challenges_are_listed_for_their_two_players_only,
    blocks_are_kept_once_and_listed_both_ways,
);

fn seek(id: &str, created: i64) -> SeekRow {
    SeekRow {
        id: id.into(),
        kind: "seek".into(),
        user: Some(format!("u{id}")),
        name: Some(format!("Name {id}")),
        bot: false,
        rating: Some(1500),
        category: Some("blitz".into()),
        variant: "standard".into(),
        clock: Some(r#"{"base":180000,"increment":2000}"#.into()),
        rated: true,
        side: "random".into(),
        token: format!("secret{id}"),
        instance: "i1".into(),
        created,
        seen: created,
        to_user: None,
    }
}

fn entry(id: &str, created: i64, variant: &str, clock: Option<&str>) -> SeekRow {
    SeekRow {
        kind: "pool".into(),
        variant: variant.into(),
        clock: clock.map(str::to_string),
        ..seek(id, created)
    }
}

/// `row` as lists show it: without its token.
fn listed(row: SeekRow) -> SeekRow {
    SeekRow {
        token: String::new(),
        ..row
    }
}

/// The ids of the seeks stored (of either kind).
async fn stored(lobby: &dyn Lobby, ids: &[&str]) -> BTreeSet<String> {
    let mut there = BTreeSet::new();
    for id in ids {
        if let Some(s) = lobby.seek(id).await.unwrap() {
            there.insert(s.id);
        }
    }
    there
}

async fn seeks_are_added_listed_without_their_token_and_removed(db: Db) {
    let lobby = db.store.lobby();
    let anonymous = SeekRow {
        user: None,
        name: None,
        rating: None,
        category: None,
        clock: None,
        rated: false,
        side: "white".into(),
        bot: true,
        ..seek("s2", 200)
    };
    lobby.add_seek(seek("s1", 100)).await.unwrap();
    lobby.add_seek(anonymous.clone()).await.unwrap();
    lobby.add_seek(seek("s0", 300)).await.unwrap();
    lobby
        .add_seek(entry("p1", 50, "standard", None))
        .await
        .unwrap();
    // Oldest first, tokens empty, the pool's entries not among them.
    assert_eq!(
        lobby.seeks(10).await.unwrap(),
        vec![
            listed(seek("s1", 100)),
            listed(anonymous.clone()),
            listed(seek("s0", 300))
        ]
    );
    assert_eq!(
        lobby.seeks(2).await.unwrap(),
        vec![listed(seek("s1", 100)), listed(anonymous.clone())]
    );
    // One by id: the token too (and a pool entry as well).
    assert_eq!(lobby.seek("s2").await.unwrap(), Some(anonymous));
    assert_eq!(
        lobby.seek("p1").await.unwrap(),
        Some(entry("p1", 50, "standard", None))
    );
    assert_eq!(lobby.seek("nope").await.unwrap(), None);
    // An id in use: refused, the stored seek untouched.
    let e = lobby
        .add_seek(SeekRow {
            token: "thief".into(),
            ..seek("s1", 999)
        })
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Conflict, "{e}");
    assert_eq!(lobby.seek("s1").await.unwrap(), Some(seek("s1", 100)));
    // An id that could not travel in an announcement.
    for bad in ["", "a b", "a-b", &"x".repeat(65)] {
        assert!(lobby.add_seek(seek(bad, 1)).await.is_err(), "{bad:?}");
    }
    // Removed once.
    assert!(lobby.remove_seek("s1").await.unwrap());
    assert!(!lobby.remove_seek("s1").await.unwrap());
    assert_eq!(lobby.seek("s1").await.unwrap(), None);
    assert_eq!(
        lobby
            .seeks(10)
            .await
            .unwrap()
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        ["s2", "s0"]
    );
}

async fn one_of_eight_concurrent_takes_gets_the_seek(db: Db) {
    for round in 0..5 {
        let id = format!("t{round}");
        db.store.lobby().add_seek(seek(&id, 1)).await.unwrap();
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let store = db.store.clone();
                let id = id.clone();
                tokio::spawn(async move { store.lobby().take_seek(&id).await.unwrap() })
            })
            .collect();
        let mut got = Vec::new();
        for task in tasks {
            got.extend(task.await.unwrap());
        }
        assert_eq!(got, vec![seek(&id, 1)], "round {round}: token included");
        assert_eq!(db.store.lobby().seek(&id).await.unwrap(), None);
        assert_eq!(db.store.lobby().take_seek(&id).await.unwrap(), None);
    }
}

async fn a_pair_is_taken_whole_or_not_at_all(db: Db) {
    let lobby = db.store.lobby();
    for id in ["a", "b", "c"] {
        lobby.add_seek(seek(id, 1)).await.unwrap();
    }
    // One of the two gone: nothing taken, the other still there.
    assert!(lobby.remove_seek("b").await.unwrap());
    assert_eq!(lobby.take_pair("a", "b").await.unwrap(), None);
    assert_eq!(lobby.take_pair("b", "a").await.unwrap(), None);
    assert_eq!(lobby.seek("a").await.unwrap(), Some(seek("a", 1)));
    // A seek paired with itself: nothing.
    assert_eq!(lobby.take_pair("a", "a").await.unwrap(), None);
    assert_eq!(lobby.seek("a").await.unwrap(), Some(seek("a", 1)));
    // Both there: both taken, in the order asked, tokens included.
    assert_eq!(
        lobby.take_pair("c", "a").await.unwrap(),
        Some((seek("c", 1), seek("a", 1)))
    );
    assert_eq!(stored(lobby, &["a", "b", "c"]).await, BTreeSet::new());
    assert_eq!(lobby.take_pair("a", "c").await.unwrap(), None);
}

async fn overlapping_pairings_take_each_seek_once(db: Db) {
    // Two pairings sharing a seek, at once.
    for round in 0..10 {
        let ids: Vec<String> = ["a", "b", "c"]
            .iter()
            .map(|s| format!("{s}{round}"))
            .collect();
        for id in &ids {
            db.store.lobby().add_seek(seek(id, 1)).await.unwrap();
        }
        let pairing = |x: &str, y: &str| {
            let (store, x, y) = (db.store.clone(), x.to_string(), y.to_string());
            tokio::spawn(async move { store.lobby().take_pair(&x, &y).await.unwrap() })
        };
        let first = pairing(&ids[0], &ids[1]);
        let second = pairing(&ids[1], &ids[2]);
        let (first, second) = (first.await.unwrap(), second.await.unwrap());
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let left = stored(db.store.lobby(), &refs).await;
        match (first, second) {
            (Some((a, b)), None) => {
                assert_eq!((a.id, b.id), (ids[0].clone(), ids[1].clone()));
                assert_eq!(left, BTreeSet::from([ids[2].clone()]));
            }
            (None, Some((b, c))) => {
                assert_eq!((b.id, c.id), (ids[1].clone(), ids[2].clone()));
                assert_eq!(left, BTreeSet::from([ids[0].clone()]));
            }
            other => panic!("round {round}: not exactly one pairing: {other:?}"),
        }
    }
    // A ring of pairings, each seek in two of them, all at once: no seek
    // taken twice, none lost.
    let n = 8;
    let ids: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
    for id in &ids {
        db.store.lobby().add_seek(seek(id, 1)).await.unwrap();
    }
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let store = db.store.clone();
            let (x, y) = (ids[i].clone(), ids[(i + 1) % n].clone());
            tokio::spawn(async move { store.lobby().take_pair(&x, &y).await.unwrap() })
        })
        .collect();
    let mut taken = Vec::new();
    for task in tasks {
        if let Some((x, y)) = task.await.unwrap() {
            taken.push(x.id);
            taken.push(y.id);
        }
    }
    assert!(!taken.is_empty(), "some pairing succeeds");
    let once: BTreeSet<String> = taken.iter().cloned().collect();
    assert_eq!(once.len(), taken.len(), "a seek taken twice: {taken:?}");
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let left = stored(db.store.lobby(), &refs).await;
    assert!(left.is_disjoint(&once), "{left:?} {once:?}");
    assert_eq!(left.len() + once.len(), n, "a seek lost: {left:?} {once:?}");
}

async fn the_pool_is_one_games_entries(db: Db) {
    let lobby = db.store.lobby();
    let blitz = Some(r#"{"base":180000,"increment":2000}"#);
    let rapid = Some(r#"{"base":600000,"increment":0}"#);
    let rows = [
        entry("p1", 30, "standard", blitz),
        entry("p2", 10, "standard", blitz),
        entry("p3", 20, "standard", rapid),
        entry("p4", 40, "other", blitz),
        entry("p5", 50, "standard", None),
        // An open seek of the same game is not in the pool.
        seek("s1", 5),
    ];
    for row in &rows {
        lobby.add_seek(row.clone()).await.unwrap();
    }
    let ids = |rows: Vec<SeekRow>| rows.into_iter().map(|r| r.id).collect::<Vec<_>>();
    let pool = lobby.pool("standard", blitz).await.unwrap();
    assert_eq!(
        pool,
        vec![
            listed(entry("p2", 10, "standard", blitz)),
            listed(entry("p1", 30, "standard", blitz))
        ],
        "oldest first, tokens empty"
    );
    assert_eq!(ids(lobby.pool("standard", rapid).await.unwrap()), ["p3"]);
    assert_eq!(ids(lobby.pool("other", blitz).await.unwrap()), ["p4"]);
    assert_eq!(ids(lobby.pool("standard", None).await.unwrap()), ["p5"]);
    assert!(lobby.pool("other", None).await.unwrap().is_empty());
    // Taken from the pool: out of it.
    assert!(lobby.take_pair("p1", "p2").await.unwrap().is_some());
    assert!(lobby.pool("standard", blitz).await.unwrap().is_empty());
}

async fn seeks_not_confirmed_in_time_are_forgotten(db: Db) {
    let lobby = db.store.lobby();
    let on = |id: &str, instance: &str| SeekRow {
        instance: instance.into(),
        ..seek(id, 100)
    };
    for (id, instance) in [("a1", "A"), ("a2", "A"), ("b2", "B"), ("b1", "B")] {
        lobby.add_seek(on(id, instance)).await.unwrap();
    }
    lobby
        .add_seek(SeekRow {
            instance: "B".into(),
            ..entry("bp", 100, "standard", None)
        })
        .await
        .unwrap();
    lobby.renew("A", 200).await.unwrap();
    lobby.renew("nobody", 300).await.unwrap();
    assert_eq!(lobby.seek("a1").await.unwrap().unwrap().seen, 200);
    assert_eq!(lobby.seek("b1").await.unwrap().unwrap().seen, 100);
    assert_eq!(lobby.forget(100).await.unwrap(), Vec::<String>::new());
    assert_eq!(lobby.forget(150).await.unwrap(), ["b1", "b2", "bp"]);
    assert_eq!(
        stored(lobby, &["a1", "a2", "b1", "b2", "bp"]).await,
        BTreeSet::from(["a1".to_string(), "a2".to_string()])
    );
    assert_eq!(lobby.forget(150).await.unwrap(), Vec::<String>::new());
}

/// The next change heard, if one comes soon.
async fn next(changes: &mut tokio::sync::broadcast::Receiver<Change>) -> Option<Change> {
    tokio::time::timeout(Duration::from_secs(5), changes.recv())
        .await
        .ok()
        .map(|c| c.unwrap())
}

async fn the_changes_are_announced_on_postgres_only(db: Db) {
    let lobby = db.store.lobby();
    let Some(mut changes) = db.store.changes() else {
        // SQLite: nothing to hear, and announcing a pairing does nothing.
        assert_eq!(db.store.kind(), "sqlite");
        lobby.announce_paired("s1", "g1").await.unwrap();
        assert!(lobby.announce_paired("s 1", "g1").await.is_err());
        return;
    };
    // Listening once the connection is made.
    assert_eq!(next(&mut changes).await, Some(Change::Missed));
    let added = |id: &str| Change::Seek {
        id: id.into(),
        added: true,
    };
    let removed = |id: &str| Change::Seek {
        id: id.into(),
        added: false,
    };
    for id in ["a", "b", "c", "d", "e"] {
        lobby.add_seek(seek(id, 1)).await.unwrap();
        assert_eq!(next(&mut changes).await, Some(added(id)));
    }
    // A refused add says nothing: the next change heard is the removal.
    assert!(lobby.add_seek(seek("a", 2)).await.is_err());
    assert!(lobby.remove_seek("a").await.unwrap());
    assert_eq!(next(&mut changes).await, Some(removed("a")));
    // Nor does a removal or a take of nothing.
    assert!(!lobby.remove_seek("a").await.unwrap());
    assert_eq!(lobby.take_seek("a").await.unwrap(), None);
    assert_eq!(lobby.take_pair("a", "b").await.unwrap(), None);
    assert!(lobby.take_seek("b").await.unwrap().is_some());
    assert_eq!(next(&mut changes).await, Some(removed("b")));
    assert!(lobby.take_pair("d", "c").await.unwrap().is_some());
    let mut pair = vec![next(&mut changes).await, next(&mut changes).await];
    pair.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(pair, vec![Some(removed("c")), Some(removed("d"))]);
    lobby.renew("i1", 50).await.unwrap();
    assert_eq!(lobby.forget(60).await.unwrap(), ["e"]);
    assert_eq!(next(&mut changes).await, Some(removed("e")));
    lobby.announce_paired("s1", "g1").await.unwrap();
    assert_eq!(
        next(&mut changes).await,
        Some(Change::Paired {
            seek: "s1".into(),
            game: "g1".into()
        })
    );
    lobby.announce_declined("s2").await.unwrap();
    assert_eq!(
        next(&mut changes).await,
        Some(Change::Declined { seek: "s2".into() })
    );
    assert!(lobby.announce_declined("s 2").await.is_err());
    // Ids that could not travel are refused, and nothing is sent.
    assert!(lobby.announce_paired("s 1", "g1").await.is_err());
    assert!(lobby.announce_paired("s1", "").await.is_err());
    // A game's change still reads as one.
    db.store.insert(game("lobby")).await.unwrap();
    assert_eq!(
        next(&mut changes).await,
        Some(Change::Game {
            id: "lobby".into(),
            version: 1
        })
    );
}

fn game(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        variant: "standard".into(),
        mode: Mode::Online,
        white_token: Some("w".into()),
        black_token: Some("b".into()),
        start: "start".into(),
        created: 1,
        updated: 1,
        version: 1,
        white_user: Some("u1".into()),
        ..GameRow::default()
    }
}

/// A PostgreSQL database at the schema before the lobby's (6), with a game
/// and a user in it, migrated: both kept, and the lobby works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_before_the_lobby_is_migrated_and_keeps_games_and_accounts() {
    let Some(url) = empty_postgres("a_postgres_database_before_the_lobby_is_migrated").await else {
        return;
    };
    crate::postgres::migrate_to(&url, 6).await.unwrap();
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .batch_execute(
            "INSERT INTO games (id, variant, mode, white_token, black_token, start, moves, \
               created, updated, version, status, plies, white_user) \
             VALUES ('old6', 'standard', 'online', 'w', 'b', 'start', '', 1, 1, 1, 'ongoing', \
               0, 'u1'); \
             INSERT INTO users (id, name, name_key, created, seen) \
             VALUES ('u1', 'Ada', 'ada', 5, 6);",
        )
        .await
        .unwrap();
    // Not at this punct's schema yet: refused until migrated.
    assert!(crate::postgres::Store::open(&url).await.is_err());
    let said = crate::postgres::migrate(&url).await.unwrap();
    assert!(
        said.contains("applied schema versions 7 (lobby), 8 (ceremonies)"),
        "{said}"
    );
    let store: Arc<dyn Storage> = Arc::new(crate::postgres::Store::open(&url).await.unwrap());
    assert_eq!(
        store.load("old6").await.unwrap(),
        Some(GameRow {
            moves: String::new(),
            ..game("old6")
        })
    );
    assert_eq!(
        store.accounts().user("u1").await.unwrap(),
        Some(UserRow {
            id: "u1".into(),
            name: "Ada".into(),
            name_key: "ada".into(),
            created: 5,
            seen: 6,
            password: None,
            bot: false,
            deleted: false,
        })
    );
    store.lobby().add_seek(seek("s1", 1)).await.unwrap();
    assert_eq!(store.lobby().seek("s1").await.unwrap(), Some(seek("s1", 1)));
}

async fn challenges_are_listed_for_their_two_players_only(db: Db) {
    let lobby = db.store.lobby();
    let challenge = |id: &str, from: &str, to: &str, created| SeekRow {
        kind: "challenge".into(),
        user: Some(from.into()),
        to_user: Some(to.into()),
        ..seek(id, created)
    };
    lobby
        .add_seek(challenge("c1", "ann", "bob", 3))
        .await
        .unwrap();
    lobby
        .add_seek(challenge("c2", "bob", "carl", 2))
        .await
        .unwrap();
    lobby.add_seek(seek("s1", 1)).await.unwrap();
    lobby
        .add_seek(SeekRow {
            user: Some("bob".into()),
            ..seek("s2", 1)
        })
        .await
        .unwrap();
    let ids = |rows: Vec<SeekRow>| rows.into_iter().map(|r| r.id).collect::<Vec<_>>();
    // Made or received, oldest first, never an open seek.
    assert_eq!(ids(lobby.challenges("bob").await.unwrap()), ["c2", "c1"]);
    assert_eq!(ids(lobby.challenges("ann").await.unwrap()), ["c1"]);
    assert_eq!(
        ids(lobby.challenges("dora").await.unwrap()),
        Vec::<String>::new()
    );
    // Listed without the token; read whole by id.
    assert_eq!(
        lobby.challenges("ann").await.unwrap(),
        [listed(challenge("c1", "ann", "bob", 3))]
    );
    assert_eq!(
        lobby.seek("c1").await.unwrap(),
        Some(challenge("c1", "ann", "bob", 3))
    );
    // Not an open seek.
    assert_eq!(ids(lobby.seeks(10).await.unwrap()), ["s1", "s2"]);
    assert!(lobby.take_seek("c1").await.unwrap().is_some());
    assert_eq!(
        ids(lobby.challenges("ann").await.unwrap()),
        Vec::<String>::new()
    );
}

async fn blocks_are_kept_once_and_listed_both_ways(db: Db) {
    let accounts = db.store.accounts();
    accounts.block("ann", "bob", 5).await.unwrap();
    // Again: nothing changes, the first time stays.
    accounts.block("ann", "bob", 9).await.unwrap();
    accounts.block("carl", "ann", 7).await.unwrap();
    let row = |user: &str, other: &str, created| crate::BlockRow {
        user: user.into(),
        other: other.into(),
        created,
    };
    assert_eq!(
        accounts.blocks("ann").await.unwrap(),
        [row("ann", "bob", 5), row("carl", "ann", 7)]
    );
    assert_eq!(
        accounts.blocks("bob").await.unwrap(),
        [row("ann", "bob", 5)]
    );
    assert!(accounts.unblock("ann", "bob").await.unwrap());
    assert!(!accounts.unblock("ann", "bob").await.unwrap());
    // Only the one who blocks lifts it.
    assert!(!accounts.unblock("ann", "carl").await.unwrap());
    assert_eq!(accounts.blocks("bob").await.unwrap(), []);
    assert_eq!(
        accounts.blocks("ann").await.unwrap(),
        [row("carl", "ann", 7)]
    );
}
