//! The move-ordering policy: the weights of the static ranking that picks
//! each inner node's shortlist (see [`super::order`]), hand-set or fitted
//! to the moves self-play games chose (`punct tune --policy`,
//! docs/TUNING.md).
//!
//! A move is described by a few counts ([`NAMES`]); its rank is their
//! weighted sum. Only the order matters, so the weights have no unit.

use super::order::move_features;
use super::weights_file;
use punct_core::{Move, Position};
use std::sync::LazyLock;

/// How many things the ranking looks at in a move.
pub const COUNT: usize = 12;

/// What the ranking looks at in a move, for the side making it.
pub const NAMES: [&str; COUNT] = [
    // Cells by which the best of our three chains gets shorter.
    "shorter_best",
    // Cells by which our three chains get shorter, summed.
    "shorter_pairs",
    // The move's dots on cells of our near-shortest chains.
    "own_corridor",
    // Its dots on the opponent's near-shortest chains (blocking).
    "their_corridor",
    // Of those, dots that cover an opponent dot.
    "covers_their_dots",
    // Its dots next to a dot of ours.
    "next_to_own",
    // Cells of our chain a moved piece no longer covers.
    "leaves_own_chain",
    // 1 for a piece moved (or turned) rather than placed.
    "relocation",
    // 1 for a piece turned on its own punct.
    "in_place",
    // Its dots in the central hexagon (standard game only).
    "central",
    // The same once the smaller reserve is down to 4 pieces, when the
    // central count is near to deciding.
    "central_late",
    // Our central dots a moved piece no longer covers.
    "leaves_centre",
];

pub(crate) const SHORTER_BEST: usize = 0;
pub(crate) const SHORTER_PAIRS: usize = 1;
pub(crate) const OWN_CORRIDOR: usize = 2;
pub(crate) const THEIR_CORRIDOR: usize = 3;
pub(crate) const COVERS_THEIR_DOTS: usize = 4;
pub(crate) const NEXT_TO_OWN: usize = 5;
pub(crate) const LEAVES_OWN_CHAIN: usize = 6;
pub(crate) const RELOCATION: usize = 7;
pub(crate) const IN_PLACE: usize = 8;
pub(crate) const CENTRAL: usize = 9;
pub(crate) const CENTRAL_LATE: usize = 10;
pub(crate) const LEAVES_CENTRE: usize = 11;

/// The shipped fitted policy (see docs/TUNING.md for how it was made).
const TUNED_FILE: &str = include_str!("../../data/policy_weights.txt");

/// Largest weight a file may give: with every count small, no sum
/// overflows.
const MAX_WEIGHT: i32 = 10_000;

/// The static ranking's weights, one per entry of [`NAMES`].
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    w: [i32; COUNT],
}

impl Policy {
    /// The hand-set ranking: 100 per cell the best chain gets shorter and
    /// 20 per cell of the three; per dot, 30 on the opponent's chains (50
    /// where it covers one of their dots), 5 on ours, 2 next to ours; -25
    /// per chain cell a moved piece leaves.
    pub fn hand() -> Policy {
        Policy {
            w: [100, 20, 5, 30, 20, 2, -25, 0, 0, 0, 0, 0],
        }
    }

    /// The weights fitted to self-play moves, from the compiled-in
    /// `data/policy_weights.txt`. Were that file unreadable (a unit test
    /// makes sure it is not) the hand-set weights stand in.
    pub fn tuned() -> Policy {
        static TUNED: LazyLock<Policy> =
            LazyLock::new(|| Policy::parse(TUNED_FILE).unwrap_or_else(|_| Policy::hand()));
        TUNED.clone()
    }

    /// A policy with these weights (each within ±10000), in [`NAMES`]
    /// order.
    pub fn new(w: [i32; COUNT]) -> Result<Policy, String> {
        match w.iter().position(|v| v.abs() > MAX_WEIGHT) {
            Some(i) => Err(format!(
                "`{}`: {} is not within ±{MAX_WEIGHT}",
                NAMES[i], w[i]
            )),
            None => Ok(Policy { w }),
        }
    }

    /// The weights, in [`NAMES`] order.
    pub fn weights(&self) -> &[i32; COUNT] {
        &self.w
    }

    /// A move's rank from its counts ([`features`]); higher goes first.
    pub fn score(&self, f: &[i32; COUNT]) -> i32 {
        self.w.iter().zip(f).map(|(w, f)| w * f).sum()
    }

    /// Reads a policy file: `#` comments and every name of [`NAMES`] once
    /// as `name = integer`.
    pub fn parse(text: &str) -> Result<Policy, String> {
        let mut w: [Option<i32>; COUNT] = [None; COUNT];
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = weights_file::content(raw);
            if content.is_empty() {
                continue;
            }
            let (f, v) = weights_file::entry(content, line, &NAMES, "policy term", MAX_WEIGHT)?;
            if w[f].replace(v).is_some() {
                return Err(format!("line {line}: `{}` given twice", NAMES[f]));
            }
        }
        let mut done = [0i32; COUNT];
        for (f, v) in w.iter().enumerate() {
            done[f] = v.ok_or_else(|| format!("no weight for `{}`", NAMES[f]))?;
        }
        Ok(Policy { w: done })
    }

    /// The policy as a file [`Policy::parse`] reads back; `header` comes
    /// first, each of its lines as a `#` comment.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = weights_file::comments(header);
        out.push('\n');
        for (name, w) in NAMES.iter().zip(self.w) {
            out.push_str(&format!("{name} = {w}\n"));
        }
        out
    }
}

/// The fitted policy: it beat the hand-set one by +51 ± 38 Elo (SPRT
/// passed, docs/STRENGTH.md).
impl Default for Policy {
    fn default() -> Policy {
        Policy::tuned()
    }
}

/// Every legal move of `pos` with what the ranking looks at in it, in
/// [`NAMES`] order (for fitting a policy).
pub fn features(pos: &Position) -> Vec<(Move, [i32; COUNT])> {
    move_features(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_policy_file_parses() {
        Policy::parse(TUNED_FILE).expect("data/policy_weights.txt");
    }

    #[test]
    fn a_policy_file_reads_back_and_bad_ones_say_where() {
        let p = Policy::new([7, -3, 0, 1, 2, 3, 4, 5, -6, 8, 9, -10]).unwrap();
        assert_eq!(
            Policy::parse(&p.to_text("made by hand\n\nsecond")).unwrap(),
            p
        );
        let good = Policy::hand().to_text("");
        let cases = [
            (good.replace("in_place = 0", ""), "no weight for `in_place`"),
            (
                good.replace("central = 0", "central = 1\ncentral = 2"),
                "line 12: `central` given twice",
            ),
            (
                good.replace("in_place = 0", "in_place = x"),
                "line 10: `in_place`",
            ),
            (
                good.replace("in_place = 0", "in_place = 10001"),
                "within ±10000",
            ),
            (
                good.replace("in_place = 0", "inplace = 1"),
                "unknown policy term `inplace`",
            ),
            (
                format!("{good}shorter_best = 1\n"),
                "`shorter_best` given twice",
            ),
            (
                good.replace("in_place = 0", "in_place 0"),
                "expected `name = integer`",
            ),
        ];
        for (text, wanted) in cases {
            let e = Policy::parse(&text).unwrap_err();
            assert!(e.contains(wanted), "{e} (wanted {wanted})");
        }
        let mut w = [0; COUNT];
        w[8] = -10_001;
        assert!(Policy::new(w).is_err());
    }
}
