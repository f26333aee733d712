//! The games file (one self-play game per line, so a dataset can be kept
//! and fitted again) and the positions taken from the games, each with
//! its features and the game's result for the side to move.

use crate::selfplay::SelfPlayGame;
use punct_core::{parse_moves, Game, Move, Position, Record, Side, Status, Variant};
use punct_engine::features::{self, COUNT};
use punct_engine::tactics::has_winning_move;
use punct_engine::{evaluate_with, Weights};
use std::collections::HashSet;

/// The games as text: `header` lines as `#` comments, then one game per
/// line: variant, result (`white`, `black` or `draw`) and the moves.
pub fn write_games(games: &[SelfPlayGame], header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str("# One game per line: variant, result (white, black or draw), moves from the empty board.\n");
    for g in games {
        out.push_str(&format!("{} {}", g.variant, g.result.word()));
        for m in &g.moves {
            out.push(' ');
            out.push_str(&m.to_string());
        }
        out.push('\n');
    }
    out
}

/// Reads a games file written by [`write_games`], replaying every game:
/// the moves must be legal and the result must be how the game ended (or
/// `draw` for a game that was cut before its end). `source` names the
/// file in messages. A file of game records (as `punct match --records`
/// writes them: tags in brackets, then the moves) is read as well.
pub fn read_games(text: &str, source: &str) -> Result<Vec<SelfPlayGame>, String> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    if first.is_some_and(|l| l.starts_with('[')) {
        return read_records(text, source);
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let at = |what: String| format!("{source}, line {line}: {what}");
        let mut words = content.splitn(3, char::is_whitespace);
        let variant: Variant = words
            .next()
            .unwrap_or("")
            .parse()
            .map_err(|e: String| at(e))?;
        let result = match words.next().unwrap_or("") {
            "white" => Status::Won(Side::White),
            "black" => Status::Won(Side::Black),
            "draw" => Status::Draw,
            other => {
                return Err(at(format!(
                    "`{other}` is not a result: expected white, black or draw"
                )))
            }
        };
        let moves = parse_moves(words.next().unwrap_or(""))
            .map_err(|(ply, e)| at(format!("ply {ply}: {e}")))?;
        let game = Game::replay(Position::new(variant), &moves).map_err(|e| at(e.to_string()))?;
        let end = game.position().status();
        if end != result && !(end == Status::Ongoing && result == Status::Draw) {
            return Err(at(format!(
                "the moves end `{end}`, not `{}`",
                result.word()
            )));
        }
        out.push(SelfPlayGame {
            variant,
            moves,
            result,
        });
    }
    Ok(out)
}

/// Reads a file of game records, one after another: each game starts with
/// its tags. Games must start from the empty board; one that ends
/// unfinished (adjudicated) counts as a draw.
fn read_records(text: &str, source: &str) -> Result<Vec<SelfPlayGame>, String> {
    // (first line, text) of each record: a tag after moves starts the next.
    let mut chunks: Vec<(usize, String)> = Vec::new();
    let mut in_moves = false;
    for (i, line) in text.lines().enumerate() {
        let tag = line.trim_start().starts_with('[');
        if tag && (in_moves || chunks.is_empty()) {
            chunks.push((i + 1, String::new()));
            in_moves = false;
        }
        if !tag && !line.trim().is_empty() {
            in_moves = true;
        }
        if let Some((_, chunk)) = chunks.last_mut() {
            chunk.push_str(line);
            chunk.push('\n');
        }
    }
    let mut out = Vec::new();
    for (line, chunk) in chunks {
        let at = |what: String| format!("{source}, the game starting at line {line}: {what}");
        let record = Record::parse(&chunk).map_err(|e| at(e.to_string()))?;
        let start = record.start_position().map_err(|e| at(e.to_string()))?;
        if start != Position::new(start.variant()) {
            return Err(at(
                "starts from a set-up position, not the empty board".into()
            ));
        }
        let game = record.replay().map_err(|e| at(e.to_string()))?;
        let result = match game.position().status() {
            Status::Ongoing => Status::Draw,
            end => end,
        };
        out.push(SelfPlayGame {
            variant: start.variant(),
            moves: game.moves().collect(),
            result,
        });
    }
    Ok(out)
}

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    pub variant: Variant,
    /// The features for the side to move ([`features::extract`]).
    pub features: [i32; COUNT],
    /// The hand-set evaluation, for comparison.
    pub hand: i32,
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
    /// The game it comes from (its number in the dataset) and the plies
    /// played before it.
    pub game: usize,
    pub ply: usize,
}

/// Walks the positions of `games` worth learning from: after the first
/// `skip_plies` plies, unfinished, the side to move unable to win at once
/// (the search plays those by tactics, never by the evaluation or the
/// ranking), each position once (the first game that reaches it keeps
/// it). `visit` gets the game's number, the ply, the position and the move
/// played there.
pub fn each_position(
    games: &[SelfPlayGame],
    skip_plies: usize,
    mut visit: impl FnMut(usize, usize, &Position, Move),
) {
    let mut seen = HashSet::new();
    for (index, g) in games.iter().enumerate() {
        let mut pos = Position::new(g.variant);
        for (ply, &mv) in g.moves.iter().enumerate() {
            if ply >= skip_plies
                && pos.status() == Status::Ongoing
                && seen.insert((pos.variant(), pos.hash()))
                && !has_winning_move(&pos)
            {
                visit(index, ply, &pos, mv);
            }
            pos.make(mv);
        }
    }
}

/// The positions of [`each_position`] with their features and the game's
/// result for the side to move.
pub fn samples(games: &[SelfPlayGame], skip_plies: usize) -> Vec<Sample> {
    let hand = Weights::hand();
    let mut out = Vec::new();
    each_position(games, skip_plies, |index, ply, pos, _| {
        let result = match games[index].result {
            Status::Won(s) if s == pos.side_to_move() => 1.0,
            Status::Won(_) => 0.0,
            _ => 0.5,
        };
        out.push(Sample {
            variant: pos.variant(),
            features: features::extract(pos),
            hand: evaluate_with(pos, &hand),
            result,
            game: index,
            ply,
        });
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Move;

    fn a_game() -> SelfPlayGame {
        let mut pos = Position::new(Variant::Standard);
        let mut moves: Vec<Move> = Vec::new();
        let mut rng = punct_engine::RandomPlayer::new(3);
        use punct_engine::Player;
        while let Some(m) = rng.choose(&pos) {
            pos.make(m);
            moves.push(m);
        }
        SelfPlayGame {
            variant: Variant::Standard,
            moves,
            result: pos.status(),
        }
    }

    #[test]
    fn games_survive_writing_and_reading() {
        let g = a_game();
        let cut = SelfPlayGame {
            variant: Variant::Basic,
            moves: parse_moves("R@P16/3 M@D2/0").unwrap(),
            result: Status::Draw,
        };
        let text = write_games(&[g.clone(), cut.clone()], "made by a test");
        assert!(text.starts_with("# made by a test\n"));
        assert_eq!(read_games(&text, "t").unwrap(), vec![g, cut]);
    }

    #[test]
    fn a_records_file_reads_as_games() {
        let g = a_game();
        let mut game = Game::new(Variant::Standard);
        for &m in &g.moves {
            game.play(m).unwrap();
        }
        let won = Record::from_game(&game, &[("White", "a"), ("Black", "b")]).to_text();
        // Cut before its end, as an adjudicated match game: a draw.
        let mut cut = Game::new(Variant::Basic);
        for m in parse_moves("R@P16/3 M@D2/0").unwrap() {
            cut.play(m).unwrap();
        }
        let mut unfinished = Record::from_game(&cut, &[]);
        unfinished.outcome = punct_core::Outcome::Draw;
        unfinished.set_tag("Result", "1/2-1/2");
        let text = format!("{won}\n{}\n", unfinished.to_text());
        let read = read_games(&text, "m.pgn").unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0], g);
        assert_eq!(read[1].variant, Variant::Basic);
        assert_eq!(read[1].result, Status::Draw);
        assert_eq!(read[1].moves.len(), 2);
        // A record that goes wrong is named by where it starts.
        let bad = format!(
            "{won}\n{}",
            unfinished.to_text().replace("M@D2/0", "M@D2/9")
        );
        let e = read_games(&bad, "m.pgn").unwrap_err();
        let second = bad
            .lines()
            .skip(1)
            .position(|l| l.starts_with("[Event"))
            .unwrap()
            + 2;
        assert!(
            e.contains(&format!("m.pgn, the game starting at line {second}")),
            "{e}"
        );
    }

    #[test]
    fn bad_game_lines_name_the_line_and_the_fault() {
        let cases = [
            ("chess white E@C5/2", "t, line 1: `chess` is not a variant"),
            ("standard blue E@C5/2", "`blue` is not a result"),
            ("standard white E@C5/9", "ply 1"),
            ("\nstandard white C@B7/2 C@B7/2", "t, line 2: "),
            (
                "standard white C@B7/2",
                "the moves end `ongoing`, not `white`",
            ),
        ];
        for (text, want) in cases {
            let err = read_games(text, "t").unwrap_err();
            assert!(err.contains(want), "{err:?} lacks {want:?}");
        }
    }

    #[test]
    fn samples_skip_the_opening_finished_and_won_positions() {
        let g = a_game();
        let s = samples(std::slice::from_ref(&g), 4);
        assert!(!s.is_empty());
        assert!(s.len() <= g.moves.len() - 4);
        let winner = match g.result {
            Status::Won(w) => w,
            _ => panic!("a random game here ends with a winner"),
        };
        // Replay: every sample is its ply's position, labelled with the
        // result for its side to move.
        for x in &s {
            assert!(x.ply >= 4);
            let pos = Game::replay(Position::new(Variant::Standard), &g.moves[..x.ply])
                .unwrap()
                .position()
                .clone();
            assert!(!has_winning_move(&pos));
            assert_eq!(x.features, features::extract(&pos));
            let won = pos.side_to_move() == winner;
            assert_eq!(x.result, if won { 1.0 } else { 0.0 });
        }
    }
}
