//! `punct db` on SQLite files (PostgreSQL's side is tested with the server,
//! crates/punct-server/tests/postgres.rs): what migrate says it did, copies
//! between files, and the refusals.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{punct, text};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-db-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn said(o: &Output) -> (String, String) {
    (text(&o.stdout), text(&o.stderr))
}

#[test]
fn migrate_says_whether_it_made_a_database_or_had_nothing_to_do() {
    let dir = temp_dir("migrate");
    let data = dir.to_str().unwrap();
    let o = punct(&["db", "migrate", "--data-dir", data]);
    let (out, err) = said(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("made a new database at schema version"),
        "{out}"
    );
    assert!(dir.join("games.sqlite3").is_file());
    let o = punct(&["db", "migrate", "--database", &format!("sqlite:{data}")]);
    let (out, err) = said(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("nothing to do"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn copy_between_sqlite_files_and_its_refusals() {
    let dir = temp_dir("copy");
    let from = format!("sqlite:{}", dir.join("a.sqlite3").display());
    let to = format!("sqlite:{}", dir.join("b.sqlite3").display());
    assert!(punct(&["db", "migrate", "--database", &from])
        .status
        .success());
    let o = punct(&["db", "copy", "--from", &from, "--to", &to]);
    let (out, err) = said(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.starts_with("copied 0 games from database"), "{out}");
    assert!(dir.join("b.sqlite3").is_file(), "the target is made");

    let o = punct(&["db", "copy", "--from", &from, "--to", &from]);
    assert_eq!(o.status.code(), Some(2));
    assert!(said(&o).1.contains("the same database"), "{:?}", said(&o));

    let o = punct(&["db", "copy", "--from", "mysql://x/y", "--to", &to]);
    assert_eq!(o.status.code(), Some(2));
    assert!(said(&o).1.contains("is not a database"), "{:?}", said(&o));

    // A file that is not SQLite is named, and left as it was.
    let junk = dir.join("junk.sqlite3");
    std::fs::write(&junk, b"not a database at all, just text").unwrap();
    let o = punct(&[
        "db",
        "copy",
        "--from",
        &format!("sqlite:{}", junk.display()),
        "--to",
        &to,
    ]);
    assert_eq!(o.status.code(), Some(2), "{:?}", said(&o));
    assert!(
        said(&o).1.contains("is not an SQLite database"),
        "{:?}",
        said(&o)
    );
    assert_eq!(
        std::fs::read(&junk).unwrap(),
        b"not a database at all, just text"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
