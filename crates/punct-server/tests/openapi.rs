//! The API's description, `GET /api/openapi.json`, from the real binary:
//! served as JSON with the security headers and the read bucket's limit,
//! and the answers the fuzzer (scripts/fuzz-api.sh) found at odds with it
//! or with itself, each kept as a regression test.

mod common;

use common::Server;
use serde_json::Value;

#[test]
fn the_description_is_served_as_json_with_the_security_headers_and_a_read_limit() {
    let s = Server::builder().flags(&["--rate-read", "2/min"]).start();
    let (status, headers, text) = s.get_text("/api/openapi.json");
    assert_eq!(status, 200, "{text}");
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"),
        "{headers:?}"
    );
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert!(doc["paths"]["/api/games/{id}/moves"]["post"].is_object());
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(headers.contains_key("content-security-policy"));

    // A read: the second is the bucket's last, the third is refused.
    assert_eq!(s.get("/api/openapi.json").0, 200);
    let (status, headers, text) = s.get_text("/api/openapi.json");
    assert_eq!(status, 429, "{text}");
    assert!(headers.contains_key("retry-after"), "{headers:?}");
    assert_eq!(common::to_json(&text)["error"]["code"], "rate_limited");
}
