//! The AI's judgement of a position: a weighted sum of the features of
//! [`crate::features`] (the connection race, central presence as the
//! reserves run out, pieces), one set of weights per variant.
//!
//! Two sets ship: [`Weights::hand`], the hand-set evaluation the AI first
//! played with, and [`Weights::tuned`], fitted by `punct tune` to self-play
//! results and compiled in from `data/eval_weights.txt` (docs/TUNING.md).

use super::weights_file;
use crate::engine::Score;
use crate::features::{self, extract_with, index, Mover, Needs, COUNT, NAMES};
use punct_core::{Position, Status, Variant};
use std::sync::LazyLock;

/// A won position's score; a win in `n` plies scores `WIN - n`.
pub(crate) const WIN: i32 = 1_000_000;
pub(crate) const MATE_BAND: i32 = 10_000;

/// The shipped tuned weights (see docs/TUNING.md for how they were made).
const TUNED_FILE: &str = include_str!("../../data/eval_weights.txt");

/// Largest weight a file may give, so that no sum of features overflows or
/// reaches the win scores.
const MAX_WEIGHT: i32 = 100_000;

/// One variant's weights, and which dearer features they need.
#[derive(Clone, Debug, PartialEq)]
struct Table {
    w: [i32; COUNT],
    needs: Needs,
}

impl Table {
    fn new(w: [i32; COUNT]) -> Table {
        Table {
            w,
            needs: Needs::of(&w),
        }
    }
}

/// The evaluation's weights, one per feature and variant: hand-set ones or
/// the ones tuned by self-play.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    standard: Table,
    basic: Table,
}

impl Weights {
    /// The hand-set evaluation the AI played with before tuning: the
    /// side to move's tempo (150), 100 per cell of lead in the best chain
    /// and 10 in the sum over all three pairs, and in the standard game the
    /// central count's difference at 8, 30, 100 and 250 as the smaller
    /// reserve falls to 9+, 5–8, 3–4 and 0–2 pieces.
    pub fn hand() -> Weights {
        let mut w = [0i32; COUNT];
        w[index::TEMPO] = 150;
        let (m, o) = (index::MOVER_CHAINS, index::OPPONENT_CHAINS);
        w[m + index::BEST] = -100;
        w[o + index::BEST] = 100;
        w[m + index::SPREAD] = -10;
        w[o + index::SPREAD] = 10;
        let basic = w;
        w[index::CENTRAL..index::CENTRAL + 4].copy_from_slice(&[8, 30, 100, 250]);
        Weights::from_tables(w, basic)
    }

    /// The weights fitted to self-play results (the default), from the
    /// compiled-in `data/eval_weights.txt`. Were that file unreadable (a
    /// unit test makes sure it is not) the hand-set weights stand in.
    pub fn tuned() -> Weights {
        static TUNED: LazyLock<Weights> =
            LazyLock::new(|| Weights::parse(TUNED_FILE).unwrap_or_else(|_| Weights::hand()));
        TUNED.clone()
    }

    /// Weights from one table per variant, in [`features::NAMES`] order.
    pub fn from_tables(standard: [i32; COUNT], basic: [i32; COUNT]) -> Weights {
        Weights {
            standard: Table::new(standard),
            basic: Table::new(basic),
        }
    }

    /// The weights for `variant`, in [`features::NAMES`] order.
    pub fn table(&self, variant: Variant) -> &[i32; COUNT] {
        &self.get(variant).w
    }

    fn get(&self, variant: Variant) -> &Table {
        match variant {
            Variant::Standard => &self.standard,
            Variant::Basic => &self.basic,
        }
    }

    /// Reads a weights file: `#` comments, a `[standard]` and a `[basic]`
    /// section, and in each every feature once as `name = integer`.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut tables: [Option<[Option<i32>; COUNT]>; 2] = [None, None];
        let mut current: Option<usize> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = weights_file::content(raw);
            if content.is_empty() {
                continue;
            }
            if let Some(name) = content.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                let v: Variant = name
                    .trim()
                    .parse()
                    .map_err(|e| format!("line {line}: section [{name}]: {e}"))?;
                let slot = v as usize;
                if tables[slot].is_some() {
                    return Err(format!("line {line}: section [{v}] appears twice"));
                }
                tables[slot] = Some([None; COUNT]);
                current = Some(slot);
                continue;
            }
            let Some(slot) = current else {
                return Err(format!(
                    "line {line}: `{content}` comes before any [standard] or [basic] section"
                ));
            };
            let (f, v) = weights_file::entry(content, line, &NAMES, "feature", MAX_WEIGHT)?;
            let table = tables[slot].as_mut().expect("section opened");
            if table[f].replace(v).is_some() {
                return Err(format!(
                    "line {line}: `{}` given twice in its section",
                    NAMES[f]
                ));
            }
        }
        let mut done = [[0i32; COUNT]; 2];
        for (slot, v) in [Variant::Standard, Variant::Basic].into_iter().enumerate() {
            let t = tables[slot].ok_or_else(|| format!("no [{v}] section"))?;
            for (f, w) in t.iter().enumerate() {
                done[slot][f] = w.ok_or_else(|| format!("[{v}]: no weight for `{}`", NAMES[f]))?;
            }
        }
        Ok(Weights::from_tables(done[0], done[1]))
    }

    /// The weights as a file [`Weights::parse`] reads back; `header` comes
    /// first, each of its lines as a `#` comment.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = weights_file::comments(header);
        for v in [Variant::Standard, Variant::Basic] {
            out.push_str(&format!("\n[{v}]\n"));
            for (name, w) in NAMES.iter().zip(self.table(v)) {
                out.push_str(&format!("{name} = {w}\n"));
            }
        }
        out
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::tuned()
    }
}

/// Evaluation of `pos` for the side to move, in centi-cells.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let me = pos.side_to_move();
    match pos.status() {
        Status::Won(s) if s == me => return WIN,
        Status::Won(_) => return -WIN,
        Status::Draw => return 0,
        Status::Ongoing => {}
    }
    let t = w.get(pos.variant());
    let mine = features::pair_distances(pos, me);
    dot(&t.w, &extract_with(pos, Mover::Pairs(mine), t.needs))
}

/// [`evaluate_with`] of an unfinished game whose distances per pair are
/// known for both sides (`mover`: the side to move's).
pub(crate) fn evaluate_pairs(
    pos: &Position,
    mover: [u32; 3],
    opponent: [u32; 3],
    w: &Weights,
) -> i32 {
    let t = w.get(pos.variant());
    dot(
        &t.w,
        &features::extract_with_pairs(pos, mover, opponent, t.needs),
    )
}

/// [`evaluate_with`] of an unfinished game, given the side to move's
/// best chain cost and spread (`paths::distance_and_spread`; a leaf has
/// it already).
pub(crate) fn evaluate_ongoing(pos: &Position, (dm, sm): (u32, u32), w: &Weights) -> i32 {
    let t = w.get(pos.variant());
    dot(&t.w, &extract_with(pos, Mover::BestSpread(dm, sm), t.needs))
}

fn dot(w: &[i32; COUNT], f: &[i32; COUNT]) -> i32 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

pub(crate) fn to_score(v: i32) -> Score {
    if v >= WIN - MATE_BAND {
        Score::Win((WIN - v) as u32)
    } else if v <= -WIN + MATE_BAND {
        Score::Loss((WIN + v) as u32)
    } else {
        Score::Eval(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::random_game_positions;
    use crate::paths::distance_and_spread;

    /// The evaluation as it was written before the weights became data.
    fn old_hand_evaluation(pos: &Position) -> i32 {
        let me = pos.side_to_move();
        let (dm, sm) = distance_and_spread(pos, me);
        let (dt, st) = distance_and_spread(pos, me.opponent());
        let mut score = 150 + 100 * (dt as i32 - dm as i32) + 10 * (st as i32 - sm as i32);
        if pos.variant() == Variant::Standard {
            let left = pos.reserve_total(me).min(pos.reserve_total(me.opponent())) as i32;
            let weight = match left {
                0..=2 => 250,
                3..=4 => 100,
                5..=8 => 30,
                _ => 8,
            };
            score +=
                weight * (pos.central_count(me) as i32 - pos.central_count(me.opponent()) as i32);
        }
        score
    }

    fn positions() -> Vec<Position> {
        let variant = |seed: u64| {
            if seed.is_multiple_of(2) {
                Variant::Standard
            } else {
                Variant::Basic
            }
        };
        random_game_positions((0..12u64).map(|seed| (variant(seed), seed + 7)))
    }

    #[test]
    fn hand_weights_give_exactly_the_old_evaluation() {
        let hand = Weights::hand();
        let positions = positions();
        assert!(positions.len() > 300, "{}", positions.len());
        for pos in positions {
            let want = old_hand_evaluation(&pos);
            assert_eq!(evaluate_with(&pos, &hand), want);
            let mine = distance_and_spread(&pos, pos.side_to_move());
            assert_eq!(evaluate_ongoing(&pos, mine, &hand), want);
        }
    }

    #[test]
    fn the_leaf_evaluation_equals_the_full_one_for_the_tuned_weights() {
        let tuned = Weights::tuned();
        for pos in positions().into_iter().step_by(3) {
            let mine = distance_and_spread(&pos, pos.side_to_move());
            assert_eq!(
                evaluate_ongoing(&pos, mine, &tuned),
                evaluate_with(&pos, &tuned)
            );
        }
    }

    #[test]
    fn the_shipped_weights_file_parses() {
        let w = Weights::parse(TUNED_FILE).expect("data/eval_weights.txt");
        assert_eq!(w, Weights::tuned());
    }

    #[test]
    fn weights_survive_writing_and_reading() {
        let hand = Weights::hand();
        let text = hand.to_text("made by hand\n\nsecond line");
        assert!(text.starts_with("# made by hand\n#\n# second line\n"));
        assert_eq!(Weights::parse(&text).unwrap(), hand);
    }

    #[test]
    fn malformed_weights_files_are_refused_with_the_line() {
        let good = Weights::hand().to_text("");
        let cases = [
            (good.replace("[basic]", "[chess]"), "line"),
            (
                good.replace("tempo = 150", "tempo = lots"),
                "`lots` is not an integer",
            ),
            (good.replace("tempo = 150", "tempo = 100001"), "within"),
            (
                good.replace("tempo = 150", "tempo: 150"),
                "expected `name = integer`",
            ),
            (
                good.replace("tempo = 150", "tempi = 150"),
                "unknown feature `tempi`",
            ),
            (
                good.replace("tempo = 150\n", "tempo = 150\ntempo = 1\n"),
                "given twice",
            ),
            (
                good.replacen("tempo = 150\n", "", 1),
                "[standard]: no weight for `tempo`",
            ),
            (
                good.split("[basic]").next().unwrap().to_string(),
                "no [basic] section",
            ),
            (format!("tempo = 1\n{good}"), "before any"),
            (format!("{good}[standard]\n"), "appears twice"),
        ];
        for (text, want) in cases {
            let err = Weights::parse(&text).unwrap_err();
            assert!(err.contains(want), "{err:?} lacks {want:?}");
        }
    }
}
