//! Passwords: each rule of the policy, hashing and verifying with argon2id,
//! the stored hashes `verify` refuses, rehashing, and the time a login for
//! no one takes.

use std::time::{Duration, Instant};

use punct_accounts::password::{
    check, hash, needs_rehash, verify, verify_nobody, PasswordError, MAX_BYTES, MIN_CHARS, PARAMS,
    VERIFY_LIMIT,
};

/// A password no rule refuses, of `chars` characters from `alphabet`
/// (stepping through it by 7, so it is no run and no repetition).
fn varied(alphabet: &[char], chars: usize) -> String {
    (0..chars)
        .map(|i| alphabet[(i * 7) % alphabet.len()])
        .collect()
}

#[test]
fn too_short() {
    assert_eq!(MIN_CHARS, 10);
    assert_eq!(check("", "bob"), Err(PasswordError::Short { chars: 0 }));
    let err = check("kq7#vz", "bob").unwrap_err();
    assert_eq!(err, PasswordError::Short { chars: 6 });
    assert_eq!(err.code(), "password_short");
    assert_eq!(
        err.to_string(),
        "a password needs at least 10 characters; this one has 6"
    );
    assert_eq!(
        check("kq7#vz2!p", "bob"),
        Err(PasswordError::Short { chars: 9 })
    );
    // Exactly the minimum is enough.
    assert_eq!(check("kq7#vz2!pm", "bob"), Ok(()));
    // Characters, not bytes: 9 `é` are 18 bytes and still short.
    assert_eq!(
        check(&"éàüöçñßøåæ"[..18], "bob"),
        Err(PasswordError::Short { chars: 9 })
    );
    assert_eq!(check("éàüöçñßøåæ", "bob"), Ok(()));
}

#[test]
fn too_long_counts_bytes() {
    assert_eq!(MAX_BYTES, 256);
    let ascii: Vec<char> = ('!'..='~').collect();
    assert_eq!(check(&varied(&ascii, 256), "bob"), Ok(()));
    let err = check(&varied(&ascii, 257), "bob").unwrap_err();
    assert_eq!(err, PasswordError::Long { bytes: 257 });
    assert_eq!(err.code(), "password_long");
    assert!(err
        .to_string()
        .starts_with("a password has at most 256 bytes; this one has 257"));

    // 100 characters of 3 bytes each are 300 bytes: too long, though far
    // fewer than 256 characters.
    let cjk: Vec<char> = ('\u{4e00}'..='\u{4e50}').collect();
    let hundred = varied(&cjk, 100);
    assert_eq!(hundred.chars().count(), 100);
    assert_eq!(
        check(&hundred, "bob"),
        Err(PasswordError::Long { bytes: 300 })
    );
    // 85 of them and one ASCII letter are exactly 256 bytes.
    let at_limit = format!("{}x", varied(&cjk, 85));
    assert_eq!(at_limit.len(), 256);
    assert_eq!(check(&at_limit, "bob"), Ok(()));
}

#[test]
fn common_passwords_are_refused_in_any_case() {
    for password in [
        "1234567890",
        "qwertyuiop",
        "QWERTYUIOP",
        "password123",
        "PassWord123",
        "iloveyou12",
        "ILoveYou12",
        "1q2w3e4r5t",
        "Administrator",
        "correct horse battery staple",
        "Punct12345",
    ] {
        let err = check(password, "bob").unwrap_err();
        assert_eq!(err, PasswordError::Common, "{password}");
        assert_eq!(err.code(), "password_common");
    }
}

#[test]
fn repetitions_and_runs_are_refused() {
    for password in [
        "aaaaaaaaaa",
        "ZZZZZZZZZZZZZZZ",
        "..........",
        "ababababab",
        "abcabcabcabc",
        "passpasspass",
        "abcdefghij",
        "ABCDEFGHIJKLMNOP",
        "9876543210",
        "zyxwvutsrqp",
        "3456789:;<",
    ] {
        assert_eq!(
            check(password, "bob"),
            Err(PasswordError::Common),
            "{password}"
        );
    }
    // Near misses are fine.
    for password in ["aaaaaaaaab", "abcdeabcde", "abcdefghik", "0123456780"] {
        assert_eq!(check(password, "bob"), Ok(()), "{password}");
    }
}

/// The embedded list as the check reads it: every line is a password the
/// check refuses, so no line is dead (too short, or not lowercase, which
/// a case-insensitive lookup would never meet).
#[test]
fn the_common_list_is_well_formed_and_used() {
    let list = include_str!("../src/common.txt");
    let mut seen = std::collections::HashSet::new();
    let mut count = 0;
    for line in list
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        count += 1;
        assert!(line.chars().count() >= MIN_CHARS, "{line:?} is too short");
        assert_eq!(line, line.to_lowercase(), "{line:?} is not lowercase");
        assert_eq!(line, line.trim(), "{line:?} has spaces around it");
        assert!(seen.insert(line), "{line:?} twice");
        assert_eq!(
            check(line, "x"),
            Err(PasswordError::Common),
            "{line:?} is not refused"
        );
        assert_eq!(
            check(&line.to_uppercase(), "x"),
            Err(PasswordError::Common),
            "{line:?} in capitals is not refused"
        );
    }
    assert!(count >= 300, "only {count} common passwords");
}

#[test]
fn a_password_with_the_user_name_is_refused() {
    for (password, name) in [
        ("bob-the-great-7", "bob"),
        ("my-BOB-password", "bob"),
        ("xx-alice-xx-99", "Alice"),
        ("zeta_9!zeta_9!", "Zeta_9"),
    ] {
        let err = check(password, name).unwrap_err();
        assert_eq!(err, PasswordError::ContainsName, "{password} / {name}");
        assert_eq!(err.code(), "password_name");
        assert_eq!(err.to_string(), "a password cannot contain the user name");
    }
    // A name of 2 characters is in too many good passwords to count.
    assert_eq!(check("totally-fine-pw", "al"), Ok(()));
    assert_eq!(check("bob-the-great-7", "rob"), Ok(()));
}

#[test]
fn hash_then_verify() {
    let phc = hash("correct-battery-9").unwrap();
    assert_eq!(verify("correct-battery-9", &phc), Ok(true));
    assert_eq!(verify("correct-battery-8", &phc), Ok(false));
    assert_eq!(verify("Correct-battery-9", &phc), Ok(false));
    assert_eq!(verify("", &phc), Ok(false));
    // Longer than any stored password can be: false, without hashing.
    assert_eq!(verify(&"x".repeat(MAX_BYTES + 1), &phc), Ok(false));
    assert!(!needs_rehash(&phc));
}

#[test]
fn the_phc_string_names_argon2id_and_todays_params() {
    let phc = hash("correct-battery-9").unwrap();
    assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
    assert_eq!(PARAMS.to_string(), "m=19456,t=2,p=1");
    // Salt (16 bytes) and hash (32 bytes) in unpadded base64.
    let fields: Vec<&str> = phc.split('$').collect();
    assert_eq!(fields.len(), 6, "{phc}");
    assert_eq!(fields[4].len(), 22, "{phc}");
    assert_eq!(fields[5].len(), 43, "{phc}");
}

#[test]
fn two_hashes_of_one_password_differ_by_their_salt() {
    let a = hash("correct-battery-9").unwrap();
    let b = hash("correct-battery-9").unwrap();
    assert_ne!(a, b);
    assert_ne!(a.split('$').nth(4), b.split('$').nth(4));
    assert_eq!(verify("correct-battery-9", &b), Ok(true));
}

#[test]
fn hash_refuses_a_password_over_the_limit() {
    let err = hash(&"x".repeat(300)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a password to hash has at most 256 bytes; this one has 300"
    );
}

#[test]
fn verify_refuses_what_is_not_an_argon2_hash_and_names_it() {
    for garbage in [
        "",
        "hunter2-plain-text",
        "$argon2id$v=19$m=19456,t=2,p=1$not base64!$x",
    ] {
        let err = verify("hunter2-plain-text", garbage).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("the stored password hash"),
            "{garbage:?}: {message}"
        );
        assert!(message.contains("not a valid PHC string"), "{message}");
        assert!(
            message.contains(&format!("{} bytes", garbage.len())),
            "{message}"
        );
        // The stored text itself is not shown: it could be a password.
        assert!(garbage.len() < 4 || !message.contains(garbage), "{message}");
    }
    // Valid PHC, but with nothing to compare a password with.
    let message = verify("pw", "$argon2id$v=19$m=19456,t=2,p=1")
        .unwrap_err()
        .to_string();
    assert!(message.contains("`$argon2id$…`"), "{message}");
    assert!(message.contains("no salt or no hash"), "{message}");
    // A PHC string of another algorithm.
    let scrypt =
        "$scrypt$ln=16,r=8,p=1$aM15713r3Xsvxbi31lqr1Q$nFNh2CVHVjNldFVKDHDlm4CbdRSCdEBsjjJxD+iCs5E";
    let message = verify("pw", scrypt).unwrap_err().to_string();
    assert!(message.contains("`$scrypt$…`"), "{message}");
    assert!(message.contains("not an argon2 hash"), "{message}");
}

/// Swaps the params of a PHC string.
fn with_params(phc: &str, params: &str) -> String {
    let mut fields: Vec<&str> = phc.split('$').collect();
    fields[3] = params;
    fields.join("$")
}

#[test]
fn verify_refuses_a_hash_asking_for_too_much_work() {
    let phc = hash("correct-battery-9").unwrap();
    let greedy = with_params(&phc, "m=4000000000,t=2,p=1");
    let start = Instant::now();
    let message = verify("correct-battery-9", &greedy)
        .unwrap_err()
        .to_string();
    // Refused before any work (4 TB would not be allocated anyway).
    assert!(start.elapsed() < Duration::from_millis(50));
    assert!(message.contains("m=4000000000,t=2,p=1"), "{message}");
    assert!(message.contains(&VERIFY_LIMIT.to_string()), "{message}");
    for params in ["m=19456,t=1000,p=1", "m=19456,t=2,p=64"] {
        assert!(verify("x", &with_params(&phc, params)).is_err(), "{params}");
    }
}

#[test]
fn an_old_hash_verifies_and_needs_a_rehash() {
    use argon2::password_hash::PasswordHasher;
    let weaker = argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(8 * 1024, 2, 1, None).unwrap(),
    );
    let old = weaker
        .hash_password(b"correct-battery-9")
        .unwrap()
        .to_string();
    assert!(old.starts_with("$argon2id$v=19$m=8192,t=2,p=1$"), "{old}");
    assert!(needs_rehash(&old));
    assert_eq!(verify("correct-battery-9", &old), Ok(true));
    assert_eq!(verify("correct-battery-8", &old), Ok(false));

    // Another variant at today's costs needs one too.
    let argon2i = argon2::Argon2::new(
        argon2::Algorithm::Argon2i,
        argon2::Version::V0x13,
        argon2::Params::new(19 * 1024, 2, 1, None).unwrap(),
    )
    .hash_password(b"correct-battery-9")
    .unwrap()
    .to_string();
    assert!(needs_rehash(&argon2i));
    assert_eq!(verify("correct-battery-9", &argon2i), Ok(true));

    assert!(needs_rehash("not a hash"));
    assert!(!needs_rehash(&hash("correct-battery-9").unwrap()));
}

/// The fastest of a few runs: the least disturbed by other tests.
fn fastest(runs: usize, f: impl Fn()) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// A login for a name no one has takes as long as one with a wrong
/// password: both are one argon2id at today's costs.
#[test]
fn verify_nobody_costs_what_a_verify_costs() {
    let phc = hash("correct-battery-9").unwrap();
    verify_nobody("warm up the fixed hash");
    let real = fastest(3, || {
        assert_eq!(verify("wrong-password-1", &phc), Ok(false));
    });
    let nobody = fastest(3, || verify_nobody("wrong-password-1"));
    let ratio = nobody.as_secs_f64() / real.as_secs_f64();
    assert!(
        (0.5..2.0).contains(&ratio),
        "verify {real:?}, verify_nobody {nobody:?}"
    );
}
