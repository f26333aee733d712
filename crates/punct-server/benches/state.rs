//! What every change to a game costs the server besides the database: the
//! game's JSON state (legal moves included), built once per change and sent
//! to every watcher.

use criterion::{criterion_group, criterion_main, Criterion};
use punct_server::{GameRow, LiveGame, Mode};
use std::hint::black_box;

/// The start (about 6,000 legal moves) and a public case's opening 15
/// plies in.
const GAMES: [(&str, &str); 2] = [
    ("start", ""),
    ("ply15", "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4"),
];

fn game(moves: &str) -> LiveGame {
    LiveGame::from_row(GameRow {
        id: "bench".into(),
        variant: "standard".into(),
        mode: Mode::Online,
        white_token: Some("w".into()),
        black_token: Some("b".into()),
        start: "standard:w:0:-".into(),
        moves: moves.into(),
        created: 0,
        updated: 0,
        version: 1,
        plies: 0,
        invite: None,
        imported: false,
        tags: None,
        ..GameRow::default()
    })
    .expect("a valid game")
}

fn state(c: &mut Criterion) {
    let mut group = c.benchmark_group("state_json");
    for (name, moves) in GAMES {
        let g = game(moves);
        group.bench_function(name, |b| b.iter(|| black_box(g.view().to_text())));
    }
    group.finish();
}

criterion_group!(benches, state);
criterion_main!(benches);
