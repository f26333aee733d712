//! Search speed of the strongest level: nodes (positions evaluated) per
//! second on fixed mid-game positions, one thread, node-limited so every
//! iteration does the same work.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use punct_core::{parse_moves, Game, Position, Variant};
use punct_engine::{new_engine, Limits};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

/// Openings of public differential cases, 15–18 plies in.
const POSITIONS: [(&str, &str); 3] = [
    ("standard", "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4"),
    ("basic", "R@P16/3 M@D2/0 E@N15/2 R@H11/5 C@I13/2 L@G13/4 C@B8/2 E@J17/0 R@D9/0 C@O7/1 L@I12/0 L@F8/3 T@P14/5 E@D5/4"),
    ("standard", "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4"),
];

const NODES: u64 = 20_000;

fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|(v, m)| {
            let variant: Variant = v.parse().unwrap();
            Game::replay(Position::new(variant), &parse_moves(m).unwrap())
                .unwrap()
                .position()
                .clone()
        })
        .collect()
}

fn search(c: &mut Criterion) {
    let set = positions();
    // Nodes one iteration visits (a node-limited search is deterministic).
    let stop = AtomicBool::new(false);
    let per_iteration: u64 = set
        .iter()
        .map(|p| {
            let mut e = new_engine("level4", 1).unwrap();
            e.search(p, &Limits::nodes(NODES), &stop, &mut |_| {}).nodes
        })
        .sum();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(per_iteration));
    group.bench_function("level4_20k_nodes_3pos", |b| {
        b.iter(|| {
            for p in &set {
                let mut e = new_engine("level4", 1).unwrap();
                black_box(e.search(p, &Limits::nodes(NODES), &stop, &mut |_| {}));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
