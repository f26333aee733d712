use punct_core::*;
use std::time::Instant;
fn main() {
    for v in [Variant::Standard, Variant::Basic] {
        let mut p = Position::new(v);
        for d in 1..=2 {
            let t = Instant::now();
            let n = p.perft(d);
            let s = t.elapsed().as_secs_f64();
            println!("{v} perft({d}) = {n} in {s:.3}s = {:.1} M/s", n as f64 / s / 1e6);
        }
    }
    // mid-game movegen
    let mut g = Game::new(Variant::Standard);
    let moves = parse_moves("C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4").unwrap();
    for m in moves { g.play(m).unwrap(); }
    let p = g.position().clone();
    let t = Instant::now();
    let mut total = 0; let mut v = Vec::new();
    for _ in 0..2000 { p.legal_moves_into(&mut v); total += v.len(); }
    let s = t.elapsed().as_secs_f64();
    println!("movegen {} moves/pos, {:.1} M moves/s", v.len(), total as f64 / s / 1e6);
    let mut q = p.clone();
    let t = Instant::now();
    let n = q.perft(2);
    let s = t.elapsed().as_secs_f64();
    println!("mid perft(2) = {n} in {s:.3}s = {:.1} M/s", n as f64 / s / 1e6);
}
