//! Players' ratings: Glicko-2, one rating per category (bullet, blitz,
//! rapid, classical by a real-time game's estimated length, and
//! correspondence), as pure functions of game results. No I/O, no threads,
//! no JSON: the server stores the numbers and calls these functions.
//!
//! The algorithm is the `skillratings` crate's; this crate fixes its
//! settings (τ, one rating period = one day), grows the deviation of idle
//! players, and keeps every result usable whatever the input.
//!
//! ```
//! use punct_ratings::{change, rate_game, Category, Rating, Score};
//! assert_eq!(Category::real_time(300, 3), Category::Blitz);
//! let (white, black) = rate_game(&Rating::new(), &Rating::new(), Score::WhiteWins, 0.0, 0.0);
//! assert_eq!(change(&Rating::new(), &white), 162);
//! assert_eq!(change(&Rating::new(), &black), -162);
//! assert!(white.provisional());
//! ```

use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A rating category: real-time games by their estimated length, and correspondence.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl Category {
    pub const ALL: [Category; 5] = [
        Category::Bullet,
        Category::Blitz,
        Category::Rapid,
        Category::Classical,
        Category::Correspondence,
    ];

    /// "bullet", "blitz", "rapid", "classical", "correspondence" (API word and column word)
    pub fn name(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
            Category::Correspondence => "correspondence",
        }
    }

    /// The inverse of name; Err names the bad word and lists the good ones.
    /// Exact words only (no case folding): they are the API's and the columns'.
    pub fn parse(word: &str) -> Result<Category, String> {
        Category::ALL
            .into_iter()
            .find(|category| category.name() == word)
            .ok_or_else(|| {
                let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
                format!(
                    "unknown rating category `{word}`: expected one of {}",
                    names.join(", ")
                )
            })
    }

    /// A real-time game's category from its time control: estimated length =
    /// base + 40 × increment (seconds, as lichess estimates a game of about
    /// 40 moves each): < 180 s bullet, < 480 s blitz, < 1500 s rapid,
    /// otherwise classical. So 3+2 and 5+3 are blitz, 10+5 rapid, 30+20
    /// classical. Never `Correspondence`: that is the kind of game, not a clock.
    pub fn real_time(base_secs: u64, increment_secs: u64) -> Category {
        // Saturating: an absurd clock is simply a long game, not an overflow.
        let estimate = base_secs.saturating_add(increment_secs.saturating_mul(40));
        match estimate {
            ..180 => Category::Bullet,
            180..480 => Category::Blitz,
            480..1500 => Category::Rapid,
            _ => Category::Classical,
        }
    }
}

/// RD above this: the rating is shown with "?" and left out of leaderboards.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A new player's deviation, and the most any deviation grows to.
pub const MAX_DEVIATION: f64 = 350.0;

/// Glicko-2's τ, which bounds how fast volatility may change. Glickman
/// advises 0.3 to 1.2; 0.5 is low in that range, so one improbable result
/// (a flagged clock, a blunder in a won game) does not swing a rating far.
/// It is also the value of Glickman's worked example, which the tests check.
pub const TAU: f64 = 0.5;

/// Glicko-2's scale between display ratings and its internal μ, φ (400 / ln 10),
/// the same literal `skillratings` converts with.
const SCALE: f64 = 173.7178;

const CONFIG: Glicko2Config = Glicko2Config {
    tau: TAU,
    // Glickman's suggested tolerance (the paper's ε), as skillratings' default.
    convergence_tolerance: 0.000_001,
};

/// A player's Glicko-2 rating in one category (display scale).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// 1500, RD 350, volatility 0.06.
    pub const fn new() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: MAX_DEVIATION,
            volatility: 0.06,
        }
    }

    /// RD > 110: shown with "?" and left out of leaderboards. A deviation
    /// that is not a number counts as provisional too: kept off the boards.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION || self.deviation.is_nan()
    }

    /// The rating rounded for display (saturating at i32's range; NaN shows 0).
    pub fn shown(&self) -> i32 {
        self.rating.round() as i32
    }

    /// The rating after `days` without rated games: the deviation grows as
    /// Glicko-2 lets it between rating periods (one period = one day,
    /// fractional days allowed; sqrt(phi² + sigma²·t)), never above 350.
    /// Negative or non-finite days are treated as 0. A rating that is not
    /// valid() is returned as it is.
    pub fn idle(&self, days: f64) -> Rating {
        if !self.valid() || !days.is_finite() || days <= 0.0 {
            return *self;
        }
        // φ² + σ²t on Glicko-2's scale is RD² + (σ·SCALE)²·t on ours.
        let grown = self.deviation.hypot(self.volatility * SCALE * days.sqrt());
        Rating {
            // max: rounding never shrinks a deviation that should grow.
            deviation: grown.max(self.deviation).min(MAX_DEVIATION),
            ..*self
        }
    }

    /// Whether the values are usable (finite, deviation in (0, 350],
    /// volatility > 0); the store's values are checked with it.
    pub fn valid(&self) -> bool {
        self.rating.is_finite()
            && self.deviation > 0.0
            && self.deviation <= MAX_DEVIATION
            && self.volatility.is_finite()
            && self.volatility > 0.0
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::new()
    }
}

/// A game's result from White's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Score {
    /// White's points: 1, 0 or ½ (Black's are 1 minus these).
    pub fn white_points(self) -> f64 {
        match self {
            Score::WhiteWins => 1.0,
            Score::BlackWins => 0.0,
            Score::Draw => 0.5,
        }
    }
}

/// Both players' new ratings after one rated game (each first made idle by
/// its own days since its last rated game, then one Glicko-2 rating period
/// holding this one game, τ = [`TAU`]). Each side is rated against the
/// other's idled rating, exactly as [`rate_period`] with that one game.
pub fn rate_game(
    white: &Rating,
    black: &Rating,
    score: Score,
    white_idle_days: f64,
    black_idle_days: f64,
) -> (Rating, Rating) {
    let white = white.idle(white_idle_days);
    let black = black.idle(black_idle_days);
    let points = score.white_points();
    (
        rate_period(&white, &[(black, points)]),
        rate_period(&black, &[(white, 1.0 - points)]),
    )
}

/// One player's new rating after a rating period with these games
/// (opponent, score of the player: 1.0 / 0.5 / 0.0) — the form of
/// Glickman's worked example.
///
/// skillratings takes only a win, a draw or a loss, so a score is read as
/// the nearest of those (≥ 0.75 a win, ≤ 0.25 a loss). Bad input never
/// panics and never makes a usable rating unusable:
/// - a player that is not valid() is returned as it is;
/// - a game with an invalid opponent or a NaN score is left out;
/// - with no games left, the period only grows the deviation (one day idle);
/// - the deviation is capped at 350;
/// - if the formulas give no usable number (ratings thousands of points
///   apart, where the expected score rounds to exactly 0 or 1), the period
///   counts as one without games.
pub fn rate_period(player: &Rating, games: &[(Rating, f64)]) -> Rating {
    if !player.valid() {
        return *player;
    }
    let results: Vec<(Glicko2Rating, Outcomes)> = games
        .iter()
        .filter(|(opponent, _)| opponent.valid())
        .filter_map(|(opponent, points)| Some((opponent.glicko(), outcome(*points)?)))
        .collect();
    let without_games = player.idle(1.0);
    if results.is_empty() {
        return without_games;
    }
    let new = glicko2_rating_period(&player.glicko(), &results, &CONFIG);
    let new = Rating {
        rating: new.rating,
        // Step 6 grows φ before the games shrink it; against opponents who
        // tell little it can end a little above a new player's 350.
        deviation: new.deviation.min(MAX_DEVIATION),
        volatility: new.volatility,
    };
    if new.valid() {
        new
    } else {
        without_games
    }
}

/// A player's points as skillratings' outcome; None for NaN.
fn outcome(points: f64) -> Option<Outcomes> {
    if points.is_nan() {
        None
    } else if points >= 0.75 {
        Some(Outcomes::WIN)
    } else if points <= 0.25 {
        Some(Outcomes::LOSS)
    } else {
        Some(Outcomes::DRAW)
    }
}

/// The rounded change shown on the end screen (+12 / −12): new.shown() - old.shown().
/// Saturating, so absurd ratings cannot overflow it.
pub fn change(old: &Rating, new: &Rating) -> i32 {
    new.shown().saturating_sub(old.shown())
}

#[cfg(test)]
mod tests;
