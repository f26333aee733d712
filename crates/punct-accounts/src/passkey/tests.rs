//! The ceremonies end to end with a software passkey (real keys, real
//! signatures, webauthn-rs's checks), and the relying party's rules.

use super::soft::SoftDevice;
use super::*;

const ORIGIN: &str = "http://localhost:8080";

fn rp() -> RelyingParty {
    RelyingParty::new(ORIGIN).unwrap()
}

/// A passkey registered for user `id` on `device`: its id and JSON.
fn register(
    rp: &RelyingParty,
    device: &mut SoftDevice,
    id: &str,
    existing: &[String],
) -> Registered {
    let started = rp.start_registration(id, "Ada_1", existing).unwrap();
    let answer = device.create(rp.origin(), &started.options).unwrap();
    rp.finish_registration(&started.state, &answer).unwrap()
}

#[test]
fn ip_addresses_are_refused_with_the_reason() {
    for origin in [
        "http://127.0.0.1:8080",
        "https://192.0.2.7",
        "http://[::1]:8080",
        "https://[2001:db8::1]:8443/",
        "http://10.0.0.5",
        "http://127.1:8080",
    ] {
        let e = RelyingParty::new(origin).unwrap_err();
        assert_eq!(e.code(), "passkeys_need_host_name", "{origin}");
        assert!(e.to_string().contains("http://localhost:PORT"), "{e}");
        assert!(e.to_string().contains("--public-url"), "{e}");
    }
}

#[test]
fn origins_make_their_relying_party() {
    for (origin, id, clean) in [
        (
            "http://localhost:8080",
            "localhost",
            "http://localhost:8080",
        ),
        (
            "http://LOCALHOST:8080/game/x",
            "localhost",
            "http://localhost:8080",
        ),
        (
            "https://punct.example.org",
            "punct.example.org",
            "https://punct.example.org",
        ),
        (
            "https://Punct.Example.org:8443/",
            "punct.example.org",
            "https://punct.example.org:8443",
        ),
        (
            "https://punct.example.org./",
            "punct.example.org",
            "https://punct.example.org",
        ),
    ] {
        let rp = RelyingParty::new(origin).unwrap();
        assert_eq!((rp.id(), rp.origin()), (id, clean), "{origin}");
    }
    for (origin, code) in [
        ("http://punct.example.org", "passkeys_need_https"),
        ("http://myhost:8080", "passkeys_need_https"),
        ("ftp://punct.example.org", "bad_origin"),
        ("punct.example.org", "bad_origin"),
        ("https://", "bad_origin"),
        ("https://user@punct.example.org", "bad_origin"),
        ("https://punct.example.org:port", "bad_origin"),
        ("https://bad_name.example", "bad_origin"),
        ("https://-x.example", "bad_origin"),
    ] {
        let e = RelyingParty::new(origin).unwrap_err();
        assert_eq!(e.code(), code, "{origin}: {e}");
    }
}

#[test]
fn user_handles_hold_the_account_id() {
    let handle = user_handle("Ab3dEf6hIj9k").unwrap();
    assert_eq!(user_of_handle(handle.as_bytes()).unwrap(), "Ab3dEf6hIj9k");
    assert!(user_handle("").is_err());
    assert!(user_handle("seventeen-bytes-x").is_err());
    assert!(user_of_handle(b"short").is_err());
    assert!(user_of_handle(&[0u8; 16]).is_err());
    let mut gap = *user_handle("ab").unwrap().as_bytes();
    gap[5] = b'x';
    assert!(user_of_handle(&gap).is_err(), "bytes after the end");
}

#[test]
fn a_registered_passkey_signs_in_without_a_name() {
    let rp = rp();
    let mut device = SoftDevice::new();
    let started = rp.start_registration("Ab3dEf6hIj9k", "Ada_1", &[]).unwrap();
    let selection = &started.options["publicKey"]["authenticatorSelection"];
    assert_eq!(selection["residentKey"], "required");
    assert_eq!(selection["userVerification"], "required");
    assert_eq!(started.options["publicKey"]["rp"]["id"], "localhost");
    let answer = device.create(ORIGIN, &started.options).unwrap();
    let key = rp.finish_registration(&started.state, &answer).unwrap();
    assert_eq!(
        (key.user.as_str(), key.name.as_str()),
        ("Ab3dEf6hIj9k", "Ada_1")
    );
    assert_eq!(key.id, device.held()[0].id);
    assert_eq!(credential_id(&key.data).unwrap(), key.id);

    let sign_in = rp.start_sign_in().unwrap();
    let public = &sign_in.options["publicKey"];
    assert!(
        public["allowCredentials"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "discoverable: no credentials listed: {public}"
    );
    assert!(sign_in.options.get("mediation").is_none());
    let assertion = device.get(ORIGIN, &sign_in.options).unwrap();
    let (id, user) = identify(&assertion).unwrap();
    assert_eq!(
        (id.as_str(), user.as_deref()),
        (key.id.as_str(), Some("Ab3dEf6hIj9k"))
    );
    rp.finish_sign_in(&sign_in.state, &assertion, &key.data)
        .unwrap();
}

#[test]
fn an_answer_to_another_challenge_or_site_is_refused() {
    let rp = rp();
    let mut device = SoftDevice::new();
    let key = register(&rp, &mut device, "u1", &[]);
    let first = rp.start_sign_in().unwrap();
    let second = rp.start_sign_in().unwrap();
    let answer = device.get(ORIGIN, &first.options).unwrap();
    // The answer to the first challenge, finished against the second's.
    let e = rp
        .finish_sign_in(&second.state, &answer, &key.data)
        .unwrap_err();
    assert_eq!(e.code(), "passkey_refused", "{e}");
    // Signed on another port's page: another origin.
    let other = device.get("http://localhost:9999", &first.options).unwrap();
    let e = rp
        .finish_sign_in(&first.state, &other, &key.data)
        .unwrap_err();
    assert_eq!(e.code(), "passkey_refused", "{e}");
    // Another site's relying party does not accept this site's passkey.
    let elsewhere = RelyingParty::new("https://other.example").unwrap();
    let theirs = elsewhere.start_sign_in().unwrap();
    assert!(device
        .get("https://other.example", &theirs.options)
        .is_err());
    // A signature that does not match.
    let mut forged = device.get(ORIGIN, &first.options).unwrap();
    let sig = forged["response"]["signature"]
        .as_str()
        .unwrap()
        .to_string();
    let mut bytes = soft::decode(&sig);
    let last = bytes.len() - 2;
    bytes[last] ^= 1;
    forged["response"]["signature"] = serde_json::json!(URL_SAFE_NO_PAD.encode(bytes));
    let e = rp
        .finish_sign_in(&first.state, &forged, &key.data)
        .unwrap_err();
    assert_eq!(e.code(), "passkey_refused", "{e}");
    // Signed by another passkey than the stored one it names.
    let mut other_device = SoftDevice::new();
    let other_key = register(&rp, &mut other_device, "u2", &[]);
    let answer = device.get(ORIGIN, &first.options).unwrap();
    let e = rp
        .finish_sign_in(&first.state, &answer, &other_key.data)
        .unwrap_err();
    assert_eq!(e.code(), "passkey_refused", "{e}");
}

#[test]
fn a_registration_for_another_origin_or_with_a_bad_answer_is_refused() {
    let rp = rp();
    let mut device = SoftDevice::new();
    let started = rp.start_registration("u1", "Ada_1", &[]).unwrap();
    let answer = device
        .create("http://localhost:1", &started.options)
        .unwrap();
    let e = rp.finish_registration(&started.state, &answer).unwrap_err();
    assert_eq!(e.code(), "passkey_refused", "{e}");
    let e = rp
        .finish_registration(&started.state, &serde_json::json!({"id": 3}))
        .unwrap_err();
    assert_eq!(e.code(), "bad_passkey", "{e}");
    let e = rp.finish_registration("{}", &answer).unwrap_err();
    assert_eq!(e.code(), "passkey_state", "{e}");
    assert_eq!(
        identify(&serde_json::json!([])).unwrap_err().code(),
        "bad_passkey"
    );
}

#[test]
fn a_users_passkeys_are_excluded_from_registering_again() {
    let rp = rp();
    let mut device = SoftDevice::new();
    let key = register(&rp, &mut device, "u1", &[]);
    let again = rp
        .start_registration("u1", "Ada_1", std::slice::from_ref(&key.data))
        .unwrap();
    let listed = &again.options["publicKey"]["excludeCredentials"];
    assert_eq!(listed[0]["id"], key.id.as_str(), "{listed}");
    assert!(device.create(ORIGIN, &again.options).is_err());
    // Another device registers a second passkey.
    let mut phone = SoftDevice::new();
    let answer = phone.create(ORIGIN, &again.options).unwrap();
    let second = rp.finish_registration(&again.state, &answer).unwrap();
    assert_ne!(second.id, key.id);
}

fn counter(stored: &str) -> u64 {
    serde_json::from_str::<Value>(stored).unwrap()["cred"]["counter"]
        .as_u64()
        .unwrap_or_else(|| panic!("no counter in {stored}"))
}

#[test]
fn the_counter_moves_on_and_one_gone_back_is_refused() {
    let rp = rp();
    let mut device = SoftDevice::new();
    let mut stored = register(&rp, &mut device, "u1", &[]).data;
    let mut last = counter(&stored);
    for round in 0..3 {
        let started = rp.start_sign_in().unwrap();
        let answer = device.get(ORIGIN, &started.options).unwrap();
        stored = rp
            .finish_sign_in(&started.state, &answer, &stored)
            .unwrap()
            .expect("a new counter to store");
        assert!(counter(&stored) > last, "round {round}: {stored}");
        last = counter(&stored);
    }
    // An answer signed before the stored counter's (as a cloned
    // authenticator's would be) is refused.
    let early = rp.start_sign_in().unwrap();
    let early_answer = device.get(ORIGIN, &early.options).unwrap();
    let later = rp.start_sign_in().unwrap();
    let later_answer = device.get(ORIGIN, &later.options).unwrap();
    stored = rp
        .finish_sign_in(&later.state, &later_answer, &stored)
        .unwrap()
        .unwrap();
    let e = rp
        .finish_sign_in(&early.state, &early_answer, &stored)
        .unwrap_err();
    assert_eq!(e.code(), "passkey_refused", "{e}");
}
