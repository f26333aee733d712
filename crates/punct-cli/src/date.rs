//! Today's date for record tags and file names (the dates themselves:
//! `punct_server::date`).

use punct_server::date::{civil_from_days, now_secs};

/// Today (UTC) as PGN writes dates: `YYYY.MM.DD`.
pub fn today() -> String {
    let (y, m, d) = civil_from_days(punct_server::date::today());
    format!("{y:04}.{m:02}.{d:02}")
}

/// Now (UTC) as `YYYYMMDD-HHMMSS`, for file names.
pub fn stamp() -> String {
    let secs = now_secs();
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}
