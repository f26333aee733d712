//! Notifications on both backends: every test runs on a new SQLite file
//! and, where `PUNCT_TEST_DATABASE_URL` names a PostgreSQL cluster
//! (`scripts/postgres.sh start DIR`), on a new database there.

use super::*;
use crate::accounts::tests::{postgres, sqlite, Db};
use crate::{Change, UserRow};
use std::sync::Arc;
use std::time::Duration;

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
    an_event_is_kept_once_however_many_add_it,
    the_list_is_unread_first_then_newest_first_and_paged,
    marking_read_touches_only_the_accounts_own_notes,
    read_notes_are_pruned_and_unread_ones_kept,
    deleting_an_account_deletes_its_notes,
    notes_are_announced_on_postgres_only,
    a_note_no_punct_makes_is_refused,
);

fn note(user: &str, kind: &str, subject: &str, ply: i64, created: i64) -> NoteRow {
    NoteRow {
        id: 0,
        user: user.into(),
        kind: kind.into(),
        subject: subject.into(),
        ply,
        other: Some("Ada".into()),
        created,
        read: None,
    }
}

async fn an_event_is_kept_once_however_many_add_it(db: Db) {
    let notes = db.store.notes();
    // Eight adds of one event at once, as several instances might: one
    // stores it and gets its id, the others find it there.
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let store = db.store.clone();
        tasks.push(tokio::spawn(async move {
            store
                .notes()
                .add_note(note("u1", "your_turn", "g1", 4, 10))
                .await
                .unwrap()
        }));
    }
    let mut ids = Vec::new();
    for t in tasks {
        ids.extend(t.await.unwrap());
    }
    assert_eq!(ids.len(), 1, "{ids:?}");
    // The same game at another ply, or another kind, is another event.
    assert!(notes
        .add_note(note("u1", "your_turn", "g1", 6, 11))
        .await
        .unwrap()
        .is_some());
    assert!(notes
        .add_note(note("u1", "time_low", "g1", 4, 12))
        .await
        .unwrap()
        .is_some());
    assert_eq!(notes.unread("u1").await.unwrap(), 3);
    let one = notes.note("u1", ids[0]).await.unwrap().unwrap();
    assert_eq!(
        one,
        NoteRow {
            id: ids[0],
            ..note("u1", "your_turn", "g1", 4, 10)
        }
    );
    // Another account cannot read it.
    assert_eq!(notes.note("u2", ids[0]).await.unwrap(), None);
}

async fn the_list_is_unread_first_then_newest_first_and_paged(db: Db) {
    let notes = db.store.notes();
    let mut ids = Vec::new();
    for (i, subject) in ["a", "b", "c", "d"].iter().enumerate() {
        let id = notes
            .add_note(note("u1", "game_over", subject, 1, 100 + i as i64))
            .await
            .unwrap()
            .unwrap();
        ids.push(id);
    }
    notes
        .add_note(note("u2", "game_over", "z", 1, 500))
        .await
        .unwrap();
    // The newest one read: it goes after the unread ones.
    assert_eq!(
        notes.mark_read("u1", Some(&ids[3..]), 200).await.unwrap(),
        1
    );
    let subjects = |list: Vec<NoteRow>| list.into_iter().map(|n| n.subject).collect::<Vec<_>>();
    assert_eq!(
        subjects(notes.notes("u1", 0, 10).await.unwrap()),
        ["c", "b", "a", "d"]
    );
    assert_eq!(subjects(notes.notes("u1", 1, 2).await.unwrap()), ["b", "a"]);
    let list = notes.notes("u1", 3, 10).await.unwrap();
    assert_eq!(list[0].read, Some(200));
}

async fn marking_read_touches_only_the_accounts_own_notes(db: Db) {
    let notes = db.store.notes();
    let mine = notes
        .add_note(note("u1", "challenge", "s1", 0, 1))
        .await
        .unwrap()
        .unwrap();
    let theirs = notes
        .add_note(note("u2", "challenge", "s2", 0, 1))
        .await
        .unwrap()
        .unwrap();
    // u1 naming u2's note changes nothing of it.
    assert_eq!(notes.mark_read("u1", Some(&[theirs]), 5).await.unwrap(), 0);
    assert_eq!(notes.unread("u2").await.unwrap(), 1);
    assert_eq!(
        notes
            .mark_read("u1", Some(&[mine, theirs]), 5)
            .await
            .unwrap(),
        1
    );
    // Read once: a second marking finds nothing unread.
    assert_eq!(notes.mark_read("u1", Some(&[mine]), 6).await.unwrap(), 0);
    assert_eq!(notes.note("u1", mine).await.unwrap().unwrap().read, Some(5));
    notes
        .add_note(note("u1", "challenge", "s3", 0, 2))
        .await
        .unwrap();
    notes
        .add_note(note("u1", "challenge", "s4", 0, 3))
        .await
        .unwrap();
    assert_eq!(notes.mark_read("u1", None, 7).await.unwrap(), 2);
    assert_eq!(notes.unread("u1").await.unwrap(), 0);
    assert_eq!(notes.unread("u2").await.unwrap(), 1);
}

async fn read_notes_are_pruned_and_unread_ones_kept(db: Db) {
    let notes = db.store.notes();
    let old = notes
        .add_note(note("u1", "game_over", "g1", 9, 1))
        .await
        .unwrap()
        .unwrap();
    let recent = notes
        .add_note(note("u1", "game_over", "g2", 9, 2))
        .await
        .unwrap()
        .unwrap();
    notes
        .add_note(note("u1", "game_over", "g3", 9, 3))
        .await
        .unwrap();
    notes.mark_read("u1", Some(&[old]), 10).await.unwrap();
    notes.mark_read("u1", Some(&[recent]), 50).await.unwrap();
    assert_eq!(notes.prune_notes(20).await.unwrap(), 1);
    let left: Vec<String> = notes
        .notes("u1", 0, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|n| n.subject)
        .collect();
    assert_eq!(left, ["g3", "g2"]);
}

async fn deleting_an_account_deletes_its_notes(db: Db) {
    let accounts = db.store.accounts();
    for (id, name) in [("u1", "Ada"), ("u2", "Bea")] {
        accounts
            .create_user(UserRow {
                id: id.into(),
                name: name.into(),
                name_key: name.to_lowercase(),
                created: 1,
                seen: 1,
                password: Some("phc".into()),
                bot: false,
                deleted: false,
            })
            .await
            .unwrap();
        db.store
            .notes()
            .add_note(note(id, "game_over", "g1", 3, 1))
            .await
            .unwrap();
    }
    accounts.delete_user("u1").await.unwrap();
    assert!(db
        .store
        .notes()
        .notes("u1", 0, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(db.store.notes().unread("u2").await.unwrap(), 1);
}

async fn next(changes: &mut tokio::sync::broadcast::Receiver<Change>) -> Option<Change> {
    tokio::time::timeout(Duration::from_secs(5), changes.recv())
        .await
        .ok()
        .map(|c| c.unwrap())
}

async fn notes_are_announced_on_postgres_only(db: Db) {
    let store: Arc<dyn crate::Storage> = db.store.clone();
    let Some(mut changes) = store.changes() else {
        assert_eq!(store.kind(), "sqlite");
        return;
    };
    assert_eq!(next(&mut changes).await, Some(Change::Missed));
    let notes = store.notes();
    let id = notes
        .add_note(note("u1", "your_turn", "g1", 2, 1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        next(&mut changes).await,
        Some(Change::Note {
            user: "u1".into(),
            id: Some(id)
        })
    );
    // The same event again says nothing: the next heard is the reading.
    assert_eq!(
        notes
            .add_note(note("u1", "your_turn", "g1", 2, 3))
            .await
            .unwrap(),
        None
    );
    assert_eq!(notes.mark_read("u1", Some(&[999]), 4).await.unwrap(), 0);
    assert_eq!(notes.mark_read("u1", None, 5).await.unwrap(), 1);
    assert_eq!(
        next(&mut changes).await,
        Some(Change::Note {
            user: "u1".into(),
            id: None
        })
    );
}

async fn a_note_no_punct_makes_is_refused(db: Db) {
    let notes = db.store.notes();
    for bad in [
        note("u1", "poke", "g1", 1, 1),
        note("u 1", "game_over", "g1", 1, 1),
        note("u1", "game_over", "", 1, 1),
    ] {
        assert!(notes.add_note(bad.clone()).await.is_err(), "{bad:?}");
    }
    assert_eq!(notes.unread("u1").await.unwrap(), 0);
}
