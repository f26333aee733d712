//! `GET /api/openapi.json`: the OpenAPI description of the whole HTTP API
//! (`openapi.json` beside this file, written from the handlers and
//! view.rs and embedded as it is). The tests below hold it to the route
//! table both ways — every route documented, every documented operation a
//! route, with the same rate-limit bucket — and check that every refusal
//! a route can give is documented with the API's error object; the API
//! fuzzer (scripts/fuzz-api.sh) checks the server's answers against it.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The document, as served.
pub(crate) const DOCUMENT: &str = include_str!("openapi.json");

pub(crate) async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT).into_response()
}

#[cfg(test)]
mod tests {
    use super::DOCUMENT;
    use crate::api::{routes, Limit};
    use serde_json::Value;
    use std::collections::BTreeSet;

    fn document() -> Value {
        serde_json::from_str(DOCUMENT).expect("openapi.json is JSON")
    }

    /// A route's path as OpenAPI writes it: `{*file}` (the rest of the
    /// path) is the parameter `{file}`.
    fn openapi_path(path: &str) -> String {
        path.replace("{*", "{")
    }

    /// The bucket a route takes as the document names it (`x-rate-limit`).
    fn bucket(limit: Limit) -> String {
        match limit {
            Limit::Bucket(kind) => format!("{kind:?}").to_lowercase(),
            Limit::Free(_) => "free".to_string(),
        }
    }

    /// `value`, with a `$ref` into this document followed.
    fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
        match value.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let target = doc
                    .pointer(r.strip_prefix('#').expect("a local $ref"))
                    .unwrap_or_else(|| panic!("{r} is not in the document"));
                resolve(doc, target)
            }
            None => value,
        }
    }

    /// Every operation: (method, path, operation).
    fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
        let mut all = Vec::new();
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, op) in item.as_object().expect("a path item") {
                all.push((method.clone(), path.clone(), op));
            }
        }
        all
    }

    #[test]
    fn the_document_and_the_route_table_list_the_same_operations() {
        let doc = document();
        assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
        let documented: BTreeSet<(String, String)> = operations(&doc)
            .into_iter()
            .map(|(m, p, _)| (m, p))
            .collect();
        let mut served = BTreeSet::new();
        for route in routes() {
            let method = route.method.as_str().to_lowercase();
            let path = openapi_path(route.path);
            let op = doc["paths"][&path][&method].as_object().unwrap_or_else(|| {
                panic!(
                    "{} {} is a route but not in openapi.json",
                    route.method, route.path
                )
            });
            assert_eq!(
                op.get("x-rate-limit").and_then(Value::as_str),
                Some(bucket(route.limit).as_str()),
                "{} {}: x-rate-limit is not the route's bucket",
                route.method,
                route.path
            );
            served.insert((method, path));
        }
        let extra: Vec<_> = documented.difference(&served).collect();
        assert!(extra.is_empty(), "documented but not routes: {extra:?}");
    }

    #[test]
    fn every_path_parameter_is_described_and_every_operation_id_is_unique() {
        let doc = document();
        let mut ids = BTreeSet::new();
        for (method, path, op) in operations(&doc) {
            let id = op["operationId"].as_str().expect("an operationId");
            assert!(ids.insert(id.to_string()), "operationId {id} twice");
            let in_path: BTreeSet<&str> = path
                .split('/')
                .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
                .collect();
            let described: BTreeSet<&str> = op["parameters"]
                .as_array()
                .map(|ps| {
                    ps.iter()
                        .filter(|p| p["in"] == "path")
                        .map(|p| {
                            assert_eq!(p["required"], true, "{method} {path}");
                            p["name"].as_str().expect("a name")
                        })
                        .collect()
                })
                .unwrap_or_default();
            assert_eq!(in_path, described, "{method} {path}: path parameters");
        }
    }

    /// The refusals every route can give are documented, each with the
    /// API's error object: 400 and 429 anywhere (a request the framework
    /// cannot read; the per-client connection cap), and 429 with
    /// `Retry-After` on every rate-limited route; 400 and 413 where a body
    /// is read; 404 where a game or thing is named in the path; 500 and
    /// 503 (`internal`, `database_timeout`) where the database is asked.
    #[test]
    fn every_route_documents_its_refusals_with_the_error_object() {
        let doc = document();
        for (method, path, op) in operations(&doc) {
            let responses = op["responses"].as_object().expect("responses");
            let at = |status: &str| -> &Value {
                resolve(
                    &doc,
                    responses
                        .get(status)
                        .unwrap_or_else(|| panic!("{method} {path} does not document {status}")),
                )
            };
            let mut needed = vec!["400", "429"];
            if op.get("requestBody").is_some() {
                needed.push("413");
            }
            if path.contains('{') && path.starts_with("/api/") {
                needed.push("404");
            }
            if path.starts_with("/api/games") {
                needed.extend(["500", "503"]);
            }
            for status in needed {
                at(status);
            }
            let retry = resolve(&doc, &at("429")["headers"]["Retry-After"]);
            assert_eq!(
                retry["required"], true,
                "{method} {path}: 429 without Retry-After"
            );
            for (status, response) in responses {
                let code: u16 = status.parse().expect("a status, not a range");
                if code < 400 || (path == "/api/health" && code == 503) {
                    continue;
                }
                let content = &resolve(&doc, response)["content"];
                let schema = &content["application/json"]["schema"]["$ref"];
                assert_eq!(
                    schema, "#/components/schemas/Error",
                    "{method} {path}: {status} is not the error object"
                );
                assert_eq!(content.as_object().map(|c| c.len()), Some(1));
            }
            assert!(
                responses
                    .keys()
                    .any(|s| s.starts_with('1') || s.starts_with('2')),
                "{method} {path} has no success"
            );
        }
    }

    /// The error object as the document describes it is the one
    /// `ApiError::body` writes, params and reason included.
    #[test]
    fn the_error_object_is_the_one_the_server_writes() {
        let doc = document();
        let schema = &doc["components"]["schemas"]["Error"];
        let inner = &schema["properties"]["error"];
        let fields: BTreeSet<&str> = inner["properties"]
            .as_object()
            .expect("the error's fields")
            .keys()
            .map(String::as_str)
            .collect();
        let e = crate::error::ApiError::bad_request("bad_move", "no")
            .with("move", "x")
            .because(&punct_core::IllegalMove::Unchanged);
        let body = e.body();
        let written: BTreeSet<&str> = body["error"]
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(fields, written);
        assert_eq!(inner["required"], serde_json::json!(["code", "message"]));
        assert_eq!(schema["required"], serde_json::json!(["error"]));
    }

    /// Every `$ref` points at something in the document.
    #[test]
    fn every_reference_resolves() {
        fn walk(doc: &Value, v: &Value, n: &mut usize) {
            match v {
                Value::Object(m) => {
                    if m.contains_key("$ref") {
                        resolve(doc, v);
                        *n += 1;
                    }
                    m.values().for_each(|x| walk(doc, x, n));
                }
                Value::Array(a) => a.iter().for_each(|x| walk(doc, x, n)),
                _ => {}
            }
        }
        let doc = document();
        let mut n = 0;
        walk(&doc, &doc, &mut n);
        assert!(n > 100);
    }
}
