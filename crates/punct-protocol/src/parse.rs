//! Reading command arguments and writing the protocol's reply lines. Pure
//! functions: nothing here touches the session or the output.

use punct_core::{Position, Side, Status, Variant};
use punct_engine::{Clock, Info, Limits, Score};
use std::time::Duration;

/// Longest time any `go` argument may ask for (about 31 years); larger
/// values are cut to it, so that adding a budget to a clock never overflows.
pub const MAX_MILLIS: u64 = 1_000_000_000_000;

/// The words of a line with their byte offsets, so that `setoption` can
/// take a value verbatim.
pub(crate) fn tokens(line: &str) -> Vec<(usize, &str)> {
    let base = line.as_ptr() as usize;
    line.split_whitespace()
        .map(|t| (t.as_ptr() as usize - base, t))
        .collect()
}

/// `text` cut to `max` characters (with `…`), for echoing user input in
/// error messages without flooding the output.
pub(crate) fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// One `info` line for a progress report:
/// `info [multipv K] depth D score <score> nodes N nps N time MS pv m1 m2 …`
/// (`pv` and its moves are left out when the variation is empty;
/// `multipv K` is written for every line but the best, K > 1).
pub fn format_info(info: &Info) -> String {
    info_text(info, info.multipv != 1)
}

/// [`format_info`], with `multipv K` written for the best line too when
/// `show_multipv` (a session asked for more than one line).
pub(crate) fn info_text(info: &Info, show_multipv: bool) -> String {
    info_line(
        (show_multipv || info.multipv != 1).then_some(info.multipv),
        info.depth,
        info.score,
        info.nodes,
        info.elapsed,
        &info.pv,
    )
}

pub(crate) fn info_line(
    multipv: Option<u32>,
    depth: u32,
    score: Score,
    nodes: u64,
    elapsed: Duration,
    pv: &[punct_core::Move],
) -> String {
    let secs = elapsed.as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    let mut line = String::from("info ");
    if let Some(k) = multipv {
        line.push_str(&format!("multipv {k} "));
    }
    line.push_str(&format!(
        "depth {depth} score {score} nodes {nodes} nps {nps} time {}",
        elapsed.as_millis()
    ));
    if !pv.is_empty() {
        line.push_str(" pv");
        for m in pv {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

/// Reads a search report, `info [multipv K] depth D score <score> …`, as a
/// client (a GUI, the match runner) receives it, back into an [`Info`].
///
/// The fields may come in any order; `multipv` defaults to 1 (the best
/// line) and the other fields to 0 / no variation; `pv` takes every word
/// after it; `nps` and fields this version does not know (with their
/// value) are skipped, so that later versions may add some. Refused, with a
/// message naming the word: a line that is not `info`, an `info string`
/// line (a message, not a report), a line without `score`, a number or
/// score that does not read, and a move of the `pv` that is not a move.
pub fn parse_info(line: &str) -> Result<Info, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first() {
        Some(w) if *w == "info" => {}
        _ => return Err(format!("not an info line: `{}`", clip(line.trim(), 40))),
    }
    let mut info = Info {
        multipv: 1,
        depth: 0,
        score: Score::Eval(0),
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: Vec::new(),
    };
    let mut score = None;
    let mut i = 1;
    let number = |key: &str, at: usize| -> Result<u64, String> {
        let Some(text) = words.get(at) else {
            return Err(format!("info: `{key}` needs a value"));
        };
        text.parse::<u64>()
            .map_err(|_| format!("info: {key} needs a whole number, got `{}`", clip(text, 40)))
    };
    while i < words.len() {
        let key = words[i];
        match key {
            "string" => return Err("info string: a message, not a search report".into()),
            "multipv" => {
                let k = number(key, i + 1)?;
                info.multipv = u32::try_from(k)
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| format!("info: multipv must be 1 or more, got {k}"))?;
                i += 2;
            }
            "depth" => {
                let d = number(key, i + 1)?;
                info.depth = u32::try_from(d).unwrap_or(u32::MAX);
                i += 2;
            }
            "nodes" => {
                info.nodes = number(key, i + 1)?;
                i += 2;
            }
            "time" => {
                info.elapsed = Duration::from_millis(number(key, i + 1)?);
                i += 2;
            }
            "score" => {
                let (Some(kind), Some(text)) = (words.get(i + 1), words.get(i + 2)) else {
                    return Err(
                        "info: `score` needs a kind and a value (cp N, win N or loss N)".into(),
                    );
                };
                score = Some(parse_score(kind, text)?);
                i += 3;
            }
            "pv" => {
                for text in &words[i + 1..] {
                    let mv = text.parse().map_err(|e: punct_core::ParseMoveError| {
                        format!("info: pv: `{}` is not a move: {}", clip(text, 40), e.reason)
                    })?;
                    info.pv.push(mv);
                }
                i = words.len();
            }
            // nps is derived; an unknown field is skipped with its value.
            _ => i += 2,
        }
    }
    info.score = score.ok_or("info: the line has no score")?;
    Ok(info)
}

/// `cp N`, `win N` or `loss N` (§5 of docs/PROTOCOL.md).
fn parse_score(kind: &str, text: &str) -> Result<Score, String> {
    let bad = || {
        format!(
            "info: score {} needs a whole number, got `{}`",
            clip(kind, 10),
            clip(text, 40)
        )
    };
    match kind {
        "cp" => text.parse().map(Score::Eval).map_err(|_| bad()),
        "win" => text.parse().map(Score::Win).map_err(|_| bad()),
        "loss" => text.parse().map(Score::Loss).map_err(|_| bad()),
        _ => Err(format!(
            "info: unknown score kind `{}` (expected cp, win or loss)",
            clip(kind, 10)
        )),
    }
}

/// Why the game is over, for `go` on a finished position.
pub(crate) fn game_over_text(status: Status) -> String {
    match status {
        Status::Won(side) => format!("the game is over ({side} has won)"),
        Status::Draw => "the game is over (it is a draw)".to_string(),
        Status::Ongoing => "the game is not over".to_string(),
    }
}

/// Reads the arguments of `go` (everything after the word `go`) into
/// [`Limits`] for a search with `side` to move.
///
/// Accepted: `movetime MS`, `nodes N`, `depth D` (each at least 1),
/// `wtime MS`, `btime MS` (negative values count as 0), `winc MS`, `binc MS`
/// (at least 0), `movestogo N` (read and ignored) and `infinite`, in any
/// order; a repeated limit takes its last value. A clock is built when any
/// of `wtime btime winc binc` is given; it then must include the time of the
/// side to move, and missing fields count as 0.
pub fn parse_go(args: &[&str], side: Side) -> Result<Limits, String> {
    let mut limits = Limits::default();
    // wtime, btime, winc, binc
    let mut clock: [Option<u64>; 4] = [None; 4];
    let mut it = args.iter();
    while let Some(&word) = it.next() {
        let key = word.to_ascii_lowercase();
        if key == "infinite" {
            limits.infinite = true;
            continue;
        }
        let (min, slot): (i64, Option<usize>) = match key.as_str() {
            "movetime" | "nodes" | "depth" => (1, None),
            "wtime" => (i64::MIN, Some(0)),
            "btime" => (i64::MIN, Some(1)),
            "winc" => (0, Some(2)),
            "binc" => (0, Some(3)),
            "movestogo" => (0, None),
            _ => {
                return Err(format!(
                    "go: unknown limit `{}` (expected movetime, nodes, depth, wtime, btime, \
                     winc, binc, movestogo or infinite)",
                    clip(word, 40)
                ))
            }
        };
        let Some(&text) = it.next() else {
            return Err(format!("go: `{key}` needs a value"));
        };
        let value: i64 = text
            .parse()
            .map_err(|_| format!("go: {key} needs a whole number, got `{}`", clip(text, 40)))?;
        if value < min {
            return Err(format!("go: {key} must be at least {min}, got {value}"));
        }
        let value = value.max(0) as u64;
        match (key.as_str(), slot) {
            (_, Some(i)) => clock[i] = Some(value.min(MAX_MILLIS)),
            ("movetime", _) => limits.movetime = Some(Duration::from_millis(value.min(MAX_MILLIS))),
            ("nodes", _) => limits.nodes = Some(value),
            ("depth", _) => limits.depth = Some(u32::try_from(value).unwrap_or(u32::MAX)),
            _ => {} // movestogo: accepted for UCI clients, not used
        }
    }
    if clock.iter().any(Option::is_some) {
        let own = match side {
            Side::White => 0,
            Side::Black => 1,
        };
        if clock[own].is_none() {
            return Err(format!(
                "go: {side} is to move but no {} was given with the clock",
                ["wtime", "btime"][own]
            ));
        }
        let ms = |i: usize| Duration::from_millis(clock[i].unwrap_or(0));
        limits.clock = Some(Clock {
            wtime: ms(0),
            btime: ms(1),
            winc: ms(2),
            binc: ms(3),
        });
    }
    Ok(limits)
}

/// `position startpos [moves …]` / `position pos <string> [moves …]`
/// (the arguments after `position`): the position, every move checked.
pub(crate) fn parse_position(args: &[&str], variant: Variant) -> Result<Position, String> {
    let (mut pos, rest) = match args.first().map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("startpos") => (Position::new(variant), &args[1..]),
        Some("pos") => {
            let Some(text) = args.get(1) else {
                return Err("position pos: expected a position string".into());
            };
            let pos = Position::from_position_string(text)
                .map_err(|e| format!("position: {}", clip(&e.to_string(), 200)))?;
            (pos, &args[2..])
        }
        Some(_) => {
            return Err(format!(
                "position: expected `startpos` or `pos <position string>`, got `{}`",
                clip(args[0], 40)
            ))
        }
        None => return Err("position: expected `startpos` or `pos <position string>`".into()),
    };
    let moves = match rest.split_first() {
        None => return Ok(pos),
        Some((word, moves)) if word.eq_ignore_ascii_case("moves") => moves,
        Some((word, _)) => {
            return Err(format!(
                "position: expected `moves` after the start position, got `{}`",
                clip(word, 40)
            ))
        }
    };
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let mv: punct_core::Move = text.parse().map_err(|e: punct_core::ParseMoveError| {
            format!(
                "position: move {ply}: `{}` is not a move: {}",
                clip(text, 40),
                e.reason
            )
        })?;
        pos.play(mv)
            .map_err(|e| format!("position: move {ply}: `{mv}` is illegal: {e}"))?;
    }
    Ok(pos)
}

/// `setoption name <N> value <V>`: the name (words joined by one space) and
/// the value (verbatim, trimmed; empty when `value` ends the line).
pub(crate) fn parse_setoption(
    line: &str,
    args: &[(usize, &str)],
) -> Result<(String, String), String> {
    const FORM: &str = "setoption: expected `setoption name <name> value <value>`";
    match args.first() {
        Some((_, w)) if w.eq_ignore_ascii_case("name") => {}
        _ => return Err(FORM.into()),
    }
    let Some(v) = args
        .iter()
        .position(|(_, w)| w.eq_ignore_ascii_case("value"))
    else {
        return Err(FORM.into());
    };
    let name: Vec<&str> = args[1..v].iter().map(|(_, w)| *w).collect();
    if name.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    let (at, word) = args[v];
    let value = line[at + word.len()..].trim();
    Ok((name.join(" "), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Move;

    #[test]
    fn go_reads_every_limit_and_refuses_bad_ones() {
        let l = parse_go(
            &["movetime", "250", "nodes", "1000", "depth", "3"],
            Side::White,
        )
        .unwrap();
        assert_eq!(l.movetime, Some(Duration::from_millis(250)));
        assert_eq!(l.nodes, Some(1000));
        assert_eq!(l.depth, Some(3));
        assert!(!l.infinite && l.clock.is_none());
        let l = parse_go(
            &[
                "wtime",
                "-5",
                "btime",
                "9000",
                "binc",
                "100",
                "movestogo",
                "7",
                "infinite",
            ],
            Side::Black,
        )
        .unwrap();
        assert!(l.infinite);
        let c = l.clock.unwrap();
        assert_eq!(
            (c.wtime, c.btime, c.winc, c.binc),
            (
                Duration::ZERO,
                Duration::from_millis(9000),
                Duration::ZERO,
                Duration::from_millis(100)
            )
        );
        assert_eq!(parse_go(&[], Side::White).unwrap(), Limits::default());
        let huge = parse_go(&["movetime", "9223372036854775807"], Side::White).unwrap();
        assert_eq!(huge.movetime, Some(Duration::from_millis(MAX_MILLIS)));
        for (args, needle) in [
            (&["nodes"][..], "needs a value"),
            (&["nodes", "x"][..], "whole number"),
            (&["depth", "0"][..], "at least 1"),
            (&["movetime", "-1"][..], "at least 1"),
            (&["winc", "-1"][..], "at least 0"),
            (&["ponder"][..], "unknown limit `ponder`"),
            (&["nodes", "99999999999999999999"][..], "whole number"),
            (&["btime", "100"][..], "no wtime"),
        ] {
            let e = parse_go(args, Side::White).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }

    #[test]
    fn info_lines_have_the_documented_form() {
        let pv: Vec<Move> = vec!["C@B7/2".parse().unwrap(), "R@F2/0".parse().unwrap()];
        let info = Info {
            multipv: 1,
            depth: 2,
            score: Score::Eval(-35),
            nodes: 5000,
            elapsed: Duration::from_millis(250),
            pv,
        };
        assert_eq!(
            format_info(&info),
            "info depth 2 score cp -35 nodes 5000 nps 20000 time 250 pv C@B7/2 R@F2/0"
        );
        let bare = Info {
            multipv: 1,
            pv: vec![],
            elapsed: Duration::ZERO,
            score: Score::Win(3),
            ..info
        };
        assert_eq!(
            format_info(&bare),
            "info depth 2 score win 3 nodes 5000 nps 0 time 0"
        );
    }

    #[test]
    fn setoption_names_may_have_spaces_and_values_are_verbatim() {
        let line = "setoption  name Skill   Level value  a  b ";
        let t = tokens(line);
        assert_eq!(
            parse_setoption(line, &t[1..]).unwrap(),
            ("Skill Level".to_string(), "a  b".to_string())
        );
        let line = "setoption name Log File value";
        let t = tokens(line);
        assert_eq!(
            parse_setoption(line, &t[1..]).unwrap(),
            ("Log File".to_string(), String::new())
        );
        for line in [
            "setoption",
            "setoption name X",
            "setoption value 3",
            "setoption name value 3",
        ] {
            let t = tokens(line);
            assert!(parse_setoption(line, &t[1..]).is_err(), "{line}");
        }
    }

    #[test]
    fn clip_counts_characters_not_bytes() {
        assert_eq!(clip("ÜÜÜ", 2), "ÜÜ…");
        assert_eq!(clip("ab", 2), "ab");
    }
}
