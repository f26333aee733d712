//! The job table of a shared PostgreSQL database (store/jobs.rs), through
//! the library against a real PostgreSQL: every write puts or removes the
//! job its game waits for; one instance at a time holds a job; a claim
//! that runs out lets another instance take the job, and concurrent
//! take-overs never hand one job to two instances. Without a cluster the
//! tests say so and pass (`scripts/test.sh` always gives them one).

mod common;

use common::{cluster_for, postgres_database, psql};
use punct_core::{Outcome, Position, Side, Variant};
use punct_store::postgres::Store;
use punct_store::{End, EndReason, GameRow, JobKind, Lease, Mode, Storage};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A database of its own, migrated, and its store; `None` without a
/// cluster.
async fn store(test: &str) -> Option<(Arc<Store>, String)> {
    cluster_for(test)?;
    static N: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "punct_jobs_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    );
    let url = tokio::task::spawn_blocking(move || postgres_database(&name))
        .await
        .unwrap();
    Some((Arc::new(Store::open(&url).await.unwrap()), url))
}

fn lease(owner: &str, secs: u64) -> Lease {
    Lease {
        owner: owner.into(),
        length: Duration::from_secs(secs),
    }
}

/// A game against the AI, which plays White: its move is awaited.
fn ai_game(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        variant: "standard".into(),
        mode: Mode::Ai {
            level: 4,
            ai_side: Side::White,
        },
        black_token: Some("human".into()),
        start: Position::new(Variant::Standard).to_position_string(),
        version: 1,
        ..GameRow::default()
    }
}

/// `GAME|KIND|CLAIM` of the game's job, or "" when it has none.
fn job_row(url: &str, id: &str) -> String {
    psql(
        url,
        &format!("SELECT game_id || '|' || kind || '|' || coalesce(claim, '') FROM jobs WHERE game_id = '{id}'"),
    )
    .unwrap()
}

/// The game with `plies` of its first legal moves played, at `version`.
fn played(mut row: GameRow, plies: usize, version: i64) -> GameRow {
    let mut pos = Position::from_position_string(&row.start).unwrap();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mv = pos.legal_moves()[0];
        pos.play(mv).unwrap();
        moves.push(mv.to_string());
    }
    row.moves = moves.join(" ");
    row.plies = plies as i64;
    row.version = version;
    row
}

#[tokio::test]
async fn each_write_keeps_the_job_its_game_waits_for() {
    let Some((store, url)) = store("each_write_keeps_the_job").await else {
        return;
    };
    let g = ai_game("g1");
    store.insert(g.clone()).await.unwrap();
    assert_eq!(job_row(&url, "g1"), "g1|move|", "the AI is to move");
    let jobs = store.jobs().expect("PostgreSQL shares jobs");
    let a = lease("a", 30);
    assert!(jobs.claim("g1", JobKind::Move, 1, "a-1", &a).await.unwrap());

    // A change that leaves the AI to move (a draw offer) keeps the claim.
    let offered = GameRow {
        draw_offer: Some(Side::Black),
        version: 2,
        ..g.clone()
    };
    store.update(offered.clone(), 1).await.unwrap();
    assert_eq!(job_row(&url, "g1"), "g1|move|a-1");

    // The AI's move: the human is to move, nothing waits.
    store.update(played(g.clone(), 1, 3), 2).await.unwrap();
    assert_eq!(job_row(&url, "g1"), "");
    // The human's move: a new job, nobody's yet.
    store.update(played(g.clone(), 2, 4), 3).await.unwrap();
    assert_eq!(job_row(&url, "g1"), "g1|move|");

    // The human resigns: the game waits for its review instead.
    let over = GameRow {
        finished: Some(Outcome::WhiteWins),
        end: Some(End {
            outcome: Outcome::WhiteWins,
            reason: EndReason::Resignation(Side::Black),
        }),
        ..played(g.clone(), 2, 5)
    };
    store.update(over.clone(), 4).await.unwrap();
    assert_eq!(job_row(&url, "g1"), "g1|review|");
    // Reviewed: nothing waits.
    let reviewed = GameRow {
        review: Some("{}".into()),
        version: 6,
        ..over
    };
    store.update(reviewed, 5).await.unwrap();
    assert_eq!(job_row(&url, "g1"), "");

    // A stale write changes neither the game nor its job.
    assert!(store.update(played(g, 3, 9), 1).await.is_err());
    assert_eq!(job_row(&url, "g1"), "");
}

#[tokio::test]
async fn one_instance_holds_a_job_until_its_claim_runs_out() {
    let Some((store, url)) = store("one_instance_holds_a_job").await else {
        return;
    };
    store.insert(ai_game("g2")).await.unwrap();
    let jobs = store.jobs().unwrap();
    let (a, b) = (lease("a", 30), lease("b", 30));
    assert!(jobs.claim("g2", JobKind::Move, 1, "a-1", &a).await.unwrap());
    assert!(
        !jobs.claim("g2", JobKind::Move, 1, "b-1", &b).await.unwrap(),
        "held by a"
    );
    assert!(
        jobs.take(10, Duration::ZERO, "b-2", &b)
            .await
            .unwrap()
            .is_empty(),
        "a live claim is not taken over"
    );
    // The same instance may claim again (its take-over hands on to its work).
    assert!(jobs.claim("g2", JobKind::Move, 1, "a-2", &a).await.unwrap());
    assert_eq!(
        jobs.renew(&["a-1".into(), "a-2".into()], &a).await.unwrap(),
        vec!["a-2".to_string()],
        "the newer claim replaced the older"
    );
    // a stops answering: its lease runs out (moved into the past rather
    // than waited for).
    psql(&url, "UPDATE jobs SET lease = now() - interval '1 second'").unwrap();
    let taken = jobs.take(10, Duration::ZERO, "b-3", &b).await.unwrap();
    assert_eq!(taken, vec![("g2".to_string(), JobKind::Move)]);
    assert!(
        jobs.renew(&["a-2".into()], &a).await.unwrap().is_empty(),
        "a's claim is lost"
    );
    assert_eq!(
        psql(&url, "SELECT owner || ' ' || claim FROM jobs").unwrap(),
        "b b-3"
    );
    // b lets go undone: after a pause it is anyone's again.
    jobs.release("b-3").await.unwrap();
    assert!(
        jobs.take(10, Duration::from_secs(60), "c-1", &lease("c", 30))
            .await
            .unwrap()
            .is_empty(),
        "just let go: its putter gets the first chance"
    );
    assert_eq!(
        jobs.take(10, Duration::ZERO, "c-2", &lease("c", 30))
            .await
            .unwrap(),
        vec![("g2".to_string(), JobKind::Move)]
    );
}

/// A player waits for a move, nobody for a review: a take-over takes the
/// moves first, however old the reviews.
#[tokio::test]
async fn a_take_over_takes_the_ais_moves_before_reviews() {
    let Some((store, url)) = store("take_over_moves_first").await else {
        return;
    };
    let over = GameRow {
        finished: Some(Outcome::WhiteWins),
        end: Some(End {
            outcome: Outcome::WhiteWins,
            reason: EndReason::Resignation(Side::Black),
        }),
        ..played(ai_game("old-review"), 2, 1)
    };
    store.insert(over).await.unwrap();
    store.insert(ai_game("new-move")).await.unwrap();
    psql(
        &url,
        "UPDATE jobs SET created = now() - interval '1 hour' WHERE game_id = 'old-review'",
    )
    .unwrap();
    let jobs = store.jobs().unwrap();
    let b = lease("b", 30);
    assert_eq!(
        jobs.take(1, Duration::ZERO, "b-1", &b).await.unwrap(),
        vec![("new-move".to_string(), JobKind::Move)]
    );
    assert_eq!(
        jobs.take(1, Duration::ZERO, "b-2", &b).await.unwrap(),
        vec![("old-review".to_string(), JobKind::Review)]
    );
}

#[tokio::test]
async fn a_game_stored_before_the_job_table_gets_its_job_when_claimed() {
    let Some((store, url)) = store("a_game_stored_before").await else {
        return;
    };
    store.insert(ai_game("g3")).await.unwrap();
    psql(&url, "DELETE FROM jobs").unwrap();
    let jobs = store.jobs().unwrap();
    let a = lease("a", 30);
    assert!(
        !jobs.claim("g3", JobKind::Move, 7, "a-1", &a).await.unwrap(),
        "not made for a version the game is not at"
    );
    assert_eq!(job_row(&url, "g3"), "");
    assert!(jobs.claim("g3", JobKind::Move, 1, "a-2", &a).await.unwrap());
    assert_eq!(job_row(&url, "g3"), "g3|move|a-2");
    assert!(
        !jobs
            .claim("g3", JobKind::Review, 1, "a-3", &a)
            .await
            .unwrap(),
        "not a job of another kind"
    );
}

#[tokio::test]
async fn concurrent_take_overs_hand_each_job_to_one_instance() {
    let Some((store, url)) = store("concurrent_take_overs").await else {
        return;
    };
    for i in 0..20 {
        store.insert(ai_game(&format!("t{i:02}"))).await.unwrap();
    }
    // Twenty jobs, left by an instance that died.
    psql(
        &url,
        "UPDATE jobs SET owner = 'dead', claim = 'dead-1', lease = now() - interval '1 second'",
    )
    .unwrap();
    let takers: Vec<_> = (0..8)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let me = lease(&format!("i{i}"), 30);
                let mut mine = Vec::new();
                for round in 0..10 {
                    let taken = store
                        .jobs()
                        .unwrap()
                        .take(2, Duration::ZERO, &format!("i{i}-{round}"), &me)
                        .await
                        .unwrap();
                    mine.extend(taken.into_iter().map(|(id, _)| id));
                }
                mine
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in takers {
        all.extend(t.await.unwrap());
    }
    all.sort();
    let expected: Vec<String> = (0..20).map(|i| format!("t{i:02}")).collect();
    assert_eq!(all, expected, "every job taken, none twice");
}
