//! Match statistics: Elo difference with a confidence interval, likelihood
//! of superiority, and the sequential probability ratio test (SPRT).
//!
//! Everything uses the logistic Elo model: a rating difference `e` gives an
//! expected score `1 / (1 + 10^(-e/400))` per game (win 1, draw ½, loss 0).
//! The formulas are written out in docs/MATCH.md.

/// 97.5 % quantile of the standard normal distribution (two-sided 95 %).
const Z95: f64 = 1.959_963_984_540_054;

/// Pseudo-count given to an outcome (win, loss or draw) that has not
/// occurred yet, when fitting the SPRT's distributions (as fishtest does).
const REGULARIZE: f64 = 1e-3;

/// Wins, losses and draws, from the first engine's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game (0 when no game was played).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// Per-game variance of the score (the trinomial's, observed).
    fn variance(&self) -> f64 {
        let n = f64::from(self.games());
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }
}

/// The Elo difference of an expected score `s` (0 < s < 1).
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95 % confidence interval.
#[derive(Clone, Debug, PartialEq)]
pub enum EloEstimate {
    /// No games yet.
    NoGames,
    /// `elo ± margin`, where `margin` is half the interval's width (as
    /// cutechess prints it); either end may be infinite when the interval
    /// reaches a score of 0 or 1.
    Finite {
        elo: f64,
        margin: f64,
        low: f64,
        high: f64,
    },
    /// Every game won: the estimate is +∞; `low` is the 95 % lower bound.
    AllWon { low: f64 },
    /// Every game lost: the estimate is −∞; `high` is the 95 % upper bound.
    AllLost { high: f64 },
}

/// The Elo difference and its 95 % interval: the score's normal
/// approximation `s ± 1.96·σ/√n`, each end turned into Elo. A perfect (or
/// nil) score has no spread to measure, so its bound comes from the exact
/// (Clopper–Pearson) interval of n wins out of n: `s > 0.025^(1/n)`.
pub fn elo_estimate(t: &Tally) -> EloEstimate {
    let n = t.games();
    if n == 0 {
        return EloEstimate::NoGames;
    }
    let bound = 0.025f64.powf(1.0 / f64::from(n));
    if t.wins == n {
        return EloEstimate::AllWon {
            low: elo_of_score(bound),
        };
    }
    if t.losses == n {
        return EloEstimate::AllLost {
            high: elo_of_score(1.0 - bound),
        };
    }
    let s = t.score();
    let se = (t.variance() / f64::from(n)).sqrt();
    let to_elo = |x: f64| {
        if x <= 0.0 {
            f64::NEG_INFINITY
        } else if x >= 1.0 {
            f64::INFINITY
        } else {
            elo_of_score(x)
        }
    };
    let (low, high) = (to_elo(s - Z95 * se), to_elo(s + Z95 * se));
    EloEstimate::Finite {
        elo: elo_of_score(s),
        margin: (high - low) / 2.0,
        low,
        high,
    }
}

/// An Elo value with its sign, one decimal (`+107.5`, `-3.0`, `+inf`).
pub fn signed(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else if x.abs() < 0.05 {
        "0.0".into()
    } else {
        format!("{x:+.1}")
    }
}

impl EloEstimate {
    /// `X +/- Y` (cutechess style), or the one-sided bound for a perfect
    /// or nil score.
    pub fn describe(&self) -> String {
        match *self {
            EloEstimate::NoGames => "n/a (no games)".into(),
            EloEstimate::Finite {
                elo,
                margin,
                low,
                high,
            } => {
                let margin_text = if margin.is_finite() {
                    format!("{margin:.1}")
                } else {
                    "inf".into()
                };
                let mut text = format!("{} +/- {margin_text}", signed(elo));
                if !margin.is_finite() {
                    text.push_str(&format!(
                        " (95 % interval {} to {})",
                        signed(low),
                        signed(high)
                    ));
                }
                text
            }
            EloEstimate::AllWon { low } => {
                format!("+inf (every game won; 95 % interval > {})", signed(low))
            }
            EloEstimate::AllLost { high } => {
                format!("-inf (every game lost; 95 % interval < {})", signed(high))
            }
        }
    }
}

/// Likelihood of superiority: the probability that the first engine is
/// the stronger, from wins and losses (draws carry no information):
/// `½·(1 + erf((W − L) / √(2(W + L))))`; ½ with no decisive game.
pub fn los(t: &Tally) -> f64 {
    let decisive = f64::from(t.wins + t.losses);
    if decisive == 0.0 {
        return 0.5;
    }
    let diff = f64::from(t.wins) - f64::from(t.losses);
    0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
}

/// The error function (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// SPRT parameters: H0 "the difference is elo0" against H1 "it is elo1",
/// with error rates alpha (accepting H1 wrongly) and beta (H0 wrongly).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    AcceptH1,
    AcceptH0,
    Continue,
}

impl Sprt {
    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05` (any order; a key left
    /// out keeps the value shown here).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!(
                    "--sprt: `{part}` is not KEY=VALUE (expected e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05)"
                ));
            };
            let v: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt: `{value}` in `{part}` is not a number"))?;
            match key.trim().to_ascii_lowercase().as_str() {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                other => {
                    return Err(format!(
                        "--sprt: unknown key `{other}` (expected elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(format!(
                "--sprt: elo0 ({}) must be below elo1 ({})",
                sprt.elo0, sprt.elo1
            ));
        }
        if sprt.elo0.abs() >= 2000.0 || sprt.elo1.abs() >= 2000.0 {
            return Err("--sprt: elo0 and elo1 must lie between -2000 and 2000".into());
        }
        for (name, v) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!(
                    "--sprt: {name} ({v}) must be above 0 and below 0.5"
                ));
            }
        }
        Ok(sprt)
    }

    /// `(lower, upper)`: accept H0 at or below `ln(β/(1−α))`, H1 at or above
    /// `ln((1−β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of the results for the
    /// trinomial model (win/draw/loss). For each hypothesis the score is
    /// fixed (`s0`, `s1` from elo0, elo1) and the outcome probabilities are
    /// the most likely ones with that mean score; LLR = Σ nᵢ·ln(p1ᵢ/p0ᵢ).
    /// For ordinary samples this equals the familiar approximation
    /// `N·(s1−s0)·(2s̄−s0−s1) / (2σ²)` to within a few per cent, and unlike it
    /// stays finite and sensible when an outcome has not occurred yet
    /// (all wins give `N·ln(s1/s0)`).
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.games() == 0 {
            return 0.0;
        }
        let counts = [f64::from(t.losses), f64::from(t.draws), f64::from(t.wins)];
        let total: f64 = counts.iter().map(|&c| c.max(REGULARIZE)).sum();
        let observed = counts.map(|c| c.max(REGULARIZE) / total);
        let p0 = constrained_mle(observed, score_of_elo(self.elo0));
        let p1 = constrained_mle(observed, score_of_elo(self.elo1));
        (0..3)
            .filter(|&i| counts[i] > 0.0)
            .map(|i| counts[i] * (p1[i] / p0[i]).ln())
            .sum()
    }

    pub fn verdict(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Outcome scores in the order used here: loss, draw, win.
const POINTS: [f64; 3] = [0.0, 0.5, 1.0];

/// The distribution over (loss, draw, win) of mean score `s` that is most
/// likely to have produced the observed frequencies `observed` (all > 0):
/// `pᵢ = oᵢ / (1 + λ(xᵢ − s))` with λ the root of `Σ oᵢ(xᵢ − s)/(1 + λ(xᵢ − s))`,
/// which decreases in λ on `(−1/(1−s), 1/s)`: found by bisection.
fn constrained_mle(observed: [f64; 3], s: f64) -> [f64; 3] {
    let a = POINTS.map(|x| x - s);
    let f = |lambda: f64| -> f64 {
        (0..3)
            .map(|i| observed[i] * a[i] / (1.0 + lambda * a[i]))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let p = (0..3).map(|i| observed[i] / (1.0 + lambda * a[i]));
    let mut out = [0.0; 3];
    for (o, v) in out.iter_mut().zip(p) {
        *o = v;
    }
    let sum: f64 = out.iter().sum();
    out.map(|v| v / sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, losses: u32, draws: u32) -> Tally {
        Tally {
            wins,
            losses,
            draws,
        }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Reference values below were computed independently (Python, the
    // formulas in docs/MATCH.md; the SPRT one by a direct search over the
    // draw probability instead of the Lagrange multiplier used here).

    #[test]
    fn elo_and_its_interval_match_known_values() {
        let EloEstimate::Finite {
            elo,
            margin,
            low,
            high,
        } = elo_estimate(&tally(60, 30, 10))
        else {
            panic!("finite expected")
        };
        assert!(close(elo, 107.538, 0.001), "{elo}");
        assert!(close(margin, 68.458, 0.001), "{margin}");
        assert!(close(low, 43.165, 0.001) && close(high, 180.080, 0.001));
        let EloEstimate::Finite { elo, margin, .. } = elo_estimate(&tally(400, 350, 250)) else {
            panic!()
        };
        assert!(close(elo, 17.386, 0.001) && close(margin, 18.683, 0.001));
        let EloEstimate::Finite { elo, margin, .. } = elo_estimate(&tally(10, 10, 80)) else {
            panic!()
        };
        assert!(close(elo, 0.0, 1e-9) && close(margin, 30.532, 0.001));
        assert_eq!(
            elo_estimate(&tally(60, 30, 10)).describe(),
            "+107.5 +/- 68.5"
        );
        assert!(close(score_of_elo(elo_of_score(0.3)), 0.3, 1e-12));
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn perfect_and_nil_scores_give_one_sided_bounds() {
        assert_eq!(elo_estimate(&Tally::default()), EloEstimate::NoGames);
        let EloEstimate::AllWon { low } = elo_estimate(&tally(4, 0, 0)) else {
            panic!()
        };
        assert!(close(low, -72.150, 0.001), "{low}");
        let EloEstimate::AllWon { low } = elo_estimate(&tally(100, 0, 0)) else {
            panic!()
        };
        assert!(close(low, 570.028, 0.001), "{low}");
        let EloEstimate::AllLost { high } = elo_estimate(&tally(0, 100, 0)) else {
            panic!()
        };
        assert!(close(high, -570.028, 0.001));
        assert_eq!(
            elo_estimate(&tally(100, 0, 0)).describe(),
            "+inf (every game won; 95 % interval > +570.0)"
        );
        // The normal interval reaches a score of 1: an infinite upper end.
        let est = elo_estimate(&tally(3, 0, 1));
        assert!(est
            .describe()
            .starts_with("+338.0 +/- inf (95 % interval +"));
    }

    #[test]
    fn los_matches_known_values() {
        assert!(close(los(&tally(60, 30, 10)), 0.999_217, 1e-5));
        assert!(close(los(&tally(400, 350, 250)), 0.966_055, 1e-5));
        assert_eq!(los(&tally(0, 0, 7)), 0.5);
        assert!(close(los(&tally(30, 60, 10)), 1.0 - 0.999_217, 1e-5));
    }

    #[test]
    fn sprt_bounds_and_llr_match_known_values() {
        let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        for (t, want) in [
            (tally(400, 350, 250), 1.366_961),
            (tally(60, 30, 10), 0.913_873),
            (tally(10, 10, 80), -0.205_734),
            (tally(5, 3, 0), 0.054_251),
            (tally(4, 0, 0), 0.113_473),
        ] {
            let llr = sprt.llr(&t);
            assert!(close(llr, want, 1e-4), "{t:?}: {llr} vs {want}");
        }
        let wide = Sprt::parse("elo1=100").unwrap();
        for (t, want) in [
            (tally(400, 350, 250), -35.278_184),
            (tally(12, 0, 0), 2.963_540),
            (tally(60, 30, 10), 5.072_817),
        ] {
            let llr = wide.llr(&t);
            assert!(close(llr, want, 1e-4), "{t:?}: {llr} vs {want}");
        }
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
    }

    #[test]
    fn llr_agrees_with_the_usual_approximation_on_ordinary_samples() {
        let sprt = Sprt::parse("elo0=0,elo1=10").unwrap();
        let t = tally(400, 350, 250);
        let (s0, s1) = (score_of_elo(0.0), score_of_elo(10.0));
        let approx =
            f64::from(t.games()) * (s1 - s0) * (2.0 * t.score() - s0 - s1) / (2.0 * t.variance());
        assert!(close(approx, 1.370_885, 1e-5), "{approx}");
        assert!((sprt.llr(&t) - approx).abs() / approx < 0.01);
    }

    #[test]
    fn verdicts_and_parsing() {
        let sprt = Sprt::parse(" elo1=5 , alpha=0.1 ").unwrap();
        assert_eq!(sprt.elo0, 0.0);
        assert_eq!(sprt.beta, 0.05);
        let (lo, hi) = sprt.bounds();
        assert_eq!(sprt.verdict(hi), SprtDecision::AcceptH1);
        assert_eq!(sprt.verdict(lo - 0.1), SprtDecision::AcceptH0);
        assert_eq!(sprt.verdict(0.0), SprtDecision::Continue);
        for bad in [
            "elo0=10,elo1=0",
            "alpha=0",
            "beta=0.7",
            "elo1",
            "gamma=1",
            "elo1=x",
            "elo1=inf",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }
}
