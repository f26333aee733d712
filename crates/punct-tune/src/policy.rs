//! Fitting the move-ordering policy ([`punct_engine::policy`]) to the
//! moves self-play games chose: a softmax (multinomial logistic)
//! regression of the move played on the counts of every legal move, by
//! Newton's method.
//!
//! The ranking only picks each inner node's shortlist (three times the
//! node's width, then re-ranked by a one-ply evaluation), so what counts
//! is how often the move the search chose makes the shortlist: the fit
//! reports that share for the hand-set and the fitted weights.

use crate::dataset::each_position;
use crate::fit::newton;
use crate::selfplay::SelfPlayGame;
use punct_core::{Move, Position};
use punct_engine::policy::{self, COUNT, NAMES};
use punct_engine::Policy;

/// One position: the counts of every legal move and which was played.
#[derive(Clone, Debug)]
pub struct Choice {
    /// Counts per legal move ([`policy::features`]), kept small: each is
    /// a handful of cells.
    pub moves: Vec<[i8; COUNT]>,
    pub chosen: usize,
    /// The game it comes from (its number in the dataset).
    pub game: usize,
}

/// The positions of `games` whose move the policy should predict: those
/// of [`each_position`] with more than one legal move (a pass is only
/// legal alone).
pub fn choices(games: &[SelfPlayGame], skip_plies: usize) -> Vec<Choice> {
    let mut out = Vec::new();
    each_position(games, skip_plies, |index, _, pos, mv| {
        out.extend(choice(pos, mv, index));
    });
    out
}

fn choice(pos: &Position, played: Move, game: usize) -> Option<Choice> {
    let all = policy::features(pos);
    if all.len() < 2 {
        return None;
    }
    let chosen = all.iter().position(|(m, _)| *m == played)?;
    let moves = all
        .iter()
        .map(|(_, f)| f.map(|v| v.clamp(i8::MIN as i32, i8::MAX as i32) as i8))
        .collect();
    Some(Choice {
        moves,
        chosen,
        game,
    })
}

fn score(w: &[f64; COUNT], f: &[i8; COUNT]) -> f64 {
    w.iter().zip(f).map(|(w, &f)| w * f64::from(f)).sum()
}

/// How well a ranking predicts the moves played.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Hits {
    /// Mean log loss (nats per position) of the softmax of the scores;
    /// for the hand-set weights at their best scale.
    pub log_loss: f64,
    /// Shares of positions whose move ranks first, in the best 12 and in
    /// the best 36 (ties shared out evenly).
    pub top1: f64,
    pub top12: f64,
    pub top36: f64,
}

/// For each `k` of `ks`, the share of `choices` whose played move is
/// among the `k` best by `w`, a tie counted by the chance that the
/// ranking's order among equals puts it inside. One pass ranks each
/// position for every `k`.
fn tops<const N: usize>(choices: &[Choice], w: &[f64; COUNT], ks: [usize; N]) -> [f64; N] {
    let mut hits = [0.0; N];
    for c in choices {
        let s = score(w, &c.moves[c.chosen]);
        let (mut above, mut equal) = (0usize, 0usize);
        for f in &c.moves {
            let v = score(w, f);
            if v > s {
                above += 1;
            } else if v == s {
                equal += 1;
            }
        }
        for (hit, k) in hits.iter_mut().zip(ks) {
            *hit += (k.saturating_sub(above) as f64 / equal as f64).min(1.0);
        }
    }
    hits.map(|h| h / choices.len().max(1) as f64)
}

/// Mean log loss of the softmax of `scale · w`.
fn log_loss(choices: &[Choice], w: &[f64; COUNT], scale: f64) -> f64 {
    let mut total = 0.0;
    for c in choices {
        let z: Vec<f64> = c.moves.iter().map(|f| scale * score(w, f)).collect();
        let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = z.iter().map(|v| (v - max).exp()).sum();
        total += max + sum.ln() - z[c.chosen];
    }
    total / choices.len().max(1) as f64
}

/// The scale at which `w`'s scores predict the moves best (Newton's
/// method in one dimension, from a start where the scores span a few
/// nats).
fn best_scale(choices: &[Choice], w: &[f64; COUNT]) -> f64 {
    let spread = w.iter().map(|v| v.abs()).fold(0.0, f64::max).max(1e-9);
    let mut s = 1.0 / spread;
    for _ in 0..50 {
        let (mut g, mut h) = (0.0, 0.0);
        for c in choices {
            let z: Vec<f64> = c.moves.iter().map(|f| score(w, f)).collect();
            let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = z.iter().map(|v| (s * (v - max)).exp()).collect();
            let sum: f64 = e.iter().sum();
            let mean: f64 = z.iter().zip(&e).map(|(z, e)| z * e).sum::<f64>() / sum;
            let square: f64 = z.iter().zip(&e).map(|(z, e)| z * z * e).sum::<f64>() / sum;
            g += mean - z[c.chosen];
            h += square - mean * mean;
        }
        if h <= 0.0 {
            break;
        }
        let step = g / h;
        s = (s - step).max(s / 4.0);
        if step.abs() < 1e-9 * s.abs().max(1e-12) {
            break;
        }
    }
    s
}

/// How well `w` (at its best scale) predicts the moves of `choices`.
pub fn hits(choices: &[Choice], w: &[f64; COUNT]) -> Hits {
    let scale = best_scale(choices, w);
    let [top1, top12, top36] = tops(choices, w, [1, 12, 36]);
    Hits {
        log_loss: log_loss(choices, w, scale),
        top1,
        top12,
        top36,
    }
}

/// The weights (in log-odds per count) that best predict the moves of
/// `choices`, with a ridge penalty `lambda` on each weight times its
/// count's spread (so it does not depend on the count's units).
pub fn fit(choices: &[Choice], lambda: f64) -> Result<[f64; COUNT], String> {
    if choices.is_empty() {
        return Err("no positions to fit the policy to".into());
    }
    // Each count's spread over every move, to scale the penalty and the
    // Newton system; a count that never varies keeps weight 0.
    let (mut n, mut sum, mut square) = (0.0, [0.0; COUNT], [0.0; COUNT]);
    for f in choices.iter().flat_map(|c| &c.moves) {
        n += 1.0;
        for i in 0..COUNT {
            let v = f64::from(f[i]);
            sum[i] += v;
            square[i] += v * v;
        }
    }
    let spread: [f64; COUNT] =
        std::array::from_fn(|i| (square[i] / n - (sum[i] / n).powi(2)).max(0.0).sqrt());
    let live: Vec<usize> = (0..COUNT).filter(|&i| spread[i] > 1e-9).collect();
    let d = live.len();
    let m = choices.len() as f64;
    let objective = |w: &[f64; COUNT]| {
        let ridge: f64 = live.iter().map(|&i| (w[i] * spread[i]).powi(2)).sum();
        log_loss(choices, w, 1.0) + 0.5 * lambda * ridge
    };
    // The fit runs over the live counts only; the others stay 0.
    let full = |v: &[f64]| {
        let mut w = [0.0; COUNT];
        for (&i, &x) in live.iter().zip(v) {
            w[i] = x;
        }
        w
    };
    let system = |v: &[f64]| {
        let w = full(v);
        // Gradient and Hessian in units of each count's spread.
        let mut grad = vec![0.0; d];
        let mut hess = vec![0.0; d * d];
        for (a, &i) in live.iter().enumerate() {
            grad[a] = lambda * w[i] * spread[i] * spread[i];
            hess[a * d + a] = lambda * spread[i] * spread[i];
        }
        for c in choices {
            let z: Vec<f64> = c.moves.iter().map(|f| score(&w, f)).collect();
            let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = z.iter().map(|v| (v - max).exp()).collect();
            let total: f64 = e.iter().sum();
            let mut mean = vec![0.0; d];
            let mut second = vec![0.0; d * d];
            for (f, e) in c.moves.iter().zip(&e) {
                let p = e / total;
                for (a, &i) in live.iter().enumerate() {
                    let pa = p * f64::from(f[i]);
                    mean[a] += pa;
                    for (b, &j) in live.iter().enumerate().take(a + 1) {
                        second[a * d + b] += pa * f64::from(f[j]);
                    }
                }
            }
            let chosen = &c.moves[c.chosen];
            for (a, &i) in live.iter().enumerate() {
                grad[a] += (mean[a] - f64::from(chosen[i])) / m;
                for b in 0..=a {
                    hess[a * d + b] += (second[a * d + b] - mean[a] * mean[b]) / m;
                }
            }
        }
        (grad, hess)
    };
    let w = newton(vec![0.0; d], |v| objective(&full(v)), system, 1e-12)?;
    Ok(full(&w))
}

/// Fitted weights as a [`Policy`]: scaled so the largest is ±1000 (only
/// the order matters) and rounded.
pub fn to_policy(w: &[f64; COUNT]) -> Result<Policy, String> {
    let largest = w.iter().map(|v| v.abs()).fold(0.0, f64::max);
    if !(largest.is_finite() && largest > 0.0) {
        return Err("the fitted policy is all zero".into());
    }
    Policy::new(std::array::from_fn(|i| {
        (w[i] * 1000.0 / largest).round() as i32
    }))
}

/// The weights of `policy` as numbers, for [`hits`].
pub fn as_numbers(policy: &Policy) -> [f64; COUNT] {
    policy.weights().map(f64::from)
}

/// What a policy fit found, for the file's header and the terminal.
#[derive(Clone, Debug)]
pub struct PolicyFit {
    pub games: usize,
    pub train: usize,
    pub validation: usize,
    /// On the training and the validation positions.
    pub hand: [Hits; 2],
    pub fitted: [Hits; 2],
    pub written: [Hits; 2],
    pub policy: Policy,
}

/// Fits a policy to the moves of `games`: every `validation_every`-th
/// game held out.
pub fn fit_policy(
    games: &[SelfPlayGame],
    skip_plies: usize,
    validation_every: usize,
    lambda: f64,
) -> Result<PolicyFit, String> {
    let all = choices(games, skip_plies);
    let every = validation_every.max(2);
    let (validation, train): (Vec<Choice>, Vec<Choice>) =
        all.into_iter().partition(|c| c.game % every == every - 1);
    let w = fit(&train, lambda)?;
    let policy = to_policy(&w)?;
    let both = |w: &[f64; COUNT]| [hits(&train, w), hits(&validation, w)];
    Ok(PolicyFit {
        games: games.len(),
        train: train.len(),
        validation: validation.len(),
        hand: both(&as_numbers(&Policy::hand())),
        fitted: both(&w),
        written: both(&as_numbers(&policy)),
        policy,
    })
}

/// A few lines on what a fit found.
pub fn policy_summary(f: &PolicyFit) -> String {
    let mut out = format!(
        "{} games, {} positions ({} train, {} validation)\n\
         share of the moves played ranked first / in the best 12 / in the best 36, \
         and mean log loss, train | validation:\n",
        f.games,
        f.train + f.validation,
        f.train,
        f.validation
    );
    for (name, h) in [
        ("hand", &f.hand),
        ("fitted", &f.fitted),
        ("as written", &f.written),
    ] {
        out.push_str(&format!(
            "  {name:<10} {:.3} / {:.3} / {:.3}, {:.4} | {:.3} / {:.3} / {:.3}, {:.4}\n",
            h[0].top1,
            h[0].top12,
            h[0].top36,
            h[0].log_loss,
            h[1].top1,
            h[1].top12,
            h[1].top36,
            h[1].log_loss
        ));
    }
    out.push_str("weights:");
    for (name, w) in NAMES.iter().zip(f.policy.weights()) {
        out.push_str(&format!(" {name} {w}"));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions where the move played is always the one with the most of
    /// one count: the fit must learn to rank by that count.
    #[test]
    fn the_fit_learns_which_count_predicts_the_move() {
        let mut choices = Vec::new();
        for k in 0..200 {
            let mut moves = Vec::new();
            for j in 0..10usize {
                let mut f = [0i8; COUNT];
                // Count 3 decides; count 0 is noise.
                f[3] = ((j * 7 + k) % 10) as i8;
                f[0] = ((j * 3 + k % 7) % 5) as i8;
                moves.push(f);
            }
            let chosen = (0..moves.len()).max_by_key(|&j| moves[j][3]).unwrap();
            choices.push(Choice {
                moves,
                chosen,
                game: k,
            });
        }
        let w = fit(&choices, 1e-4).unwrap();
        assert!(w[3] > 1.0, "{w:?}");
        assert!(w[3] > 5.0 * w[0].abs(), "{w:?}");
        let h = hits(&choices, &w);
        assert!(h.top1 > 0.95, "{h:?}");
        // Ranking by count 0 alone predicts worse.
        let mut other = [0.0; COUNT];
        other[0] = 1.0;
        assert!(hits(&choices, &other).top1 < 0.5);
        let p = to_policy(&w).unwrap();
        assert_eq!(p.weights()[3], 1000);
    }

    #[test]
    fn each_position_keeps_the_counts_of_the_move_played() {
        let mut pos = Position::new(punct_core::Variant::Standard);
        let mut moves = Vec::new();
        for ply in 0..12 {
            let legal = pos.legal_moves();
            let mv = legal[(ply * 37) % legal.len()];
            moves.push(mv);
            pos.make(mv);
        }
        let game = SelfPlayGame {
            variant: punct_core::Variant::Standard,
            moves: moves.clone(),
            result: punct_core::Status::Draw,
        };
        let found = choices(&[game.clone(), game], 2);
        // The second game repeats the first: its positions are not taken twice.
        assert_eq!(found.len(), 10);
        let mut pos = Position::new(punct_core::Variant::Standard);
        for (ply, &mv) in moves.iter().enumerate() {
            if ply >= 2 {
                let c = &found[ply - 2];
                let all = policy::features(&pos);
                assert_eq!(c.moves.len(), all.len());
                assert_eq!(all[c.chosen].0, mv);
                assert_eq!(c.moves[c.chosen].map(i32::from), all[c.chosen].1);
            }
            pos.make(mv);
        }
    }

    #[test]
    fn no_positions_is_an_error_not_a_panic() {
        assert!(fit(&[], 1e-4).unwrap_err().contains("no positions"));
        assert!(to_policy(&[0.0; COUNT]).unwrap_err().contains("all zero"));
    }
}
