use super::*;

fn rating(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() < tolerance
}

// "Example of the Glicko-2 system" (Glickman), to the paper's printed precision.
#[test]
fn glickmans_worked_example() {
    let player = rating(1500.0, 200.0);
    let games = [
        (rating(1400.0, 30.0), 1.0),
        (rating(1550.0, 100.0), 0.0),
        (rating(1700.0, 300.0), 0.0),
    ];
    let new = rate_period(&player, &games);
    assert!(close(new.rating, 1464.06, 0.01), "{new:?}");
    assert!(close(new.deviation, 151.52, 0.01), "{new:?}");
    assert!(close(new.volatility, 0.05999, 1e-5), "{new:?}");
}

#[test]
fn categories_by_estimated_length() {
    assert_eq!(Category::real_time(60, 0), Category::Bullet);
    assert_eq!(Category::real_time(120, 1), Category::Bullet);
    assert_eq!(Category::real_time(180, 2), Category::Blitz);
    assert_eq!(Category::real_time(300, 3), Category::Blitz);
    assert_eq!(Category::real_time(600, 5), Category::Rapid);
    assert_eq!(Category::real_time(1800, 20), Category::Classical);
    // The edges, by base and by increment.
    assert_eq!(Category::real_time(0, 0), Category::Bullet);
    assert_eq!(Category::real_time(179, 0), Category::Bullet);
    assert_eq!(Category::real_time(180, 0), Category::Blitz);
    assert_eq!(Category::real_time(139, 1), Category::Bullet);
    assert_eq!(Category::real_time(140, 1), Category::Blitz);
    assert_eq!(Category::real_time(479, 0), Category::Blitz);
    assert_eq!(Category::real_time(480, 0), Category::Rapid);
    assert_eq!(Category::real_time(0, 12), Category::Rapid);
    assert_eq!(Category::real_time(1499, 0), Category::Rapid);
    assert_eq!(Category::real_time(1500, 0), Category::Classical);
    assert_eq!(Category::real_time(1460, 1), Category::Classical);
    // Absurd clocks saturate instead of overflowing.
    assert_eq!(Category::real_time(u64::MAX, u64::MAX), Category::Classical);
    assert_eq!(Category::real_time(0, u64::MAX / 2), Category::Classical);
}

#[test]
fn names_round_trip_and_a_bad_word_is_named() {
    let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        ["bullet", "blitz", "rapid", "classical", "correspondence"]
    );
    for category in Category::ALL {
        assert_eq!(Category::parse(category.name()), Ok(category));
    }
    let error = Category::parse("hyperbullet").unwrap_err();
    assert!(error.contains("`hyperbullet`"), "{error}");
    for name in names {
        assert!(error.contains(name), "{error}");
    }
    assert!(Category::parse("Blitz").is_err());
    assert!(Category::parse("").is_err());
    assert!(Category::parse(" blitz").is_err());
}

#[test]
fn new_rating_and_validity() {
    let new = Rating::new();
    assert_eq!(new, Rating::default());
    assert_eq!(
        (new.rating, new.deviation, new.volatility),
        (1500.0, 350.0, 0.06)
    );
    assert!(new.valid());
    assert!(new.provisional());
    assert_eq!(new.shown(), 1500);

    assert!(rating(1500.0, 110.0).valid() && !rating(1500.0, 110.0).provisional());
    assert!(rating(1500.0, 110.01).provisional());
    assert!(rating(1500.0, f64::NAN).provisional());

    for bad in [
        rating(f64::NAN, 100.0),
        rating(f64::INFINITY, 100.0),
        rating(1500.0, 0.0),
        rating(1500.0, -1.0),
        rating(1500.0, 350.001),
        rating(1500.0, f64::NAN),
        Rating {
            volatility: 0.0,
            ..Rating::new()
        },
        Rating {
            volatility: f64::INFINITY,
            ..Rating::new()
        },
        Rating {
            volatility: f64::NAN,
            ..Rating::new()
        },
    ] {
        assert!(!bad.valid(), "{bad:?}");
    }
}

#[test]
fn shown_rounds_and_change_is_the_shown_difference() {
    assert_eq!(rating(1499.5, 50.0).shown(), 1500);
    assert_eq!(rating(1499.49, 50.0).shown(), 1499);
    assert_eq!(rating(-3.6, 50.0).shown(), -4);
    assert_eq!(change(&rating(1499.6, 50.0), &rating(1511.4, 50.0)), 11);
    assert_eq!(change(&rating(1511.4, 50.0), &rating(1499.6, 50.0)), -11);
    // Absurd values saturate rather than overflow.
    assert_eq!(
        change(&rating(-1e300, 50.0), &rating(1e300, 50.0)),
        i32::MAX
    );
    assert_eq!(
        change(&rating(1e300, 50.0), &rating(-1e300, 50.0)),
        i32::MIN
    );
}

#[test]
fn a_win_raises_the_winner_and_lowers_the_loser_symmetrically() {
    for (white, black) in [
        (Rating::new(), Rating::new()),
        (rating(1800.0, 90.0), rating(1800.0, 90.0)),
    ] {
        let (w, b) = rate_game(&white, &black, Score::WhiteWins, 0.0, 0.0);
        assert!(w.rating > white.rating && b.rating < black.rating);
        assert!(close(
            w.rating - white.rating,
            black.rating - b.rating,
            1e-9
        ));
        assert!(close(w.deviation, b.deviation, 1e-9));
        assert!(w.deviation < white.deviation);
        // Black winning is the mirror image.
        let (w2, b2) = rate_game(&white, &black, Score::BlackWins, 0.0, 0.0);
        assert!(close(w2.rating, b.rating, 1e-9) && close(b2.rating, w.rating, 1e-9));
    }
    // New players: the library's own two-player example gives 1662 / 1338.
    let (w, b) = rate_game(&Rating::new(), &Rating::new(), Score::WhiteWins, 0.0, 0.0);
    assert_eq!((w.shown(), b.shown()), (1662, 1338));
    assert_eq!(change(&Rating::new(), &w), 162);
    assert_eq!(change(&Rating::new(), &b), -162);
}

#[test]
fn beating_a_stronger_player_gains_more() {
    let me = rating(1500.0, 80.0);
    let (upset, _) = rate_game(&me, &rating(1800.0, 80.0), Score::WhiteWins, 0.0, 0.0);
    let (expected, _) = rate_game(&me, &rating(1200.0, 80.0), Score::WhiteWins, 0.0, 0.0);
    assert!(upset.rating - me.rating > 2.0 * (expected.rating - me.rating));
}

// Shrinks while RD is above the ~60 that steady play settles at (below).
#[test]
fn a_draw_between_equals_moves_no_rating_but_shrinks_deviation() {
    for player in [Rating::new(), rating(2100.0, 90.0)] {
        let (w, b) = rate_game(&player, &player, Score::Draw, 0.0, 0.0);
        assert!(close(w.rating, player.rating, 1e-9), "{w:?}");
        assert!(close(b.rating, player.rating, 1e-9), "{b:?}");
        assert!(w.deviation < player.deviation && b.deviation < player.deviation);
    }
}

#[test]
fn provisional_ends_after_enough_games_against_established_players() {
    let established = rating(1500.0, 50.0);
    let mut player = Rating::new();
    let mut games = 0;
    while player.provisional() {
        let score = if games % 2 == 0 { 1.0 } else { 0.0 };
        player = rate_period(&player, &[(established, score)]);
        games += 1;
        assert!(games <= 20, "still provisional after 20 games: {player:?}");
    }
    // 10 games as computed today: RD 350 → 248 → 210 → … → 109.
    assert!((8..=12).contains(&games), "established after {games} games");
    // Regular play keeps it established.
    for game in 0..100 {
        player = rate_period(&player, &[(established, f64::from(game % 2))]);
        assert!(!player.provisional(), "{player:?}");
    }
}

#[test]
fn idle_deviation_grows_monotonically_up_to_350() {
    let player = rating(1700.0, 50.0);
    let mut last = player.deviation;
    for days in [0.1, 0.5, 1.0, 2.0, 10.0, 100.0, 365.0, 1000.0] {
        let deviation = player.idle(days).deviation;
        assert!(deviation > last, "{days} days: {deviation} <= {last}");
        last = deviation;
    }
    assert_eq!(player.idle(1e6).deviation, 350.0);
    assert_eq!(player.idle(1e300).deviation, 350.0);
    assert_eq!(player.idle(f64::MAX).deviation, 350.0);
    // Only the deviation moves.
    let idle = player.idle(30.0);
    assert_eq!(
        (idle.rating, idle.volatility),
        (player.rating, player.volatility)
    );
    // One day is one period: sqrt(50² + (0.06 × 173.7178)²).
    assert!(close(player.idle(1.0).deviation, 51.0749, 1e-4));
}

#[test]
fn idle_days_add_up_and_match_the_library_for_one_period() {
    let player = rating(1600.0, 70.0);
    let once = player.idle(3.5);
    let twice = player.idle(1.25).idle(2.25);
    assert!(close(once.deviation, twice.deviation, 1e-9));
    let library = skillratings::glicko2::decay_deviation(&player.glicko());
    assert!(close(player.idle(1.0).deviation, library.deviation, 1e-9));
    // A period without games is a day idle.
    assert_eq!(rate_period(&player, &[]), player.idle(1.0));
}

#[test]
fn odd_idle_days_count_as_none() {
    let player = rating(1700.0, 50.0);
    for days in [
        0.0,
        -0.0,
        -1.0,
        -1e300,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        assert_eq!(player.idle(days), player, "{days}");
        let odd = rate_game(&player, &player, Score::WhiteWins, days, days);
        assert_eq!(odd, rate_game(&player, &player, Score::WhiteWins, 0.0, 0.0));
    }
}

#[test]
fn rate_game_is_rate_period_for_each_side() {
    let white = rating(1620.0, 80.0);
    let black = Rating {
        rating: 1540.0,
        deviation: 140.0,
        volatility: 0.059,
    };
    for (score, points) in [
        (Score::WhiteWins, 1.0),
        (Score::BlackWins, 0.0),
        (Score::Draw, 0.5),
    ] {
        let (w, b) = rate_game(&white, &black, score, 3.0, 40.0);
        let (white_idle, black_idle) = (white.idle(3.0), black.idle(40.0));
        assert_eq!(w, rate_period(&white_idle, &[(black_idle, points)]));
        assert_eq!(b, rate_period(&black_idle, &[(white_idle, 1.0 - points)]));

        // And the library's separate two-player form agrees.
        let outcome = outcome(points).unwrap();
        let (lw, lb) = skillratings::glicko2::glicko2(
            &white_idle.glicko(),
            &black_idle.glicko(),
            &outcome,
            &CONFIG,
        );
        assert!(close(w.rating, lw.rating, 1e-9) && close(b.rating, lb.rating, 1e-9));
        assert!(close(w.deviation, lw.deviation, 1e-9));
        assert!(close(b.deviation, lb.deviation, 1e-9));
    }
}

#[test]
fn idle_days_before_a_game_make_it_count_more() {
    let white = rating(1500.0, 60.0);
    let black = rating(1500.0, 60.0);
    let (fresh, _) = rate_game(&white, &black, Score::WhiteWins, 0.0, 0.0);
    let (rusty, _) = rate_game(&white, &black, Score::WhiteWins, 200.0, 0.0);
    assert!(rusty.rating - white.rating > fresh.rating - white.rating);
}

#[test]
fn scores_are_read_as_the_nearest_result() {
    let player = rating(1500.0, 100.0);
    let opponent = rating(1500.0, 100.0);
    let rated = |points: f64| rate_period(&player, &[(opponent, points)]);
    assert_eq!(rated(0.9), rated(1.0));
    assert_eq!(rated(f64::INFINITY), rated(1.0));
    assert_eq!(rated(0.6), rated(0.5));
    assert_eq!(rated(0.1), rated(0.0));
    assert_eq!(rated(-5.0), rated(0.0));
    assert!(rated(1.0).rating > rated(0.5).rating && rated(0.5).rating > rated(0.0).rating);
}

#[test]
fn bad_games_are_left_out_and_a_bad_player_is_kept() {
    let player = rating(1500.0, 100.0);
    let good = (rating(1550.0, 80.0), 1.0);
    let expected = rate_period(&player, &[good]);
    let with_bad = rate_period(
        &player,
        &[
            (rating(f64::NAN, 80.0), 1.0),
            good,
            (rating(1500.0, 0.0), 0.0),
            (rating(1500.0, 80.0), f64::NAN),
        ],
    );
    assert_eq!(with_bad, expected);
    // Nothing left: one day idle.
    let only_bad = rate_period(&player, &[(rating(1500.0, 80.0), f64::NAN)]);
    assert_eq!(only_bad, player.idle(1.0));

    let broken = rating(f64::NAN, 80.0);
    let (w, b) = rate_game(&broken, &player, Score::WhiteWins, 5.0, 0.0);
    assert!(w.rating.is_nan() && w.deviation == 80.0);
    assert_eq!(b, player.idle(1.0));
}

#[test]
fn extreme_but_valid_ratings_stay_valid() {
    let cases = [
        (rating(1e6, 30.0), rating(-1e6, 30.0)),
        (rating(1e300, 1e-300), rating(-1e300, 350.0)),
        (rating(9000.0, 40.0), rating(1000.0, 40.0)),
        (
            Rating {
                volatility: 1e300,
                ..Rating::new()
            },
            Rating {
                volatility: 5e-324,
                ..Rating::new()
            },
        ),
        (rating(1500.0, 5e-324), rating(1500.0, 350.0)),
    ];
    for (white, black) in cases {
        for score in [Score::WhiteWins, Score::BlackWins, Score::Draw] {
            for days in [0.0, 1.0, 1e9] {
                let (w, b) = rate_game(&white, &black, score, days, days);
                assert!(
                    w.valid() && b.valid(),
                    "{white:?} {black:?} {score:?}: {w:?} {b:?}"
                );
            }
        }
    }
    // A certain win against a player 8000 points below moves nothing but RD.
    let strong = rating(9000.0, 40.0);
    let (w, _) = rate_game(&strong, &rating(1000.0, 40.0), Score::WhiteWins, 0.0, 0.0);
    assert!(close(w.rating, strong.rating, 1e-6), "{w:?}");
}

#[test]
fn a_period_never_leaves_the_deviation_above_350() {
    // A new player against a far weaker one learns almost nothing from the
    // expected win, and Glicko-2's step 6 would take RD a little over 350.
    let win = rate_period(&Rating::new(), &[(rating(0.0, 30.0), 1.0)]);
    assert_eq!(win.deviation, 350.0);
    assert!(win.valid() && win.rating > 1500.0, "{win:?}");
    // The upset still counts in full: capped, not thrown away.
    let loss = rate_period(&Rating::new(), &[(rating(0.0, 30.0), 0.0)]);
    assert_eq!(loss.deviation, 350.0);
    assert!(loss.valid() && loss.rating < 1000.0, "{loss:?}");
}

// Each game is its own rating period, so Glicko-2's step 6 adds a period's
// volatility every game: steady play against established opponents settles
// the deviation near 60, from above and from below.
#[test]
fn steady_play_settles_the_deviation_near_60() {
    let established = rating(1500.0, 50.0);
    for start in [Rating::new(), rating(1500.0, 40.0)] {
        let mut player = start;
        for game in 0..400 {
            player = rate_period(&player, &[(established, f64::from(game % 2))]);
        }
        assert!(
            (55.0..65.0).contains(&player.deviation),
            "{start:?} -> {player:?}"
        );
    }
    let seasoned = rating(1500.0, 40.0);
    let (after, _) = rate_game(&seasoned, &seasoned, Score::Draw, 0.0, 0.0);
    assert!(after.deviation > seasoned.deviation, "{after:?}");
}
