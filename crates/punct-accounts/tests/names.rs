//! User names: each rule of `check` with its error, code and message, the
//! reserved names by key, and `key` as an equivalence checked exhaustively
//! over short names.

use std::collections::HashMap;

use punct_accounts::name::{check, key, lookup_key, reserved, NameError, MAX, MIN};

/// The characters a user name may have.
fn safe_set() -> Vec<char> {
    ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        .chain(['_', '-'])
        .collect()
}

#[test]
fn lengths_at_the_bounds() {
    assert_eq!(MIN, 2);
    assert_eq!(MAX, 20);
    assert_eq!(check(""), Err(NameError::Length { chars: 0 }));
    assert_eq!(check("b"), Err(NameError::Length { chars: 1 }));
    assert_eq!(check("bo"), Ok(()));
    assert_eq!(check(&"b".repeat(20)), Ok(()));
    assert_eq!(check(&"b".repeat(21)), Err(NameError::Length { chars: 21 }));
    // Counted in characters, not bytes: 20 `é` are 40 bytes, and refused
    // for the character, not the length.
    assert_eq!(
        check(&"é".repeat(20)),
        Err(NameError::Character { found: 'é' })
    );
    assert_eq!(check(&"é".repeat(21)), Err(NameError::Length { chars: 21 }));
}

#[test]
fn length_message_and_code() {
    let err = check(&"x".repeat(25)).unwrap_err();
    assert_eq!(err.code(), "name_length");
    assert_eq!(
        err.to_string(),
        "a user name has 2 to 20 characters; this one has 25"
    );
}

#[test]
fn every_character_of_the_safe_set_is_accepted() {
    for c in safe_set() {
        assert_eq!(check(&format!("x{c}x")), Ok(()), "x{c}x");
        if c.is_ascii_alphanumeric() {
            assert_eq!(check(&format!("{c}x{c}")), Ok(()), "{c}x{c}");
        }
    }
    assert_eq!(check("Zeta_9-x"), Ok(()));
}

#[test]
fn other_characters_are_refused_and_named() {
    let samples = [
        ('é', "bob\u{e9}"),
        (' ', "bob smith"),
        (' ', " bob"),
        ('\t', "bob\t"),
        ('\0', "bo\0b"),
        ('\n', "bob\n"),
        ('\u{200b}', "bo\u{200b}b"),  // zero-width space
        ('\u{430}', "\u{430}dmin"),   // Cyrillic а
        ('\u{ff21}', "\u{ff21}lice"), // fullwidth Ａ
        ('🎲', "dice🎲"),
        ('.', "bob.smith"),
        ('@', "bob@home"),
        ('|', "b|b"),
    ];
    for (found, name) in samples {
        let err = check(name).unwrap_err();
        assert_eq!(err, NameError::Character { found }, "{name:?}");
        assert_eq!(err.code(), "name_character");
        let message = err.to_string();
        assert!(
            message.contains(&format!("U+{:04X}", u32::from(found))),
            "{message}"
        );
        assert!(
            message.contains(&format!("`{}`", found.escape_debug())),
            "{message}"
        );
    }
    assert_eq!(
        check("caf\u{e9}").unwrap_err().to_string(),
        "`é` (U+00E9) cannot be in a user name: use letters a–z, digits, _ and -"
    );
    // A control character is shown escaped, not raw.
    assert!(check("bo\nb").unwrap_err().to_string().starts_with("`\\n`"));
}

#[test]
fn start_end_and_doubled_separators() {
    for name in ["_bob", "-bob", "_b", "-9"] {
        let err = check(name).unwrap_err();
        assert_eq!(err, NameError::Start, "{name}");
        assert_eq!(err.code(), "name_start");
    }
    assert_eq!(
        check("_bob").unwrap_err().to_string(),
        "a user name starts with a letter or a digit"
    );
    for (name, found) in [("bob_", '_'), ("bob-", '-'), ("b_", '_')] {
        let err = check(name).unwrap_err();
        assert_eq!(err, NameError::End { found }, "{name}");
        assert_eq!(err.code(), "name_end");
        assert!(err.to_string().contains(&format!("`{found}`")));
    }
    for (name, pair) in [
        ("bo__b", "__"),
        ("bo--b", "--"),
        ("bo_-b", "_-"),
        ("bo-_b", "-_"),
        ("a-b__c", "__"),
    ] {
        let err = check(name).unwrap_err();
        assert_eq!(
            err,
            NameError::Doubled {
                pair: pair.to_string()
            },
            "{name}"
        );
        assert_eq!(err.code(), "name_doubled");
        assert!(err.to_string().starts_with(&format!("`{pair}`")));
    }
    // Single separators between letters and digits are fine.
    assert_eq!(check("a_b-c_1-2"), Ok(()));
}

#[test]
fn the_first_rule_broken_is_the_error() {
    // Too long and with a bad character: the length.
    assert_eq!(
        check(&"é_".repeat(11)),
        Err(NameError::Length { chars: 22 })
    );
    // A bad character and a bad start: the character.
    assert_eq!(check("_bö"), Err(NameError::Character { found: 'ö' }));
    // Starts and ends with a separator: the start.
    assert_eq!(check("_bob_"), Err(NameError::Start));
    // A reserved name spelt with a bad end: the end.
    assert_eq!(check("admin_"), Err(NameError::End { found: '_' }));
}

#[test]
fn reserved_names_by_key() {
    let refused = [
        "admin",
        "ADMIN",
        "Admin",
        "Adm1n",
        "AdMIN",
        "adrnin", // rn for m
        "administrator",
        "moderator",
        "mod",
        "MOD",
        "rnod",
        "root",
        "R00T",
        "system",
        "punct",
        "PUNCT",
        "Punct",
        "puenct",
        "support",
        "help",
        "staff",
        "official",
        "bot",
        "B0T",
        "anonymous",
        "anon",
        "guest",
        "deleted",
        "null",
        "NULL",
        "nu11",
        "undefined",
        "api",
        "AP1",
        "www",
        "vvvvvv",
        "level1",
        "Level1",
        "LEVEL1",
        "levell",
        "leve11",
        "level2",
        "level3",
        "level4",
    ];
    for name in refused {
        assert!(reserved(name), "{name} should be reserved");
        let err = check(name).unwrap_err();
        assert_eq!(err, NameError::Reserved, "{name}");
        assert_eq!(err.code(), "name_reserved");
    }
    // Reserved names in letters a name may not have are reserved all the
    // same (`reserved` takes any text).
    assert!(reserved("pünct"));
    assert!(reserved("\u{430}dmin")); // Cyrillic а
    assert!(reserved("\u{ff21}\u{ff24}\u{ff2d}\u{ff29}\u{ff2e}")); // fullwidth ＡＤＭＩＮ
    for name in [
        "admins", "adminx", "xadmin", "level5", "level0", "bob", "rob", "roots", "bots", "help-me",
        "guests", "punctual", "ab",
    ] {
        assert!(!reserved(name), "{name} should not be reserved");
        assert_eq!(check(name), Ok(()), "{name}");
    }
    assert_eq!(
        check("Adm1n").unwrap_err().to_string(),
        "this user name is reserved (it is, or looks like, a name kept for the site)"
    );
}

#[test]
fn names_that_look_alike_share_a_key() {
    let same = [
        &["Il", "il", "ll", "1l", "lI", "IL", "LL", "11", "iI", "1i"][..],
        &["O0o", "ooo", "000", "OOO", "0o0"],
        &["m", "rn", "M", "RN", "rN"],
        &["w", "vv", "W", "VV", "vV"],
        &["Bob", "bob", "B0b", "BOB", "b0B"],
        &["bill", "BILL", "b1ll", "biii", "bI1l"],
    ];
    for class in same {
        for name in class {
            assert_eq!(key(name), key(class[0]), "{name} ~ {}", class[0]);
        }
    }
    for (a, b) in [
        ("bob", "rob"),
        ("bob", "bobb"),
        ("m", "n"),
        ("w", "v"),
        ("S", "5"),
        ("B", "8"),
        ("z", "2"),
        ("a_b", "a-b"),
        ("ab", "ba"),
    ] {
        assert_ne!(key(a), key(b), "{a} !~ {b}");
    }
    // Unicode look-alikes meet their ASCII twins.
    assert_eq!(key("\u{430}dmin"), key("admin")); // Cyrillic а
    assert_eq!(key("|l"), key("ll"));
    assert_eq!(key("\u{2113}"), key("l")); // script ℓ
}

/// A union-find over a fixed set of texts.
struct Classes {
    index: HashMap<String, usize>,
    parent: Vec<usize>,
}

impl Classes {
    fn new(texts: &[String]) -> Classes {
        Classes {
            index: texts
                .iter()
                .enumerate()
                .map(|(i, t)| (t.clone(), i))
                .collect(),
            parent: (0..texts.len()).collect(),
        }
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        self.parent[ra] = rb;
    }

    /// Joins every two texts that give the same value.
    fn join_by<K: std::hash::Hash + Eq>(&mut self, texts: &[String], f: impl Fn(&str) -> K) {
        let mut first: HashMap<K, usize> = HashMap::new();
        for (i, text) in texts.iter().enumerate() {
            match first.get(&f(text)) {
                Some(&j) => self.join(i, j),
                None => {
                    first.insert(f(text), i);
                }
            }
        }
    }
}

/// The promise of `key` over every name of one and two characters of the
/// safe set: two share a key exactly when a chain of the declared
/// likenesses joins them — the same lowercase, the same UTS #39 skeleton,
/// the same text once each `w` is `vv` (so `wv` ~ `vw`: both are `vvv`) —
/// and no more (so `key` merges nothing else: `bob` stays apart from
/// `rob`). The classes are found by union-find, independently of how `key`
/// computes them.
#[test]
fn key_is_exactly_the_closure_of_case_and_confusables_over_short_names() {
    let safe = safe_set();
    let mut texts: Vec<String> = safe.iter().map(|c| c.to_string()).collect();
    for a in &safe {
        for b in &safe {
            texts.push([*a, *b].iter().collect());
        }
    }
    let mut classes = Classes::new(&texts);
    classes.join_by(&texts, |t| t.to_lowercase());
    classes.join_by(&texts, |t| {
        unicode_security::skeleton(t).collect::<String>()
    });
    classes.join_by(&texts, |t| t.replace('w', "vv"));

    // Each class has one key, and no two classes share one.
    let mut key_of_class: HashMap<usize, String> = HashMap::new();
    let mut class_of_key: HashMap<String, usize> = HashMap::new();
    for (i, text) in texts.iter().enumerate() {
        let root = classes.root(i);
        let k = key(text);
        let class_key = key_of_class.entry(root).or_insert_with(|| k.clone());
        assert_eq!(
            *class_key, k,
            "{text:?} is in the class of a name with another key"
        );
        let key_class = *class_of_key.entry(k.clone()).or_insert(root);
        assert_eq!(
            key_class, root,
            "{text:?} has the key {k:?} of another class"
        );
    }
    // The classes the task names are among them, and not everything
    // collapsed into a few.
    assert_eq!(
        classes.root(classes.index["I"]),
        classes.root(classes.index["1"])
    );
    assert_eq!(
        classes.root(classes.index["i"]),
        classes.root(classes.index["l"])
    );
    assert_eq!(
        classes.root(classes.index["0"]),
        classes.root(classes.index["o"])
    );
    assert_eq!(
        classes.root(classes.index["m"]),
        classes.root(classes.index["rn"])
    );
    // 38 characters up to case, so 38 + 38² = 1482 classes before the
    // confusables join some.
    assert!(key_of_class.len() > 1200, "{} classes", key_of_class.len());
}

#[test]
fn key_is_a_fixed_point_of_itself() {
    let safe = safe_set();
    for a in &safe {
        for b in &safe {
            let name: String = [*a, *b].iter().collect();
            let k = key(&name);
            assert_eq!(key(&k), k, "{name:?}");
        }
    }
    for name in ["Adm1n", "\u{430}dmin", "WwMm", "pünct", "ＡＤＭＩＮ"] {
        let k = key(name);
        assert_eq!(key(&k), k, "{name:?}");
    }
}

#[test]
fn lookup_key_is_the_key_of_any_name_an_account_could_have() {
    let safe = safe_set();
    for a in &safe {
        for b in &safe {
            let name: String = [*a, *b].iter().collect();
            assert_eq!(lookup_key(&name), Some(key(&name)), "{name:?}");
        }
    }
    // Typed text that is not a valid name is still looked up (it finds no
    // one, or finds the account it passes for).
    assert_eq!(lookup_key("Ali ce"), Some(key("Ali ce")));
    for no_one in [
        "",
        "a\u{0}",
        "\u{0}",
        "a\u{7}b",
        "\u{1b}[0m",
        "x\u{85}",
        &"a".repeat(65),
    ] {
        assert_eq!(lookup_key(no_one), None, "{no_one:?}");
    }
}
