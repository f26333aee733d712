//! Tokens and ids: their lengths and alphabets, that they do not repeat,
//! the digest against known answers, and the API token's form check
//! against near misses.

use std::collections::{HashMap, HashSet};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use punct_accounts::token::{
    api, digest, looks_like_api, nonce, session, user_id, API_PREFIX, USER_ID_CHARS,
};

fn is_base64url(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[test]
fn session_tokens_are_256_bits_of_base64url_and_never_repeat() {
    let mut seen = HashSet::new();
    for _ in 0..10_000 {
        let token = session();
        assert_eq!(token.len(), 43, "{token}");
        assert!(is_base64url(&token), "{token}");
        assert_eq!(URL_SAFE_NO_PAD.decode(&token).unwrap().len(), 32);
        assert!(seen.insert(token));
    }
}

#[test]
fn api_tokens_have_the_prefix_and_256_bits() {
    let mut seen = HashSet::new();
    for _ in 0..1_000 {
        let token = api();
        assert_eq!(token.len(), 49, "{token}");
        let secret = token.strip_prefix(API_PREFIX).unwrap();
        assert!(is_base64url(secret), "{token}");
        assert_eq!(URL_SAFE_NO_PAD.decode(secret).unwrap().len(), 32);
        assert!(looks_like_api(&token), "{token}");
        assert!(seen.insert(token));
    }
}

#[test]
fn looks_like_api_refuses_near_misses() {
    let token = api();
    let secret = &token[API_PREFIX.len()..];
    // A last character with bits below the 256th set: valid base64url,
    // but not something `api` writes (`A` = 0 carries none, `B` = 1 does).
    let canonical_end = format!("{API_PREFIX}{}A", &secret[..42]);
    let stray_bits = format!("{API_PREFIX}{}B", &secret[..42]);
    assert!(looks_like_api(&canonical_end));
    assert!(!looks_like_api(&stray_bits));

    let near_misses = [
        String::new(),
        API_PREFIX.to_string(),
        secret.to_string(),
        session(),
        token[..48].to_string(),
        format!("{token}A"),
        format!("Punct_{secret}"),
        format!("PUNCT_{secret}"),
        format!("punct-{secret}"),
        format!("punct{secret}A"),
        format!(" {token}"),
        format!("{token} "),
        format!("{API_PREFIX}{}+", &secret[..42]),
        format!("{API_PREFIX}{}/", &secret[..42]),
        format!("{API_PREFIX}{}=", &secret[..42]),
        format!("{API_PREFIX}{}.", &secret[..42]),
        format!("{API_PREFIX}{}é", &secret[..41]),
        format!("{API_PREFIX}{}==", &secret[..41]),
        format!("{API_PREFIX}{}", "A".repeat(44)),
    ];
    for text in &near_misses {
        assert!(!looks_like_api(text), "{text:?}");
    }
}

#[test]
fn digest_is_sha256_in_lowercase_hex() {
    assert_eq!(
        digest("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        digest(""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    let token = session();
    let d = digest(&token);
    assert_eq!(d.len(), 64);
    assert!(d
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    assert_eq!(digest(&token), d);
    assert_ne!(digest(&session()), d);
}

#[test]
fn user_ids_are_12_base62_characters_evenly_drawn() {
    assert_eq!(USER_ID_CHARS, 12);
    let mut seen = HashSet::new();
    let mut counts: HashMap<char, usize> = HashMap::new();
    for _ in 0..10_000 {
        let id = user_id();
        assert_eq!(id.len(), 12, "{id}");
        assert!(id.bytes().all(|b| b.is_ascii_alphanumeric()), "{id}");
        for c in id.chars() {
            *counts.entry(c).or_default() += 1;
        }
        assert!(seen.insert(id));
    }
    // 120,000 characters: about 1,935 of each of 62 (a standard deviation
    // of 44). Taking a byte modulo 62 without dropping 248..=255 would give
    // the first 8 characters 5/256 each, about 2,344: outside the bounds.
    assert_eq!(counts.len(), 62);
    for (c, n) in &counts {
        assert!((1_685..=2_185).contains(n), "{c}: {n}");
    }
}

#[test]
fn nonces_are_128_bits_of_base64url() {
    let mut seen = HashSet::new();
    for _ in 0..1_000 {
        let n = nonce();
        assert_eq!(n.len(), 22, "{n}");
        assert!(is_base64url(&n), "{n}");
        assert_eq!(URL_SAFE_NO_PAD.decode(&n).unwrap().len(), 16);
        assert!(seen.insert(n));
    }
}
