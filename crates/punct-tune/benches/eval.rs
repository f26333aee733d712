//! What one evaluation costs: the hand-set weights, the tuned ones, and the
//! evaluation as it was written before the weights became data, on the
//! positions of a few self-play-like games (random games, every position).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use punct_core::{Position, Status, Variant};
use punct_engine::paths::distance_and_spread;
use punct_engine::{evaluate_with, Player, RandomPlayer, Weights};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..8 {
        let mut r = RandomPlayer::new(seed);
        let mut pos = Position::new(Variant::Standard);
        while let Some(m) = r.choose(&pos) {
            pos.make(m);
            if pos.status() == Status::Ongoing {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// The hand evaluation as `ai/eval.rs` computed it before `features`.
fn old_hand(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let (dm, sm) = distance_and_spread(pos, me);
    let (dt, st) = distance_and_spread(pos, me.opponent());
    let left = pos.reserve_total(me).min(pos.reserve_total(me.opponent())) as i32;
    let weight = match left {
        0..=2 => 250,
        3..=4 => 100,
        5..=8 => 30,
        _ => 8,
    };
    150 + 100 * (dt as i32 - dm as i32)
        + 10 * (st as i32 - sm as i32)
        + weight * (pos.central_count(me) as i32 - pos.central_count(me.opponent()) as i32)
}

fn eval(c: &mut Criterion) {
    let set = positions();
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(set.len() as u64));
    group.bench_function("old_hand", |b| {
        b.iter(|| set.iter().map(|p| old_hand(black_box(p))).sum::<i32>())
    });
    for (name, w) in [("hand", Weights::hand()), ("tuned", Weights::tuned())] {
        group.bench_function(name, |b| {
            b.iter(|| {
                set.iter()
                    .map(|p| evaluate_with(black_box(p), &w))
                    .sum::<i32>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
