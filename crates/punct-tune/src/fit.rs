//! Logistic regression by Newton's method: the probability that the side
//! to move wins is `sigmoid(w · x)`, and `w` minimises the mean log loss
//! against the results (a draw counts as half a win) plus a small ridge
//! penalty. A few dozen weights and a few hundred thousand positions: each
//! Newton step builds the Hessian in one pass and solves it by Cholesky.

/// The training data: `rows` feature vectors of `dim` numbers each, one
/// after another, and a result in [0, 1] per row.
pub struct Data<'a> {
    pub x: &'a [f64],
    pub y: &'a [f64],
    pub dim: usize,
}

impl Data<'_> {
    pub fn rows(&self) -> usize {
        self.y.len()
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.x[i * self.dim..(i + 1) * self.dim]
    }

    fn check(&self) -> Result<(), String> {
        if self.dim == 0 || self.x.len() != self.y.len() * self.dim {
            return Err(format!(
                "{} feature values for {} results of {} features each",
                self.x.len(),
                self.y.len(),
                self.dim
            ));
        }
        if self.y.is_empty() {
            return Err("no positions to fit".into());
        }
        if self.x.iter().chain(self.y).any(|v| !v.is_finite()) {
            return Err("a feature or result is not a finite number".into());
        }
        if self.y.iter().any(|y| !(0.0..=1.0).contains(y)) {
            return Err("a result lies outside 0 to 1".into());
        }
        Ok(())
    }
}

pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Log loss of predicting `sigmoid(z)` for result `y`, stable for large |z|.
fn loss_at(z: f64, y: f64) -> f64 {
    // -(y ln σ(z) + (1-y) ln(1-σ(z))) = ln(1 + e^z) - y z
    let softplus = if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    };
    softplus - y * z
}

/// Mean log loss of predictions `sigmoid(z_i)` (nats per position).
pub fn mean_loss(z: impl Iterator<Item = f64>, y: &[f64]) -> f64 {
    let total: f64 = z.zip(y).map(|(z, &y)| loss_at(z, y)).sum();
    total / y.len().max(1) as f64
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean log loss of the weights `w` on `data`.
pub fn loss(data: &Data, w: &[f64]) -> f64 {
    mean_loss((0..data.rows()).map(|i| dot(data.row(i), w)), data.y)
}

fn objective(data: &Data, w: &[f64], penalty: &[f64]) -> f64 {
    let ridge: f64 = w.iter().zip(penalty).map(|(w, p)| 0.5 * p * w * w).sum();
    loss(data, w) + ridge
}

/// The weights minimising mean log loss + Σ penalty_j w_j² / 2. Every
/// penalty must be positive (it keeps the problem well posed when a
/// feature never varies or the data separate perfectly).
pub fn logistic(data: &Data, penalty: &[f64]) -> Result<Vec<f64>, String> {
    data.check()?;
    let d = data.dim;
    if penalty.len() != d || penalty.iter().any(|p| !(p.is_finite() && *p > 0.0)) {
        return Err("every penalty must be a positive number".into());
    }
    let n = data.rows() as f64;
    let system = |w: &[f64]| {
        let mut grad: Vec<f64> = w.iter().zip(penalty).map(|(w, p)| p * w).collect();
        let mut hess = vec![0.0; d * d];
        for (j, p) in penalty.iter().enumerate() {
            hess[j * d + j] = *p;
        }
        for i in 0..data.rows() {
            let x = data.row(i);
            let p = sigmoid(dot(x, w));
            let r = (p - data.y[i]) / n;
            let c = p * (1.0 - p) / n;
            for a in 0..d {
                if x[a] == 0.0 {
                    continue;
                }
                grad[a] += r * x[a];
                let cx = c * x[a];
                for b in 0..=a {
                    hess[a * d + b] += cx * x[b];
                }
            }
        }
        (grad, hess)
    };
    newton(vec![0.0; d], |w| objective(data, w, penalty), system, 1e-15)
}

/// Minimises a smooth convex `objective` from `w` by Newton's method:
/// `system(w)` gives the gradient and the Hessian's lower triangle
/// (row-major, `d × d`); each step is halved while it does not lower the
/// objective. Stops after 100 steps, or when a step lowers the objective
/// by no more than `tolerance` relative to it, or the Newton decrement is
/// negligible. Both fits (the evaluation's and the policy's) use it.
pub(crate) fn newton(
    mut w: Vec<f64>,
    objective: impl Fn(&[f64]) -> f64,
    system: impl Fn(&[f64]) -> (Vec<f64>, Vec<f64>),
    tolerance: f64,
) -> Result<Vec<f64>, String> {
    let d = w.len();
    let mut current = objective(&w);
    for _ in 0..100 {
        let (grad, mut hess) = system(&w);
        for a in 0..d {
            for b in 0..a {
                hess[b * d + a] = hess[a * d + b];
            }
        }
        let step = solve(&hess, &grad, d)?;
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..30 {
            let trial: Vec<f64> = w.iter().zip(&step).map(|(w, s)| w - t * s).collect();
            let value = objective(&trial);
            if value <= current {
                improved = current - value > tolerance * current.abs().max(1.0);
                w = trial;
                current = value;
                break;
            }
            t *= 0.5;
        }
        if !improved || dot(&grad, &step) < 1e-14 {
            break;
        }
    }
    Ok(w)
}

/// Solves `m x = b` for a symmetric positive definite `m` (Cholesky).
fn solve(m: &[f64], b: &[f64], d: usize) -> Result<Vec<f64>, String> {
    let mut l = vec![0.0; d * d];
    for i in 0..d {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * d + k] * l[j * d + k]).sum();
            if i == j {
                let v = m[i * d + i] - s;
                if !(v > 0.0 && v.is_finite()) {
                    return Err("the fit's Hessian is not positive definite".into());
                }
                l[i * d + i] = v.sqrt();
            } else {
                l[i * d + j] = (m[i * d + j] - s) / l[j * d + j];
            }
        }
    }
    let mut y = vec![0.0; d];
    for i in 0..d {
        let s: f64 = (0..i).map(|k| l[i * d + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * d + i];
    }
    let mut x = vec![0.0; d];
    for i in (0..d).rev() {
        let s: f64 = (i + 1..d).map(|k| l[k * d + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * d + i];
    }
    Ok(x)
}

/// The scale `k` that best turns evaluations into win probabilities,
/// `sigmoid(k · eval)` (Texel's constant), by Newton's method in one
/// dimension.
pub fn scale(evals: &[f64], y: &[f64]) -> Result<f64, String> {
    let data = Data {
        x: evals,
        y,
        dim: 1,
    };
    // A vanishing ridge: only to keep separable data finite.
    let w = logistic(&data, &[1e-9])?;
    Ok(w[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Results drawn from known weights: the fit must find them again.
    #[test]
    fn the_fit_recovers_known_weights_from_synthetic_results() {
        let truth = [0.4, -1.2, 0.8, 0.0, 0.05];
        let mut rng = StdRng::seed_from_u64(7);
        let rows = 40_000;
        let mut x = Vec::with_capacity(rows * truth.len());
        let mut y = Vec::with_capacity(rows);
        for _ in 0..rows {
            // A constant, two distance-like integers, a ±1 and a wide one.
            let row = [
                1.0,
                rng.random_range(0..6) as f64,
                rng.random_range(0..6) as f64,
                if rng.random_bool(0.5) { 1.0 } else { -1.0 },
                rng.random_range(-20..=20) as f64,
            ];
            let p = sigmoid(dot(&row, &truth));
            y.push(if rng.random_bool(p) { 1.0 } else { 0.0 });
            x.extend_from_slice(&row);
        }
        let data = Data {
            x: &x,
            y: &y,
            dim: truth.len(),
        };
        let w = logistic(&data, &[1e-8; 5]).unwrap();
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.06, "{w:?} vs {truth:?}");
        }
        // And no other weights fit better.
        let best = loss(&data, &w);
        assert!(best <= loss(&data, &truth));
        let mut nudged = w.clone();
        nudged[1] += 0.05;
        assert!(best < loss(&data, &nudged));
    }

    #[test]
    fn draws_count_half_and_the_scale_is_found() {
        // Results that are exactly sigmoid(0.01 · eval) on average: half of
        // each pair of positions won, the rest split by the probability.
        let mut evals = Vec::new();
        let mut y = Vec::new();
        for e in (-400..=400).step_by(10) {
            let p = sigmoid(0.01 * e as f64);
            evals.push(e as f64);
            y.push(p);
        }
        let k = scale(&evals, &y).unwrap();
        assert!((k - 0.01).abs() < 1e-6, "{k}");
        assert!(
            loss(
                &Data {
                    x: &evals,
                    y: &y,
                    dim: 1
                },
                &[k]
            ) < 0.7
        );
    }

    #[test]
    fn strong_penalties_pull_weights_to_zero_and_bad_input_is_refused() {
        let x = [1.0, 2.0, 1.0, -1.0, 1.0, 0.5];
        let y = [1.0, 0.0, 1.0];
        let data = Data {
            x: &x,
            y: &y,
            dim: 2,
        };
        let w = logistic(&data, &[1e6, 1e6]).unwrap();
        assert!(w.iter().all(|v| v.abs() < 1e-5), "{w:?}");
        assert!(logistic(&data, &[1.0, 0.0]).is_err());
        assert!(logistic(&data, &[1.0]).is_err());
        let short = Data {
            x: &x[..5],
            y: &y,
            dim: 2,
        };
        assert!(logistic(&short, &[1.0, 1.0]).is_err());
        let bad = Data {
            x: &x,
            y: &[1.0, 2.0, 0.0],
            dim: 2,
        };
        assert!(logistic(&bad, &[1.0, 1.0]).unwrap_err().contains("outside"));
    }
}
