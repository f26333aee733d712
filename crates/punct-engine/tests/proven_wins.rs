//! Every forced win the strongest level claims is real: each `win N` score
//! (and each `loss N`) is replayed against the rules by
//! `punct_engine::suite::verify_claim` — the engine's move, then every
//! legal reply of the opponent, nothing pruned (additions, relocations,
//! turns in place, pass), and the side must still win within the plies
//! left: at once (checked exactly), in two (the exhaustive win-in-two
//! prover), or by a shorter win that a new search claims and that is
//! checked the same way. A loss is checked the other way round: no move of
//! the side to move may escape. The tests fail on every claim found false
//! and on every win that cannot be confirmed; a loss in four or more that
//! the check's budget cannot confirm is only printed.
//!
//! The positions: every position of the tactical suites (tests/suites) and
//! positions from level-4 self-play games, each searched by level 4 with a
//! node limit, so every run searches and checks the same claims.
//!
//! The searches here are small (3000 nodes, a few milliseconds), so the
//! claims are mostly short; `every_claim_at_a_deeper_budget_is_real`
//! (ignored: minutes) repeats both runs at 30 000 nodes:
//! `cargo test -p punct-engine --release --test proven_wins -- --ignored`.

use punct_core::{Position, Variant};
use punct_engine::suite::{parse_suite, verify_claim, ClaimCheck, Tally};
use punct_engine::{new_engine, Engine, Limits, Player, RandomPlayer, Score, SearchResult};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The node limit of the searches (a node limit, not a time limit: the
/// same claims on every machine).
const NODES: u64 = 3_000;

fn search(engine: &mut dyn Engine, pos: &Position, nodes: u64) -> SearchResult {
    let stop = AtomicBool::new(false);
    engine.search(pos, &Limits::nodes(nodes), &stop, &mut |_| {})
}

struct Claims {
    /// The node limit of every search, the checks' new searches included.
    nodes: u64,
    positions: usize,
    wins: Tally,
    losses: Tally,
    /// Each false claim and each unconfirmed win, in words.
    problems: Vec<String>,
}

impl Claims {
    fn new(nodes: u64) -> Claims {
        Claims {
            nodes,
            positions: 0,
            wins: Tally::default(),
            losses: Tally::default(),
            problems: Vec::new(),
        }
    }

    fn check(&mut self, label: &str, pos: &Position, result: &SearchResult) {
        self.positions += 1;
        // A new search from a later position, by a fresh level 4.
        let nodes = self.nodes;
        let mut research = |p: &Position| search(&mut *new_engine("level4", 0).unwrap(), p, nodes);
        let Some(verdict) = verify_claim(pos, result, &mut research) else {
            return;
        };
        match result.score {
            Score::Win(_) => self.wins.add(&verdict),
            _ => self.losses.add(&verdict),
        }
        let (what, fails) = match &verdict {
            ClaimCheck::Verified => return,
            ClaimCheck::Refuted(why) => (format!("false: {why}"), true),
            // A win claimed must be proven; a true loss in four or more
            // often has too many moves for the check's budget.
            ClaimCheck::Unconfirmed(why) => (
                format!("unconfirmed: {why}"),
                matches!(result.score, Score::Win(_)),
            ),
        };
        let text = format!(
            "{label}: {} with {} — {what}\n    {}",
            result.score,
            result.best,
            pos.to_position_string()
        );
        if fails {
            self.problems.push(text);
        } else {
            println!("{text}");
        }
    }

    fn summary(&self) -> String {
        format!(
            "{} positions at {} nodes; win claims: {}; loss claims: {}",
            self.positions, self.nodes, self.wins, self.losses
        )
    }

    /// Fails listing every false claim and every unconfirmed win.
    fn assert_all_real(&self) {
        assert!(
            self.problems.is_empty(),
            "{}\n{} claims not proven real:\n{}",
            self.summary(),
            self.problems.len(),
            self.problems.join("\n")
        );
    }
}

fn suite_positions(name: &str) -> Vec<(String, Position)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suites")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    parse_suite(name, &text)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .entries
        .into_iter()
        .map(|e| (format!("{name}:{}", e.line), e.position))
        .collect()
}

/// The suites' positions, each searched by a fresh level 4.
fn suite_claims(nodes: u64) -> Claims {
    let mut claims = Claims::new(nodes);
    for name in ["win_in_1.txt", "must_block.txt", "win_in_2.txt"] {
        for (label, pos) in suite_positions(name) {
            let result = search(&mut *new_engine("level4", 7).unwrap(), &pos, nodes);
            claims.check(&label, &pos, &result);
        }
    }
    claims
}

#[test]
fn every_claim_on_the_tactical_suites_is_real() {
    let started = Instant::now();
    let claims = suite_claims(NODES);
    println!(
        "{}, in {:.1} s",
        claims.summary(),
        started.elapsed().as_secs_f64()
    );
    // Every win-in-1 position gives one.
    assert!(claims.wins.claimed >= 30, "{}", claims.summary());
    claims.assert_all_real();
}

/// Positions of level-4 self-play games (level 4 against itself at `nodes`
/// a move, after 2–7 random plies; the standard game and, one game in
/// three, the basic game), each with the search that chose its move, until
/// `count` positions: seeds 1, 2, …
fn self_play_claims(count: usize, nodes: u64) -> Claims {
    let mut claims = Claims::new(nodes);
    let mut seed = 1;
    while claims.positions < count {
        let variant = if seed % 3 == 2 {
            Variant::Basic
        } else {
            Variant::Standard
        };
        let mut pos = Position::new(variant);
        let mut random = RandomPlayer::new(seed);
        for _ in 0..2 + seed % 6 {
            if let Some(mv) = random.choose(&pos) {
                pos.make(mv);
            }
        }
        let mut engines = [
            new_engine("level4", seed).unwrap(),
            new_engine("level4", seed + 1).unwrap(),
        ];
        let mut ply = 0;
        while !pos.status().is_over() && claims.positions < count {
            let result = search(&mut *engines[pos.side_to_move().index()], &pos, nodes);
            claims.check(&format!("seed {seed} ply {ply}"), &pos, &result);
            pos.make(result.best);
            ply += 1;
        }
        seed += 1;
    }
    claims
}

/// About a minute in the test profile.
#[test]
fn every_claim_in_1000_self_play_positions_is_real() {
    let started = Instant::now();
    let claims = self_play_claims(1000, NODES);
    println!(
        "{}, in {:.1} s",
        claims.summary(),
        started.elapsed().as_secs_f64()
    );
    claims.assert_all_real();
}

#[test]
#[ignore = "minutes: run with --release --ignored"]
fn every_claim_at_a_deeper_budget_is_real() {
    let started = Instant::now();
    let mut suites = suite_claims(30_000);
    let games = self_play_claims(1000, 30_000);
    println!(
        "suites: {}\nself-play: {}\nin {:.1} s",
        suites.summary(),
        games.summary(),
        started.elapsed().as_secs_f64()
    );
    suites.positions += games.positions;
    suites.problems.extend(games.problems);
    suites.wins += &games.wins;
    suites.losses += &games.losses;
    suites.assert_all_real();
}
