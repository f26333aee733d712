//! The post-game review's "move that lost" on real games: 10 games of
//! level 4 against level 4 (data/policy-games.txt) won by a connection
//! each name a move of the loser after which the winner wins by force,
//! with a line that, played out, is that win.

use punct_core::{parse_moves, Position, Status, Variant};
use punct_engine::review::losing_move;
use punct_engine::solver::SolveLimits;
use std::time::Duration;

#[test]
fn every_game_lost_by_connection_names_a_losing_move_of_the_loser_with_its_proof() {
    let text = include_str!("../../../data/policy-games.txt");
    let limits = SolveLimits {
        nodes: 300_000,
        time: Some(Duration::from_secs(5)),
    };
    let mut checked = 0;
    let mut before_the_last = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut words = line.split_whitespace();
        let variant: Variant = words.next().unwrap().parse().unwrap();
        let _result = words.next().unwrap();
        let moves = parse_moves(&words.collect::<Vec<_>>().join(" ")).unwrap();
        let start = Position::new(variant);
        let mut end = start.clone();
        for &m in &moves {
            end.play(m).unwrap();
        }
        let Status::Won(winner) = end.status() else {
            continue;
        };
        if end.connection(winner).is_none() {
            continue;
        }
        let lost = losing_move(&start, &moves, 3, &limits)
            .unwrap_or_else(|| panic!("no losing move in: {line}"));
        assert_eq!(lost.side, winner.opponent(), "{line}");
        assert_eq!(moves[lost.ply - 1], lost.mv);
        let mut pos = start.clone();
        for &m in &moves[..lost.ply] {
            pos.play(m).unwrap();
        }
        for &m in &lost.line {
            pos.play(m)
                .unwrap_or_else(|e| panic!("{line}: the line's {m}: {e}"));
        }
        assert_eq!(
            pos.status(),
            Status::Won(winner),
            "{line}: the line ends in the win"
        );
        assert_eq!(lost.by_connection, pos.connection(winner).is_some());
        // Not only the move right before the winner's last one.
        before_the_last += usize::from(lost.ply + 1 < moves.len());
        checked += 1;
        if checked == 10 {
            break;
        }
    }
    assert_eq!(checked, 10, "too few games won by a connection");
    eprintln!("{before_the_last} of {checked} losing moves came before the loser's last move");
    assert!(before_the_last > 0);
}
