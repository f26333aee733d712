//! Self-play tuning of the PÜNCT evaluation (docs/TUNING.md), the Texel
//! method: play games ([`selfplay`]), take their positions with the final
//! result ([`dataset`]), and fit the evaluation's weights
//! ([`punct_engine::features`]) by logistic regression of the result on
//! the features ([`fit`]). `punct tune` drives it.
//!
//! The fitted weights come out in the hand-set evaluation's units: the
//! scale `k` that best predicts results from the hand evaluation
//! (`sigmoid(k · eval)`) is fitted first, and the new weights are the
//! fitted log-odds divided by it, so 100 still means what about one cell
//! of connection lead meant to the old evaluation, and the search's
//! margins keep their sense.

pub mod dataset;
pub mod fit;
pub mod policy;
pub mod selfplay;

use dataset::Sample;
use punct_core::Variant;
use punct_engine::features::{COUNT, NAMES};
use punct_engine::Weights;

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Ridge penalty, per feature scaled by its mean square (so it does
    /// not depend on the feature's units).
    pub lambda: f64,
    /// Plies at the start of each game left out.
    pub skip_plies: usize,
    /// Every this-many-th game goes to the validation set.
    pub validation_every: usize,
    /// Features held at 0 (never computed at play time either).
    pub drop: Vec<usize>,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            lambda: 1e-4,
            skip_plies: 2,
            validation_every: 10,
            drop: Vec::new(),
        }
    }
}

impl FitConfig {
    pub fn check(&self) -> Result<(), String> {
        if !(self.lambda.is_finite() && self.lambda > 0.0 && self.lambda <= 100.0) {
            return Err(format!(
                "--lambda {}: must be above 0 and at most 100",
                self.lambda
            ));
        }
        if self.validation_every < 2 {
            return Err(format!(
                "--validation-every {}: at least 2 (one game in N is held out)",
                self.validation_every
            ));
        }
        Ok(())
    }
}

/// Parses a comma-separated list of feature names.
pub fn feature_list(text: &str) -> Result<Vec<usize>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|name| {
            NAMES.iter().position(|&n| n == name).ok_or_else(|| {
                format!(
                    "unknown feature `{name}`: the features are {}",
                    NAMES.join(", ")
                )
            })
        })
        .collect()
}

/// Mean log loss (nats per position) on the training and validation sets.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Losses {
    pub train: f64,
    pub validation: f64,
}

/// What the fit of one variant found.
#[derive(Clone, Debug)]
pub struct VariantFit {
    pub variant: Variant,
    pub games: usize,
    pub train: usize,
    pub validation: usize,
    /// `sigmoid(k · hand evaluation)` predicts the results best.
    pub k: f64,
    pub hand: Losses,
    /// The fitted weights before rounding to whole evaluation units.
    pub fitted: Losses,
    /// The weights as written (whole evaluation units).
    pub rounded: Losses,
    pub weights: [i32; COUNT],
    /// Set when there were too few positions and the hand weights stand.
    pub kept_hand: bool,
}

/// Fewer training positions than this and a variant keeps its hand
/// weights (as when the hand evaluation's scale does not come out positive).
pub const MIN_POSITIONS: usize = 50;

/// Fits one table of weights per variant to the positions of `games`.
pub fn fit_weights(
    games: &[selfplay::SelfPlayGame],
    cfg: &FitConfig,
) -> Result<(Weights, Vec<VariantFit>), String> {
    cfg.check()?;
    let samples = dataset::samples(games, cfg.skip_plies);
    let hand = Weights::hand();
    let mut fits = Vec::new();
    // Each game's number among the games of its variant: every
    // `validation_every`-th of those is held out (whole games, so the
    // validation positions come from games the fit never saw).
    let mut counts = [0usize; 2];
    let rank: Vec<usize> = games
        .iter()
        .map(|g| {
            let c = &mut counts[g.variant as usize];
            *c += 1;
            *c - 1
        })
        .collect();
    for variant in [Variant::Standard, Variant::Basic] {
        let of_variant: Vec<&Sample> = samples.iter().filter(|s| s.variant == variant).collect();
        let held_out =
            |s: &&Sample| rank[s.game] % cfg.validation_every == cfg.validation_every - 1;
        let (validation, train): (Vec<&Sample>, Vec<&Sample>) =
            of_variant.into_iter().partition(held_out);
        let games = games.iter().filter(|g| g.variant == variant).count();
        fits.push(fit_variant(
            variant,
            games,
            &train,
            &validation,
            &hand,
            cfg,
        )?);
    }
    let weights = Weights::from_tables(fits[0].weights, fits[1].weights);
    Ok((weights, fits))
}

fn fit_variant(
    variant: Variant,
    games: usize,
    train: &[&Sample],
    validation: &[&Sample],
    hand: &Weights,
    cfg: &FitConfig,
) -> Result<VariantFit, String> {
    let labels = |set: &[&Sample]| set.iter().map(|s| s.result).collect::<Vec<f64>>();
    let (yt, yv) = (labels(train), labels(validation));
    let hand_z =
        |set: &[&Sample], k: f64| set.iter().map(|s| k * s.hand as f64).collect::<Vec<f64>>();
    let losses_of = |k: f64, w: &[f64]| {
        let z = |set: &[&Sample]| -> Vec<f64> {
            set.iter()
                .map(|s| {
                    k * s
                        .features
                        .iter()
                        .zip(w)
                        .map(|(&f, w)| f as f64 * w)
                        .sum::<f64>()
                })
                .collect()
        };
        Losses {
            train: fit::mean_loss(z(train).into_iter(), &yt),
            validation: fit::mean_loss(z(validation).into_iter(), &yv),
        }
    };
    let hand_table = hand.table(variant);
    let k = if train.is_empty() {
        0.0
    } else {
        fit::scale(&hand_z(train, 1.0), &yt).map_err(|e| format!("{variant}: {e}"))?
    };
    // Too few positions, or results the hand evaluation does not even
    // point the right way on (a handful of mostly drawn games): nothing
    // to scale a fit by, so the hand weights stand.
    if train.len() < MIN_POSITIONS || !(k.is_finite() && k > 0.0) {
        let w: Vec<f64> = hand_table.iter().map(|&w| w as f64).collect();
        let l = losses_of(k, &w);
        return Ok(VariantFit {
            variant,
            games,
            train: train.len(),
            validation: validation.len(),
            k,
            hand: l,
            fitted: l,
            rounded: l,
            weights: *hand_table,
            kept_hand: true,
        });
    }
    let hand_losses = Losses {
        train: fit::mean_loss(hand_z(train, k).into_iter(), &yt),
        validation: fit::mean_loss(hand_z(validation, k).into_iter(), &yv),
    };
    // Only the features kept, and among them only those that ever vary
    // from 0 in the training set (a column of zeros fits nothing).
    let kept: Vec<usize> = (0..COUNT)
        .filter(|j| !cfg.drop.contains(j))
        .filter(|&j| train.iter().any(|s| s.features[j] != 0))
        .collect();
    let x: Vec<f64> = train
        .iter()
        .flat_map(|s| kept.iter().map(|&j| s.features[j] as f64))
        .collect();
    let penalty: Vec<f64> = kept
        .iter()
        .map(|&j| {
            let ms = train
                .iter()
                .map(|s| (s.features[j] as f64).powi(2))
                .sum::<f64>()
                / train.len() as f64;
            cfg.lambda * ms
        })
        .collect();
    let data = fit::Data {
        x: &x,
        y: &yt,
        dim: kept.len(),
    };
    let logit = fit::logistic(&data, &penalty).map_err(|e| format!("{variant}: {e}"))?;
    let mut full = [0.0f64; COUNT];
    for (&j, w) in kept.iter().zip(&logit) {
        full[j] = w / k;
    }
    let fitted = losses_of(k, &full);
    let mut weights = [0i32; COUNT];
    for (out, w) in weights.iter_mut().zip(full) {
        *out = w.round().clamp(-100_000.0, 100_000.0) as i32;
    }
    let rounded_f: Vec<f64> = weights.iter().map(|&w| w as f64).collect();
    Ok(VariantFit {
        variant,
        games,
        train: train.len(),
        validation: validation.len(),
        k,
        hand: hand_losses,
        fitted,
        rounded: losses_of(k, &rounded_f),
        weights,
        kept_hand: false,
    })
}

/// A few lines on what the fit found, for the weights file's header and
/// the terminal.
pub fn summary(fits: &[VariantFit]) -> String {
    let mut out = String::new();
    for f in fits {
        out.push_str(&format!(
            "{}: {} games, {} positions ({} train, {} validation)",
            f.variant,
            f.games,
            f.train + f.validation,
            f.train,
            f.validation
        ));
        if f.kept_hand {
            out.push_str("; too few positions (or results) to fit, so the hand weights stand\n");
            continue;
        }
        out.push_str(&format!(
            "\n  scale k = {:.6} per unit; mean log loss train / validation: hand {:.4} / {:.4}, fitted {:.4} / {:.4} (as written {:.4} / {:.4})\n",
            f.k,
            f.hand.train,
            f.hand.validation,
            f.fitted.train,
            f.fitted.validation,
            f.rounded.train,
            f.rounded.validation
        ));
    }
    out
}
