//! Ratings stay usable whatever games are played, in whatever order.

use proptest::prelude::*;
use punct_ratings::{change, rate_game, rate_period, Rating, Score};

fn score() -> impl Strategy<Value = Score> {
    prop_oneof![
        Just(Score::WhiteWins),
        Just(Score::BlackWins),
        Just(Score::Draw)
    ]
}

/// Mostly ordinary gaps between games, sometimes odd ones.
fn days() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => 0.0..30.0f64,
        1 => 0.0..1e5f64,
        1 => prop_oneof![
            Just(0.0),
            Just(-1.0),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(1e300),
        ],
    ]
}

/// Any valid rating, including far-fetched ones.
fn valid_rating() -> impl Strategy<Value = Rating> {
    (
        prop_oneof![4 => 0.0..4000.0f64, 1 => -1e7..1e7f64],
        prop_oneof![4 => 30.0..=350.0f64, 1 => 1e-9..=350.0f64],
        prop_oneof![4 => 0.03..0.1f64, 1 => 1e-9..10.0f64],
    )
        .prop_map(|(rating, deviation, volatility)| Rating {
            rating,
            deviation,
            volatility,
        })
}

proptest! {
    #[test]
    fn a_pool_of_players_stays_valid(
        games in prop::collection::vec((0usize..5, 1usize..5, score(), days(), days()), 1..150),
    ) {
        let mut players = [Rating::new(); 5];
        for (white, offset, score, white_days, black_days) in games {
            let black = (white + offset) % 5;
            let (w, b) = rate_game(&players[white], &players[black], score, white_days, black_days);
            prop_assert!(w.valid() && b.valid(), "{:?} {:?}", w, b);
            // The winner never goes down, the loser never up.
            match score {
                Score::WhiteWins => prop_assert!(change(&players[white], &w) >= 0 && change(&players[black], &b) <= 0),
                Score::BlackWins => prop_assert!(change(&players[white], &w) <= 0 && change(&players[black], &b) >= 0),
                Score::Draw => {}
            }
            players[white] = w;
            players[black] = b;
        }
    }

    #[test]
    fn any_valid_pair_rates_to_valid_ratings(
        white in valid_rating(),
        black in valid_rating(),
        score in score(),
        white_days in days(),
        black_days in days(),
    ) {
        let (w, b) = rate_game(&white, &black, score, white_days, black_days);
        prop_assert!(w.valid() && b.valid(), "{:?} {:?} -> {:?} {:?}", white, black, w, b);
    }

    #[test]
    fn any_period_of_a_valid_player_is_valid(
        player in valid_rating(),
        games in prop::collection::vec((valid_rating(), any::<f64>()), 0..10),
    ) {
        let new = rate_period(&player, &games);
        prop_assert!(new.valid(), "{:?} -> {:?}", player, new);
    }

    #[test]
    fn idle_only_grows_the_deviation(player in valid_rating(), a in days(), b in days()) {
        let (a, b) = if a.total_cmp(&b).is_le() { (a, b) } else { (b, a) };
        let (sooner, later) = (player.idle(a), player.idle(b));
        prop_assert!(sooner.valid() && later.valid());
        prop_assert!(player.deviation <= sooner.deviation);
        // NaN sorts last and counts as no days, so compare only real gaps.
        if b.is_finite() {
            prop_assert!(sooner.deviation <= later.deviation);
        }
        prop_assert_eq!((later.rating, later.volatility), (player.rating, player.volatility));
    }
}
