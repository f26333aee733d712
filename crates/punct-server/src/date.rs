//! The server's clock: now and today (UTC). The civil dates are
//! punct-view's (the page's module needs them too).

use std::time::{SystemTime, UNIX_EPOCH};

pub use punct_view::date::{civil_from_days, date_text, parse_date};

/// Seconds since 1970-01-01 (UTC) now (0 if the clock is earlier).
pub fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Today (UTC) as a day count since 1970-01-01.
pub fn today() -> i64 {
    now_secs().div_euclid(86_400)
}
