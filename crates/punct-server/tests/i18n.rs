//! The page's languages (web/i18n.js, web/i18n/<lang>.json): every
//! catalogue is well formed, every key the page asks for has an English
//! text and every English text is asked for, every code the server sends
//! a player (errors, illegal moves' reasons, notices) has a text, and —
//! once the translations are written — every language has every text.

use punct_core::IllegalMove;
use punct_server::Notice;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LANGS: [&str; 4] = ["en", "de", "ja", "sk"];

/// Keys the page builds at run time from a prefix and a value (a side, a
/// kind, an error's code, …): an English key under one of these counts as
/// used. Prefixes written in a template literal (`` t(`kind.${k}`) ``) are
/// found in the scripts as well; everything else must appear literally.
const DYNAMIC: [&str; 7] = [
    "error.",       // i18n.js errorText: error.<code>[.<side>]
    "illegal.",     // i18n.js errorText: illegal.<reason>[.<side>]
    "side.",        // dom.js sideName
    "kind.",        // playerbar.js kindName
    "edge.",        // dom.js edgeName (EDGE_KEYS lists them too)
    "nav.",         // nav.js: nav.<screen>
    "game.notice.", // game.js noticeText: game.notice.<code>[.<side>]
];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn catalogue(lang: &str) -> Map<String, Value> {
    let path = web().join("i18n").join(format!("{lang}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => map,
        Ok(other) => panic!("{path:?} is not a JSON object: {other}"),
        Err(e) => panic!("{path:?}: {e}"),
    }
}

/// The plural forms a language must have (Intl.PluralRules), and those it may.
fn plural_forms(lang: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match lang {
        "ja" => (&["other"], &["other"]),
        "sk" => (&["one", "few", "other"], &["one", "few", "many", "other"]),
        _ => (&["one", "other"], &["one", "other"]),
    }
}

/// The `{name}` placeholders of a text.
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close)
                if close > 0
                    && after[..close]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                found.insert(after[..close].to_string());
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    found
}

/// The placeholders of an entry (a plural object's: those of all its forms).
fn entry_placeholders(value: &Value) -> BTreeSet<String> {
    match value {
        Value::String(s) => placeholders(s),
        Value::Object(forms) => forms
            .values()
            .filter_map(Value::as_str)
            .flat_map(placeholders)
            .collect(),
        _ => BTreeSet::new(),
    }
}

/// What is wrong with `value` as an entry of `lang`'s catalogue.
fn entry_problem(lang: &str, value: &Value) -> Option<String> {
    match value {
        Value::String(s) if s.is_empty() => Some("an empty text".into()),
        Value::String(_) => None,
        Value::Object(forms) => {
            let (needed, allowed) = plural_forms(lang);
            for f in needed {
                if !forms.contains_key(*f) {
                    return Some(format!("no plural form {f:?}"));
                }
            }
            for (f, text) in forms {
                if !allowed.contains(&f.as_str()) {
                    return Some(format!("the plural form {f:?} is not one of {allowed:?}"));
                }
                if text.as_str().is_none_or(str::is_empty) {
                    return Some(format!("the plural form {f:?} is not a text"));
                }
            }
            None
        }
        other => Some(format!("neither a text nor plural forms: {other}")),
    }
}

/// A key given twice in a catalogue: JSON readers keep one text silently
/// (merging two branches that each added a key once left 40 such).
#[test]
fn no_catalogue_gives_a_key_twice() {
    for lang in LANGS {
        let path = web().join("i18n").join(format!("{lang}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        // Written one entry a line, each line starting with its key.
        let mut seen = BTreeSet::new();
        let twice: Vec<&str> = text
            .lines()
            .filter_map(|line| line.strip_prefix(" \""))
            .filter_map(|rest| rest.split_once("\":").map(|(key, _)| key))
            .filter(|key| !seen.insert(*key))
            .collect();
        assert!(
            twice.is_empty(),
            "{lang}.json gives these keys twice: {twice:?}"
        );
        assert_eq!(
            seen.len(),
            catalogue(lang).len(),
            "{lang}.json: one entry a line"
        );
    }
}

#[test]
fn every_catalogue_is_well_formed_and_matches_the_english_placeholders() {
    let en = catalogue("en");
    assert!(!en.is_empty(), "the English catalogue is empty");
    let mut problems = Vec::new();
    for lang in LANGS {
        for (key, value) in &catalogue(lang) {
            if let Some(p) = entry_problem(lang, value) {
                problems.push(format!("{lang}: {key}: {p}"));
            }
            let Some(english) = en.get(key) else {
                problems.push(format!("{lang}: {key} is not in the English catalogue"));
                continue;
            };
            let (want, got) = (entry_placeholders(english), entry_placeholders(value));
            if want != got {
                problems.push(format!(
                    "{lang}: {key} has the placeholders {got:?}, English {want:?}"
                ));
            }
            // A text chosen by number needs the number to choose by.
            if value.is_object() && !english.is_object() {
                problems.push(format!("{lang}: {key} has plural forms, English has none"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_language_has_every_text() {
    let en = catalogue("en");
    let mut missing = BTreeMap::new();
    for lang in LANGS.into_iter().filter(|l| *l != "en") {
        let cat = catalogue(lang);
        // Missing texts, and texts English no longer has (left over).
        let gaps: Vec<String> = en
            .keys()
            .filter(|k| !cat.contains_key(*k))
            .chain(cat.keys().filter(|k| !en.contains_key(*k)))
            .cloned()
            .collect();
        if !gaps.is_empty() {
            missing.insert(lang, gaps);
        }
    }
    assert!(
        missing.is_empty(),
        "texts missing or left over: {}",
        missing
            .iter()
            .map(|(l, keys)| format!("{l}: {} ({:?}…)", keys.len(), &keys[..keys.len().min(5)]))
            .collect::<Vec<_>>()
            .join("; ")
    );
}

/// Whether `key` has a text: its own, or one per side (`key.white`, `key.black`).
fn has_text(en: &Map<String, Value>, key: &str) -> bool {
    en.contains_key(key)
        || (en.contains_key(&format!("{key}.white")) && en.contains_key(&format!("{key}.black")))
}

/// The page's scripts: file name → text (without whole-line comments).
fn scripts() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(web()).expect("the web folder") {
        let path = entry.expect("a file").path();
        if path.extension().is_some_and(|e| e == "js") {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).expect("a script");
            // Whole-line comments quote texts and keys freely: left out.
            let code: Vec<&str> = text
                .lines()
                .filter(|l| {
                    let l = l.trim_start();
                    !(l.starts_with("//") || l.starts_with("/*") || l.starts_with('*'))
                })
                .collect();
            files.insert(name, code.join("\n"));
        }
    }
    assert!(files.contains_key("i18n.js"), "web/*.js found");
    files
}

/// A character of a key: keys are names joined by dots.
fn key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// Every quoted key-like string of a script under one of `areas`
/// ("game.x" or 'game.x'), also inside expressions such as
/// `t(touch ? "game.a" : "game.b")`.
fn quoted_keys(source: &str, areas: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for quote in ['"', '\'', '`'] {
        for (at, _) in source.match_indices(quote) {
            let rest = &source[at + 1..];
            if !areas.iter().any(|a| rest.starts_with(a)) {
                continue;
            }
            let key: String = rest.chars().take_while(|c| key_char(*c)).collect();
            if rest[key.len()..].starts_with(quote) {
                found.push(key);
            }
        }
    }
    found
}

/// The prefixes of keys built in template literals: `` `area.part.${ `` → "area.part.".
fn template_prefixes(source: &str, areas: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in source.match_indices('`') {
        let rest = &source[at + 1..];
        if !areas.iter().any(|a| rest.starts_with(a)) {
            continue;
        }
        let prefix: String = rest.chars().take_while(|c| key_char(*c)).collect();
        if rest[prefix.len()..].starts_with("${") {
            found.push(prefix);
        }
    }
    found
}

/// The keys asked for by name: `fun("key"` or `fun('key'`.
fn calls(source: &str, fun: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut rest = source;
    let open = format!("{fun}(");
    while let Some(at) = rest.find(&open) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + open.len()..];
        // A whole name: not `nameProblem(` for `t(`.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$') {
            continue;
        }
        let args = rest.trim_start();
        let Some(q) = args.chars().next().filter(|q| *q == '"' || *q == '\'') else {
            continue;
        };
        // A key is names and dots (a comment's `t("a11y.keys.<id>")` is not one).
        let key: String = args[1..].chars().take_while(|c| key_char(*c)).collect();
        if args[1 + key.len()..].starts_with(q) {
            keys.push(key);
        }
    }
    keys
}

#[test]
fn the_page_asks_only_for_english_keys_and_every_english_key_is_asked_for() {
    let en = catalogue("en");
    let files = scripts();
    let mut problems = Vec::new();
    let mut quoted = BTreeSet::new();
    let mut built: BTreeSet<String> = DYNAMIC.iter().map(|p| p.to_string()).collect();
    for (name, source) in &files {
        for key in calls(source, "t")
            .into_iter()
            .chain(calls(source, "tNodes"))
        {
            if !en.contains_key(&key) {
                problems.push(format!("{name}: t({key:?}) has no English text"));
            }
            quoted.insert(key);
        }
        // A sentence naming a side: one text per side.
        for key in calls(source, "tSide") {
            for side in ["white", "black"] {
                if !en.contains_key(&format!("{key}.{side}")) {
                    problems.push(format!(
                        "{name}: tSide({key:?}) has no English {key}.{side}"
                    ));
                }
            }
            quoted.insert(key);
        }
        // Keys chosen in an expression (`t(x ? "a" : "b")`, `tSide(x ? …)`)
        // must exist too (in the areas of the play screens, whose scripts
        // quote no other dotted names).
        for key in quoted_keys(source, &["start.", "game.", "error.", "illegal."]) {
            if !has_text(&en, &key) {
                problems.push(format!(
                    "{name}: {key:?} reads like a key but has no English text"
                ));
            }
        }
        let areas: BTreeSet<String> = en
            .keys()
            .map(|k| format!("{}.", k.split('.').next().unwrap()))
            .collect();
        let areas: Vec<&str> = areas.iter().map(String::as_str).collect();
        quoted.extend(quoted_keys(source, &areas));
        built.extend(template_prefixes(source, &areas));
    }
    // The learning pages' judges (crate punct-learn) answer with message
    // codes that the page shows as they come: those are asked for too, and
    // must exist (as a key, or as the stem of a key per side).
    let learn = Path::new(env!("CARGO_MANIFEST_DIR")).join("../punct-learn/src");
    let judges = std::fs::read_dir(&learn).expect("punct-learn/src");
    let mut judged = 0;
    for entry in judges {
        let path = entry.expect("punct-learn/src entry").path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        judged += 1;
        let source = std::fs::read_to_string(&path).expect("a learn source");
        let keys = quoted_keys(&source, &["tutorial.", "puzzles."]);
        // (a file name such as "tutorial.rs" is not a code)
        for key in keys.into_iter().filter(|k| !k.ends_with(".rs")) {
            let per_side = en.contains_key(&format!("{key}.white"));
            if !en.contains_key(&key) && !per_side {
                problems.push(format!("{path:?}: the code {key:?} has no English text"));
            }
            quoted.insert(key);
        }
    }
    assert!(
        judged >= 3,
        "the judges' sources were not found in {learn:?}"
    );
    for key in en.keys() {
        let base = key
            .strip_suffix(".white")
            .or_else(|| key.strip_suffix(".black"))
            .unwrap_or(key);
        let used = quoted.contains(key)
            || quoted.contains(base)
            || built.iter().any(|prefix| key.starts_with(prefix.as_str()));
        if !used {
            problems.push(format!("{key} is in en.json but no script asks for it"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The codes of the `ApiError`s built in the server's source: the first
/// argument of `ApiError::<constructor>(…)` (the second of `new`) where it
/// is a literal.
fn error_codes() -> BTreeMap<String, String> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a source folder") {
            let path = entry.expect("a file").path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut codes = BTreeMap::new();
    for path in files {
        let source = std::fs::read_to_string(&path).expect("a source file");
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let mut rest = source.as_str();
        while let Some(at) = rest.find("ApiError::") {
            rest = &rest[at + "ApiError::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let Some(args) = rest[name.len()..].strip_prefix('(') else {
                continue;
            };
            if name == "internal" {
                codes.insert("internal".to_string(), file.clone());
                continue;
            }
            let args = if name == "new" {
                match args.find(',') {
                    Some(comma) => &args[comma + 1..],
                    None => continue,
                }
            } else {
                args
            };
            let args = args.trim_start();
            if let Some(lit) = args.strip_prefix('"') {
                if let Some(end) = lit.find('"') {
                    codes.insert(lit[..end].to_string(), file.clone());
                }
            }
        }
        // Answers written by hand (conn.rs) or mapped from a status (security.rs).
        for marker in ["\"code\": \"", "=> \"", "=> (\n            \""] {
            let mut rest = source.as_str();
            while let Some(at) = rest.find(marker) {
                rest = &rest[at + marker.len()..];
                let code: String = rest.chars().take_while(|c| *c != '"').collect();
                if (file == "conn.rs" || file == "security.rs")
                    && !code.is_empty()
                    && code.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                {
                    codes.insert(code, file.clone());
                }
            }
        }
    }
    codes
}

#[test]
fn every_code_the_server_sends_a_player_has_an_english_text() {
    let en = catalogue("en");
    let has = |key: &str| has_text(&en, key);
    let codes = error_codes();
    // The scan finds what it should.
    for code in [
        "illegal_move",
        "bad_move",
        "unknown_game",
        "internal",
        "too_many_connections",
        "headers_too_large",
        "method_not_allowed",
        "ai_busy",
    ] {
        assert!(
            codes.contains_key(code),
            "the scan missed {code}: {codes:?}"
        );
    }
    let mut problems = Vec::new();
    for (code, file) in &codes {
        if !has(&format!("error.{code}")) {
            problems.push(format!("error.{code} (sent in {file}) has no English text"));
        }
    }
    // The page's own codes (api.js ApiError).
    for code in ["network", "timeout", "bad_answer", "http"] {
        if !has(&format!("error.{code}")) {
            problems.push(format!("error.{code} (the page's own) has no English text"));
        }
    }
    for reason in IllegalMove::CODES {
        if !has(&format!("illegal.{reason}")) {
            problems.push(format!("illegal.{reason} has no English text"));
        }
    }
    for notice in Notice::ALL.map(Notice::code) {
        if !has(&format!("game.notice.{notice}")) {
            problems.push(format!("game.notice.{notice} has no English text"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every verdict the learning judges give has a text in every language,
/// in the form the page words it: puzzles.js adds the side (`code.white`,
/// `code.black`) when the params name one, tutorial.js shows a right move
/// as the lesson's `tutorial.lesson.<id>.done`. Judged on real tries —
/// each puzzle's solutions, every first move that ends the game, a sample
/// of the others, a wrong second move; each lesson's example, a sample of
/// its legal moves and moves its rules refuse — not read from the source.
#[test]
fn every_verdict_of_the_judges_has_its_text_in_every_language() {
    use punct_core::Move;
    use punct_learn::puzzles::{judge, puzzles};
    use punct_learn::tutorial::{self, LESSONS};
    let catalogues: Vec<(&str, Map<String, Value>)> =
        LANGS.iter().map(|l| (*l, catalogue(l))).collect();
    // Each key the page will look up, with a try that needs it.
    let mut needed: BTreeMap<String, String> = BTreeMap::new();
    let mut puzzle_verdicts = 0;
    for p in puzzles() {
        let mut tries: Vec<Vec<Move>> = p.solutions.iter().map(|m| vec![*m]).collect();
        for (i, m) in p.position.legal_moves().into_iter().enumerate() {
            let mut after = p.position.clone();
            after.play(m).expect("a legal move plays");
            if after.status().is_over() || i % 97 == 0 {
                tries.push(vec![m]);
            }
        }
        for line in &p.lines {
            let mut after = p.position.clone();
            after.play(line.first).expect("the line's first move");
            after.play(line.reply).expect("the line's reply");
            if let Some(wrong) = after
                .legal_moves()
                .into_iter()
                .find(|m| !line.wins.contains(m))
            {
                tries.push(vec![line.first, wrong]);
            }
            tries.push(vec![line.first, line.wins[0]]);
        }
        for moves in tries {
            let said: Vec<String> = moves.iter().map(Move::to_string).collect();
            let v = judge(p, &moves).unwrap_or_else(|e| panic!("{} {said:?}: {e}", p.id));
            puzzle_verdicts += 1;
            let keys: Vec<String> = match v.params.get("side").and_then(Value::as_str) {
                Some(_) => ["white", "black"]
                    .map(|s| format!("{}.{s}", v.code))
                    .to_vec(),
                None => vec![v.code.to_string()],
            };
            for key in keys {
                needed
                    .entry(key)
                    .or_insert_with(|| format!("puzzle {} {said:?}", p.id));
            }
        }
    }
    let mut lesson_verdicts = 0;
    for lesson in LESSONS {
        let start = lesson.start();
        let mut tries: Vec<Move> = vec![lesson.example.parse().expect("the example")];
        tries.extend(start.legal_moves().into_iter().step_by(37));
        // Moves the rules refuse: additions of every kind and rotation on
        // a spread of cells.
        for kind in ["T", "C", "E", "L", "M", "R"] {
            for cell in ["A1", "B3", "E5", "I9", "H8", "M12", "Q17", "J10", "F2"] {
                for r in 0..6 {
                    if let Ok(m) = format!("{kind}@{cell}/{r}").parse::<Move>() {
                        if start.check_move(m).is_err() {
                            tries.push(m);
                        }
                    }
                }
            }
        }
        for m in tries {
            let (v, _) = tutorial::judge(lesson, &start, m);
            lesson_verdicts += 1;
            let key = if v.code.starts_with("tutorial.illegal.")
                || v.code.starts_with("tutorial.wrong.")
            {
                v.code.clone()
            } else if v.code.starts_with("tutorial.") {
                format!("tutorial.lesson.{}.done", lesson.id)
            } else {
                v.code.clone()
            };
            needed
                .entry(key)
                .or_insert_with(|| format!("lesson {} {m}", lesson.id));
        }
    }
    assert!(
        puzzle_verdicts > 100 && lesson_verdicts > 100,
        "{puzzle_verdicts} / {lesson_verdicts} tries"
    );
    let mut problems = Vec::new();
    for (key, by) in &needed {
        for (lang, cat) in &catalogues {
            if !has_text(cat, key) {
                problems.push(format!("{lang}: {key} (needed by {by})"));
            }
        }
    }
    eprintln!(
        "{} keys from {puzzle_verdicts} puzzle tries and {lesson_verdicts} lesson tries",
        needed.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
