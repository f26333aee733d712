//! Fuzzing the text parsers: moves, move lists, position strings and game
//! records must never panic, whatever they are fed (arbitrary strings,
//! lossily decoded bytes, and valid inputs with characters inserted, deleted
//! or replaced). What they accept must round-trip. Hand-written bad position
//! strings must be refused with an error that names the offending part.
//!
//! Case counts are tuned for an unoptimised build; set `PROPTEST_CASES` to
//! override every one of them.

use proptest::prelude::*;
use proptest::sample::Index;
use punct_core::{parse_moves, Game, Move, Position, Record, RecordError, Variant};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::str::FromStr;
use std::sync::OnceLock;

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn config(default_cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default_cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ------------------------------------------------------------ the corpus

/// An opening from the public differential cases (reaches stacks later).
const OPENING: &str = "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 \
     L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4";

/// Valid inputs to mutate, built once from deterministic games.
struct Corpus {
    moves: Vec<String>,
    positions: Vec<String>,
    records: Vec<String>,
}

/// A deterministic game that prefers relocations onto occupied cells, so
/// that its positions have stacks and bridges.
fn climbing_game(seed: u64, variant: Variant, plies: usize) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(variant);
    for _ in 0..plies {
        let pos = game.position();
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let climbs: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| matches!(*m, Move::Relocate { to, .. } if pos.height(to) > 0))
            .collect();
        let mv = if !climbs.is_empty() && rng.random_bool(0.85) {
            *climbs.choose(&mut rng).unwrap()
        } else {
            *legal.choose(&mut rng).unwrap()
        };
        game.play(mv).unwrap();
    }
    game
}

/// A game played to its end by uniformly random moves.
fn finished_game(seed: u64, variant: Variant) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(variant);
    for _ in 0..400 {
        let legal = game.position().legal_moves();
        let Some(&mv) = legal.choose(&mut rng) else {
            break;
        };
        game.play(mv).unwrap();
    }
    assert!(game.position().status().is_over());
    game
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut rng = StdRng::seed_from_u64(7);
        let climbing = climbing_game(3, Variant::Standard, 120);
        let basic = climbing_game(4, Variant::Basic, 30);
        let finished = finished_game(5, Variant::Standard);

        let mut moves: Vec<String> = [
            "E@C5/2",
            "G5-G9/4",
            "G5-G5/3",
            "pass",
            "T@Q16/5",
            "c@b7/2",
            " i15-i12/4 ",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut positions = vec![Position::new(Variant::Basic).to_position_string()];
        let mut replay = Game::new(Variant::Standard);
        for (i, mv) in climbing.moves().enumerate() {
            replay.play(mv).unwrap();
            if i % 6 == 5 {
                positions.push(replay.position().to_position_string());
                let legal = replay.position().legal_moves();
                moves.extend(legal.choose_multiple(&mut rng, 6).map(|m| m.to_string()));
            }
        }
        positions.push(basic.position().to_position_string());
        positions.push(finished.position().to_position_string());

        // A mid-game start with Black to move, for a `Position` tag.
        let mid = {
            let mut g = Game::new(Variant::Standard);
            for mv in parse_moves(OPENING).unwrap().into_iter().take(7) {
                g.play(mv).unwrap();
            }
            let tail: Vec<Move> = parse_moves(OPENING).unwrap().split_off(7);
            Game::replay(g.position().clone(), &tail).unwrap()
        };
        let mut records: Vec<String> = [&climbing, &basic, &finished, &mid]
            .iter()
            .map(|g| Record::from_game(g, &[("White", "Ann \"A\""), ("Black", "B\\b")]).to_text())
            .collect();
        records.push(
            "[Event \"Hand written\"]\n[Variant \"standard\"]\n[Result \"*\"]\n\n\
             1. C@B7/2 {a comment} R@F2/0 ; to the end of the line\n\
             2.C@P15/2 L@E4/2 {a comment\nover two lines} 3. R@L13/1\n3... M@F7/0 *\n"
                .to_string(),
        );
        Corpus {
            moves,
            positions,
            records,
        }
    })
}

// -------------------------------------------------------------- mutation

/// Characters that matter to the parsers, to make mutations interesting.
const ALPHABET: &[char] = &[
    'A', 'B', 'C', 'E', 'I', 'L', 'M', 'Q', 'R', 'T', 'Z', 'a', 'b', 'c', 'e', 'p', 'q', 'r', 's',
    't', 'w', 'x', '0', '1', '2', '3', '5', '6', '7', '9', '@', '/', '-', '^', ':', ',', '.', '[',
    ']', '"', '\\', '{', '}', ';', '*', '+', ' ', '\n', '\t', '\r', 'Ü', '\u{0}', '\u{2028}',
];

#[derive(Clone, Debug)]
enum Edit {
    Insert(Index, char),
    Delete(Index),
    Replace(Index, char),
}

fn char_strategy() -> impl Strategy<Value = char> {
    prop_oneof![
        8 => proptest::sample::select(ALPHABET),
        2 => any::<char>(),
    ]
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), char_strategy()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<Index>().prop_map(Edit::Delete),
        (any::<Index>(), char_strategy()).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

fn apply_edits(base: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for e in edits {
        match *e {
            Edit::Insert(ref i, c) => {
                let at = i.index(chars.len() + 1);
                chars.insert(at, c);
            }
            Edit::Delete(ref i) if !chars.is_empty() => {
                let at = i.index(chars.len());
                chars.remove(at);
            }
            Edit::Replace(ref i, c) if !chars.is_empty() => {
                let at = i.index(chars.len());
                chars[at] = c;
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// A valid input from `pick` with one to `max_edits` random edits.
fn mutated(pick: fn(&Corpus) -> &Vec<String>, max_edits: usize) -> impl Strategy<Value = String> {
    (
        proptest::sample::select(pick(corpus()).clone()),
        proptest::collection::vec(edit_strategy(), 1..=max_edits),
    )
        .prop_map(|(base, edits)| apply_edits(&base, &edits))
}

/// One field of a position string's piece token changed to a random value
/// (mostly in range), a piece dropped, duplicated or moved up a level: the
/// result is often accepted, which exercises the stacking validator.
fn structured_position() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(corpus().positions.clone()),
        proptest::collection::vec((0..8u8, any::<Index>(), 0..17u8, 0..19u8, 0..7u8), 1..=3),
    )
        .prop_map(|(base, edits)| {
            let (head, pieces) = base.rsplit_once(':').unwrap();
            let mut tokens: Vec<String> = if pieces == "-" {
                Vec::new()
            } else {
                pieces.split(',').map(str::to_string).collect()
            };
            for (op, at, a, b, c) in edits {
                if tokens.is_empty() {
                    tokens.push("wT@C5/0".into());
                }
                let i = at.index(tokens.len());
                let t = tokens[i].clone();
                let (body, level) = match t.split_once('^') {
                    Some((b, l)) => (b.to_string(), l.parse::<u8>().unwrap()),
                    None => (t.clone(), 0),
                };
                let (piece, rot) = body.split_once('/').unwrap();
                let (sk, cell) = piece.split_once('@').unwrap();
                let with = |sk: &str, cell: &str, rot: &str, level: u8| {
                    if level == 0 {
                        format!("{sk}@{cell}/{rot}")
                    } else {
                        format!("{sk}@{cell}/{rot}^{level}")
                    }
                };
                let new = match op {
                    0 => with(sk, cell, &(c % 6).to_string(), level),
                    1 => with(sk, cell, rot, c % 5),
                    2 => with(sk, &format!("{}{}", (b'A' + a) as char, b), rot, level),
                    3 => with(
                        &sk.replace('w', "x").replace('b', "w").replace('x', "b"),
                        cell,
                        rot,
                        level,
                    ),
                    4 => with(
                        &format!(
                            "{}{}",
                            &sk[..1],
                            ["T", "C", "E", "L", "M", "R"][c as usize % 6]
                        ),
                        cell,
                        rot,
                        level,
                    ),
                    5 => {
                        tokens.remove(i);
                        continue;
                    }
                    6 => {
                        tokens.push(t.clone());
                        continue;
                    }
                    _ => with(sk, cell, rot, level + 1),
                };
                tokens[i] = new;
            }
            if tokens.is_empty() {
                format!("{head}:-")
            } else {
                format!("{head}:{}", tokens.join(","))
            }
        })
}

/// Move-shaped text with random fields, some out of range.
fn structured_move() -> impl Strategy<Value = String> {
    let kind = proptest::sample::select(vec!["T", "C", "E", "L", "M", "R", "t", "X", "", "TT"]);
    let cell = (0..19u8, 0..20u8, any::<bool>()).prop_map(|(c, r, lower)| {
        let letter = (if lower { b'a' } else { b'A' } + c) as char;
        format!("{letter}{r}")
    });
    let rot = prop_oneof![
        (0..8u8).prop_map(|r| r.to_string()),
        Just(String::new()),
        Just("05".into())
    ];
    prop_oneof![
        (kind, cell.clone(), rot.clone()).prop_map(|(k, c, r)| format!("{k}@{c}/{r}")),
        (cell.clone(), cell, rot).prop_map(|(a, b, r)| format!("{a}-{b}/{r}")),
        proptest::sample::select(vec![
            "pass", "PASS", "Pass ", "pas", "passs", "-/", "@/", "/"
        ])
        .prop_map(str::to_string),
    ]
}

/// Arbitrary text: any string, a regex `.*` string, or bytes decoded lossily.
fn arbitrary_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        ".*",
        proptest::collection::vec(any::<u8>(), 0..64)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

// ------------------------------------------------------ what is checked

fn fuzz_move(text: &str) {
    if let Ok(mv) = Move::from_str(text) {
        let canonical = mv.to_string();
        assert_eq!(
            canonical.parse::<Move>().ok(),
            Some(mv),
            "`{text}` → `{canonical}`"
        );
    }
}

fn fuzz_move_list(text: &str) {
    match parse_moves(text) {
        Ok(moves) => {
            assert_eq!(moves.len(), text.split_whitespace().count());
            let joined: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            assert_eq!(parse_moves(&joined.join(" ")).ok(), Some(moves));
        }
        Err((i, e)) => {
            assert!(i >= 1 && i <= text.split_whitespace().count(), "index {i}");
            assert!(!e.reason.is_empty());
        }
    }
}

fn fuzz_position(text: &str) {
    if let Ok(pos) = Position::from_position_string(text) {
        pos.verify_incremental()
            .unwrap_or_else(|e| panic!("accepted `{text}` is inconsistent: {e}"));
        let canonical = pos.to_position_string();
        let back = Position::from_position_string(&canonical)
            .unwrap_or_else(|e| panic!("`{text}` → `{canonical}` does not parse: {e}"));
        assert_eq!(back, pos, "`{text}` → `{canonical}`");
        assert_eq!(back.hash(), pos.hash());
        assert_eq!(back.to_position_string(), canonical);
        assert_eq!(pos.count_legal(), pos.legal_moves().len() as u64);
    }
}

fn fuzz_record(text: &str) {
    let Ok(rec) = Record::parse(text) else {
        return;
    };
    let start = rec.start_position();
    // Every parsed record writes itself back faithfully, usable start or not.
    let again = rec.to_text();
    let back = Record::parse(&again)
        .unwrap_or_else(|e| panic!("to_text of a parsed record does not parse: {e}\n{again}"));
    assert_eq!(back, rec, "\n{again}");
    match rec.replay() {
        Ok(game) => {
            assert!(start.is_ok());
            assert_eq!(game.len(), rec.moves.len());
            game.position().verify_incremental().unwrap();
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fn fuzz_all(text: &str) {
    fuzz_move(text);
    fuzz_move_list(text);
    fuzz_position(text);
    fuzz_record(text);
}

// ------------------------------------------------------------ the fuzzers

proptest! {
    #![proptest_config(config(4000))]

    #[test]
    fn arbitrary_text_never_panics(text in arbitrary_text()) {
        fuzz_all(&text);
    }

    #[test]
    fn mutated_moves_never_panic(text in mutated(|c| &c.moves, 3)) {
        fuzz_move(&text);
        fuzz_move_list(&text);
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn structured_moves_never_panic(text in structured_move()) {
        fuzz_move(&text);
        fuzz_move_list(&format!("{text} {text}"));
    }

    #[test]
    fn structured_position_strings_never_panic(text in structured_position()) {
        fuzz_position(&text);
    }

    #[test]
    fn mutated_move_lists_never_panic(text in mutated(|c| &c.records, 6)) {
        // Record move text is a good source of move lists with junk in them.
        fuzz_move_list(&text);
    }

    #[test]
    fn mutated_position_strings_never_panic(text in mutated(|c| &c.positions, 4)) {
        fuzz_position(&text);
        fuzz_record(&format!("[Position \"{text}\"]\n\n*\n"));
    }
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn mutated_records_never_panic(text in mutated(|c| &c.records, 6)) {
        fuzz_record(&text);
    }
}

/// The corpus is valid before mutation (so the mutations start from inputs
/// that exercise the deep paths, not just the first check).
#[test]
fn corpus_is_valid() {
    let c = corpus();
    assert!(c.moves.len() > 50 && c.positions.len() > 15 && c.records.len() == 5);
    for m in &c.moves {
        m.parse::<Move>().unwrap();
    }
    let mut stacked = false;
    for p in &c.positions {
        let pos = Position::from_position_string(p).unwrap();
        stacked |= pos.pieces().iter().any(|p| p.placement.level >= 2);
    }
    assert!(stacked, "the corpus should contain stacks");
    for r in &c.records {
        let rec = Record::parse(r).unwrap_or_else(|e| panic!("{e}\n{r}"));
        rec.replay().unwrap_or_else(|e| panic!("{e}\n{r}"));
    }
}

// ------------------------------------------------- hand-written rejections

/// `text` must be refused with a message containing every one of `needles`.
#[track_caller]
fn refused(text: &str, needles: &[&str]) {
    let err = match Position::from_position_string(text) {
        Ok(p) => panic!("`{text}` was accepted as {p:?}"),
        Err(e) => e.to_string(),
    };
    for n in needles {
        assert!(
            err.contains(n),
            "the error for `{text}` should mention `{n}`: {err}"
        );
    }
}

#[track_caller]
fn accepted(text: &str) -> Position {
    let pos = Position::from_position_string(text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    pos.verify_incremental().unwrap();
    pos
}

#[test]
fn floating_pieces_are_refused() {
    refused("standard:w:0:wT@C5/0^1", &["wT@C5/0^1", "float"]);
    // Resting on one dot of height 1 but declared at level 2.
    refused("standard:w:0:wT@C5/0,wT@C5/0^2", &["wT@C5/0^2", "float"]);
    // A bridge needs both ends at the top height: here one end is empty.
    refused(
        "standard:w:0:wT@C5/2,wE@C5/0^1",
        &["wE@C5/0^1", "not supported"],
    );
    // A triangle never bridges.
    refused(
        "standard:w:0:wT@C5/2,bT@C3/0,wT@C5/0^1",
        &["wT@C5/0^1", "not supported"],
    );
}

#[test]
fn overlapping_dots_are_refused() {
    refused(
        "standard:w:0:wT@C5/0,bT@C5/1",
        &["bT@C5/1", "C5", "overlap"],
    );
    // Same cell at the same level, the overlap on a minor dot (C4).
    refused("standard:w:0:wT@C5/0,bE@C4/0", &["C4", "overlap"]);
    // Overlaps at level 1 too.
    refused(
        "standard:w:0:wT@C5/0,bT@E5/0,wT@C5/0^1,wC@C4/0^1",
        &["wC@C4/0^1", "overlap"],
    );
}

#[test]
fn too_many_pieces_of_a_kind_are_refused() {
    refused(
        "standard:w:0:wC@B7/2,wC@P15/2,wC@E4/0",
        &["white", "3 C pieces", "only 2"],
    );
    let seven_t = "wT@B3/0,wT@B6/0,wT@E3/0,wT@E6/0,wT@N12/0,wT@N15/0,wT@K14/0";
    refused(
        &format!("standard:b:0:{seven_t}"),
        &["white", "7 T pieces", "only 6"],
    );
    refused(
        "basic:w:0:bM@C5/0,bM@F3/0,bM@N14/0",
        &["black", "3 M pieces"],
    );
}

#[test]
fn a_punct_on_the_opponents_colour_is_refused() {
    // Flat on a White triangle.
    refused(
        "standard:w:0:wT@C5/0,bT@C5/0^1",
        &["bT@C5/0^1", "C5", "own colour", "white"],
    );
    // The same stack with matching colours is fine.
    let ok = accepted("standard:w:0:wT@C5/0,wT@C5/0^1");
    assert_eq!(ok.height("C5".parse().unwrap()), 2);
    // A bridge whose PÜNCT end rests on Black.
    refused(
        "standard:w:0:bT@C5/2,bT@C3/0,wE@C5/0^1",
        &["wE@C5/0^1", "own colour"],
    );
    // The same bridge over White is fine, and it is a bridge (C4 is empty).
    let bridge = accepted("standard:w:0:wT@C5/2,bT@C3/0,wE@C5/0^1");
    assert_eq!(bridge.height("C4".parse().unwrap()), 2);
    assert_eq!(bridge.stack("C4".parse().unwrap()).len(), 1);
    // A C bridged over an empty PÜNCT cell: nothing of its own colour below.
    // C@D5/0 has dots D5, D4, D6; D4 and D6 are held up, D5 is empty.
    refused(
        "standard:w:0:wE@D4/0,wE@D6/3,wC@D5/0^1",
        &["wC@D5/0^1", "own colour", "nothing"],
    );
}

#[test]
fn off_board_dots_are_refused() {
    refused("standard:w:0:wE@A2/0", &["wE@A2/0", "off the board"]);
    refused("standard:w:0:bT@Q16/3", &["bT@Q16/3", "off the board"]);
    // A PÜNCT cell that is not on the board at all.
    refused("standard:w:0:wT@A1/3", &["piece 1", "wT@A1/3", "A1"]);
    refused("standard:w:0:wT@R5/0", &["wT@R5/0", "R5"]);
    refused("standard:w:0:wT@C18/0", &["wT@C18/0", "C18"]);
    refused("standard:w:0:wE@C5/2,wT@C0/0", &["piece 2", "wT@C0/0"]);
}

#[test]
fn bad_rotations_are_refused() {
    refused("standard:w:0:wT@C5/6", &["wT@C5/6", "rotation"]);
    refused("standard:w:0:wT@C5/-1", &["wT@C5/-1", "rotation"]);
    refused("standard:w:0:wT@C5/", &["wT@C5/", "rotation"]);
    refused("standard:w:0:wT@C5/12", &["wT@C5/12", "rotation"]);
    refused("standard:w:0:wT@C5", &["wT@C5", "rotation"]);
    // C pieces have rotations 0–2 only.
    refused("standard:w:0:wC@E5/3", &["wC@E5/3", "rotations 0–2"]);
}

#[test]
fn bad_levels_are_refused() {
    for level in ["0", "x", "", "-1", "+1", "36", "256", "1.5", " 1"] {
        let token = format!("wT@C5/0^{level}");
        refused(
            &format!("standard:w:0:wT@C5/0,{token}"),
            &["piece 2", &token, "level"],
        );
    }
    refused("standard:w:0:wT@C5/0^1^1", &["wT@C5/0^1^1", "level"]);
}

#[test]
fn bad_fields_are_refused() {
    refused("standard:w:0", &["4 fields", "found 3"]);
    refused("standard:w:0:-:-", &["4 fields", "found 5"]);
    refused("", &["4 fields", "found 1"]);
    refused("chess:w:0:-", &["chess", "variant"]);
    refused("standard:x:0:-", &["side to move", "`x`"]);
    refused("standard:white:0:-", &["side to move", "`white`"]);
    refused("standard::0:-", &["side to move"]);
    refused("standard:w:3:-", &["passes", "`3`"]);
    refused("standard:w:-1:-", &["passes", "`-1`"]);
    refused("standard:w::-", &["passes"]);
    refused("standard:w:0:", &["piece 1"]);
    refused("standard:w:0:wT@C5/0,", &["piece 2"]);
    refused("standard:w:0:xT@C5/0", &["xT@C5/0", "`w` or `b`"]);
    refused("standard:w:0:wX@C5/0", &["wX@C5/0", "kind"]);
    refused("standard:w:0:wTC5/0", &["wTC5/0", "`@`"]);
    refused("standard:w:0:wT@C5/0 wT@E5/0", &["wT@C5/0 wT@E5/0"]);
}

#[test]
fn valid_position_strings_are_accepted_in_any_case_and_order() {
    let a = accepted("standard:w:0:wC@B7/2,bR@F2/0");
    let b = accepted(" STANDARD:W:0:br@f2/0,WC@b7/2 ");
    assert_eq!(a, b);
    assert_eq!(b.to_position_string(), "standard:w:0:wC@B7/2,bR@F2/0");
    // Pieces may be listed in any order: the upper one first here.
    let c = accepted("basic:b:1:wT@C5/0^1,wT@C5/0");
    assert_eq!(c.to_position_string(), "basic:b:1:wT@C5/0,wT@C5/0^1");
    assert_eq!(c.passes(), 1);
    assert_eq!(accepted("basic:w:0:-"), Position::new(Variant::Basic));
}

#[test]
fn bad_records_are_refused_with_a_line_or_move() {
    let cases: &[(&str, &str)] = &[
        ("1. C@B7/2", "result"),
        ("1. C@B7/2 {open comment *", "comment"),
        ("1. C@B7/2 * R@F2/0", "after the result"),
        ("2. C@B7/2 *", "should be 1"),
        ("1... C@B7/2 *", "White's move"),
        ("1. C@B7/2 1. R@F2/0 *", "Black's move"),
        ("1. C@B7/2\n[Event \"late\"]\n*", "line 2"),
        ("[Event late]\n*", "double quotes"),
        ("[Ev ent \"x\"]\n*", "double quotes"),
        ("[Event \"a\\x\"]\n*", "`\\`"),
        ("1. C@B7/7 *", "C@B7/7"),
        ("1. X@B7/2 *", "X@B7/2"),
        ("1.. C@B7/2 *", "`.` or `...`"),
    ];
    for (text, needle) in cases {
        match Record::parse(text) {
            Ok(r) => panic!("`{text}` parsed as {r:?}"),
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.contains("line "), "{msg}");
                assert!(msg.contains(needle), "`{text}`: `{msg}` lacks `{needle}`");
            }
        }
    }
    // Syntactically fine, but illegal or inconsistent on replay.
    let replay_cases: &[(&str, &[&str])] = &[
        ("1. I9@C5/2 *", &["I9@C5/2"]),
        ("1. C@I9/0 *", &["move 1", "white", "C@I9/0", "central"]),
        ("1. C@B7/2 C@B7/2 *", &["move 1", "black", "occupied"]),
        ("1. C@B7/2 R@F2/0 2. pass *", &["move 2", "white", "pass"]),
        ("[Variant \"chess\"]\n\n*", &["Variant"]),
        (
            "[Position \"standard:w:0:wE@A2/0\"]\n\n*",
            &["Position", "wE@A2/0"],
        ),
        (
            "[Variant \"basic\"]\n[Position \"standard:w:0:-\"]\n\n*",
            &["basic", "standard"],
        ),
        ("[Result \"1-0\"]\n\n1. C@B7/2 *", &["Result", "1-0"]),
    ];
    for (text, needles) in replay_cases {
        let msg = match Record::parse(text) {
            Err(e) => e.to_string(),
            Ok(rec) => match rec.replay() {
                Ok(_) => panic!("`{text}` replayed"),
                Err(e) => e.to_string(),
            },
        };
        for n in needles.iter() {
            assert!(msg.contains(n), "`{text}`: `{msg}` lacks `{n}`");
        }
    }
}

// ------------------------------------------------------------ tag values

/// A short game that ends with Black to move, for record tests.
fn short_game() -> Game {
    let mut game = Game::new(Variant::Standard);
    for mv in parse_moves(OPENING).unwrap().into_iter().take(5) {
        game.play(mv).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(config(1000))]

    /// Any tag value without a line break survives `to_text` and `parse`.
    #[test]
    fn record_tag_values_round_trip(white in "[^\n]*", note in "[^\n]*") {
        let game = short_game();
        let rec = Record::from_game(&game, &[("White", &white), ("Annotator", &note)]);
        let text = rec.to_text();
        let back = Record::parse(&text);
        prop_assert_eq!(back.as_ref(), Ok(&rec), "{:?}", text);
        let replayed = back.unwrap().replay().unwrap();
        prop_assert_eq!(replayed.position(), game.position());
    }
}

#[test]
fn tag_values_with_a_line_break_round_trip() {
    let rec = Record::from_game(&short_game(), &[("Event", "first line\nsecond line")]);
    let text = rec.to_text();
    assert_eq!(Record::parse(&text), Ok(rec), "{text}");
}

#[test]
fn records_with_a_repeated_tag_are_refused() {
    // Two `Position` tags could disagree on who moves first.
    let text = "[Position \"standard:w:0:-\"]\n[position \"standard:b:0:-\"]\n\n1... C@B7/2 *\n";
    match Record::parse(text) {
        Err(RecordError::Syntax { line, message }) => {
            assert_eq!(line, 2);
            assert!(message.contains("appears twice"), "{message}");
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn records_with_an_unusable_start_write_text_that_parses() {
    for text in [
        "[Position \"x:b\"]\n\n1... C@B7/2 *\n",
        "[Variant \"basic\"]\n[Position \"standard:b:0:-\"]\n\n1... C@B7/2 *\n",
    ] {
        let rec = Record::parse(text).unwrap();
        assert!(rec.start_position().is_err());
        let again = rec.to_text();
        assert_eq!(Record::parse(&again), Ok(rec), "{again}");
    }
}
