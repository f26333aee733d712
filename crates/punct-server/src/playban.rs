//! The playban: a player who keeps leaving rated games, or keeps aborting
//! games, waits a while before the next one. A rated game lost by
//! abandonment (the opponent claimed the win), a rated game lost on time
//! while the player's seat had no live connection, and an online game the
//! player aborted are noted in the store (`punct_store::ConductRow`, one
//! per game and player) by the instance that commits the end; whoever
//! seeks, joins quick pairing, challenges or accepts is refused while the
//! notes of the last 24 hours say so. The notes are in the database, so
//! every instance on one PostgreSQL refuses alike.
//!
//! The cooldowns, from the last such game, in units of `--playban-base`
//! (5 minutes unless set): 2 games left in 24 hours → 1 unit, 3 → 3
//! units, 4 or more → 12 units (5, 15 and 60 minutes); aborts count only
//! when many: 4 → 1 unit, 6 → 3 units, 8 or more → 12 units.

use crate::error::ApiError;
use crate::games::{EndReason, LiveGame, Mode};
use punct_core::Side;
use punct_store::{ConductRow, Storage, StoreError};

/// How far back the notes count.
pub(crate) const WINDOW_MS: i64 = 24 * 60 * 60 * 1000;
/// Games left (abandoned, lost on time while away) that start each
/// cooldown, and its length in units.
const LEFT_TIERS: [(usize, i64); 3] = [(2, 1), (3, 3), (4, 12)];
/// Aborts that start each cooldown: a few are fair (a wrong time
/// control, an opponent one would rather not play), many are not.
const ABORT_TIERS: [(usize, i64); 3] = [(4, 1), (6, 3), (8, 12)];

/// The note's kinds, as stored.
pub(crate) const ABANDONMENT: &str = "abandonment";
pub(crate) const TIME_AWAY: &str = "time_away";
pub(crate) const ABORT: &str = "abort";

/// What the end of `game` notes against a player: the side and the
/// kind; `away` says whether a side's seat has no live connection now.
pub(crate) fn noted(game: &LiveGame, away: impl Fn(Side) -> bool) -> Option<(Side, &'static str)> {
    let end = game.row.end?;
    match end.reason {
        EndReason::Abandonment(side) if game.row.rated => Some((side, ABANDONMENT)),
        EndReason::Time(side) if game.row.rated && away(side) => Some((side, TIME_AWAY)),
        EndReason::Aborted(side) if game.row.mode == Mode::Online => Some((side, ABORT)),
        _ => None,
    }
}

/// Notes the end of `game` against its player where it counts (an
/// account in the seat); `away` as for [`noted`].
pub(crate) async fn note(
    store: &dyn Storage,
    game: &LiveGame,
    away: impl Fn(Side) -> bool,
) -> Result<(), StoreError> {
    let Some((side, kind)) = noted(game, away) else {
        return Ok(());
    };
    let user = match side {
        Side::White => &game.row.white_user,
        Side::Black => &game.row.black_user,
    };
    let Some(user) = user.clone() else {
        return Ok(());
    };
    let row = ConductRow {
        user,
        game: game.row.id.clone(),
        kind: kind.to_string(),
        at: game.row.updated,
    };
    store.accounts().add_conduct(row).await
}

/// When the cooldown that `notes` (the last 24 hours') earn ends (ms since
/// 1970), with a unit of `unit_ms`; `None` if they earn none.
pub(crate) fn until(notes: &[ConductRow], unit_ms: i64) -> Option<i64> {
    let ends = |aborts: bool, tiers: &[(usize, i64)]| {
        let times: Vec<i64> = notes
            .iter()
            .filter(|n| (n.kind == ABORT) == aborts)
            .map(|n| n.at)
            .collect();
        let units = tiers
            .iter()
            .rev()
            .find(|(count, _)| times.len() >= *count)?
            .1;
        Some(times.iter().max()? + units * unit_ms)
    };
    ends(false, &LEFT_TIERS).max(ends(true, &ABORT_TIERS))
}

/// Refuses `user` a new game while a cooldown runs at `now`.
pub(crate) async fn check(
    store: &dyn Storage,
    user: &str,
    unit_ms: i64,
    now: i64,
) -> Result<(), ApiError> {
    let notes = store.accounts().conduct(user, now - WINDOW_MS).await?;
    match until(&notes, unit_ms) {
        Some(end) if end > now => Err(refused(end - now)),
        _ => Ok(()),
    }
}

/// 429 `playban`: the seconds left (rounded up) in `seconds` and
/// `Retry-After`.
pub(crate) fn refused(left_ms: i64) -> ApiError {
    let seconds = ((left_ms + 999) / 1000).max(1) as u64;
    ApiError::too_many(
        "playban",
        format!(
            "you have left or aborted too many games lately: you can start a new game in \
             {seconds} s"
        ),
        seconds,
    )
    .with("seconds", seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::End;
    use punct_core::{Position, Variant};
    use punct_store::GameRow;

    fn note(kind: &str, at: i64) -> ConductRow {
        ConductRow {
            user: "u".into(),
            game: format!("g{at}"),
            kind: kind.into(),
            at,
        }
    }

    #[test]
    fn cooldowns_grow_with_games_left_and_many_aborts() {
        let unit = 1000;
        assert_eq!(until(&[], unit), None);
        assert_eq!(until(&[note(ABANDONMENT, 50)], unit), None);
        // From the last one.
        let two = [note(ABANDONMENT, 50), note(TIME_AWAY, 20)];
        assert_eq!(until(&two, unit), Some(1050));
        let three = [two[0].clone(), two[1].clone(), note(ABANDONMENT, 60)];
        assert_eq!(until(&three, unit), Some(3060));
        let mut five = three.to_vec();
        five.extend([note(TIME_AWAY, 70), note(ABANDONMENT, 10)]);
        assert_eq!(until(&five, unit), Some(12_070));
        // Aborts: a few are nothing, and they do not add to games left.
        let aborts = |n: i64| (0..n).map(|i| note(ABORT, i)).collect::<Vec<_>>();
        assert_eq!(until(&aborts(3), unit), None);
        let mut mixed = aborts(3);
        mixed.push(note(ABANDONMENT, 100));
        assert_eq!(until(&mixed, unit), None);
        assert_eq!(until(&aborts(4), unit), Some(1003));
        assert_eq!(until(&aborts(6), unit), Some(3005));
        assert_eq!(until(&aborts(9), unit), Some(12_008));
        // The longer of the two stands.
        let mut both = aborts(6);
        both.extend(two);
        assert_eq!(until(&both, unit), Some(3005));
    }

    #[test]
    fn the_refusal_says_the_seconds_left_rounded_up() {
        let e = refused(4001);
        assert_eq!((e.code, e.retry_after), ("playban", Some(5)));
        assert_eq!(e.params["seconds"], 5);
    }

    fn ended(reason: EndReason, rated: bool, mode: Mode) -> LiveGame {
        let row = GameRow {
            id: "g".into(),
            variant: "standard".into(),
            mode,
            rated,
            start: Position::new(Variant::Standard).to_position_string(),
            ..GameRow::default()
        };
        let mut g = LiveGame::new(row, Position::new(Variant::Standard)).unwrap();
        g.row.end = End::by(reason);
        g
    }

    #[test]
    fn what_counts_against_whom() {
        let away = |side: Side| side == Side::Black;
        let w = Side::White;
        let b = Side::Black;
        let cases = [
            (EndReason::Abandonment(w), true, Some((w, ABANDONMENT))),
            (EndReason::Abandonment(w), false, None),
            // On time: only while away.
            (EndReason::Time(b), true, Some((b, TIME_AWAY))),
            (EndReason::Time(w), true, None),
            (EndReason::Time(b), false, None),
            (EndReason::Resignation(b), true, None),
            (EndReason::Aborted(w), false, Some((w, ABORT))),
            (EndReason::Aborted(b), true, Some((b, ABORT))),
        ];
        for (reason, rated, want) in cases {
            let g = ended(reason, rated, Mode::Online);
            assert_eq!(noted(&g, away), want, "{reason} rated {rated}");
        }
        // Aborting a game against the AI harms nobody.
        let ai = Mode::Ai {
            level: 1,
            ai_side: Side::Black,
        };
        assert_eq!(noted(&ended(EndReason::Aborted(w), false, ai), away), None);
    }
}
