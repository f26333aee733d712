//! The page and its files as a browser gets them: compressed as it
//! accepts (brotli, gzip), each with an entity tag, asked again with
//! `If-None-Match` and answered 304 with no body; the WebAssembly too.

mod common;

use common::*;
use std::io::{Read, Write};
use std::net::TcpStream;

/// One raw HTTP/1.1 GET: the status, the headers (lower-case names) and the body.
fn get(
    server: &Server,
    path: &str,
    extra: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = TcpStream::connect(&server.addr).expect("connect");
    let mut request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        server.addr
    );
    for (name, value) in extra {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("read");
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&answer[..end]).to_string();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = answer[end + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = unchunk(&body);
    }
    (status, headers, body)
}

fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n").unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&data[..line_end]).unwrap().trim(), 16)
                .unwrap();
        data = &data[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn files_come_compressed_with_a_tag_and_unchanged_ones_are_not_sent_again() {
    let server = Server::start();
    for path in [
        "/static/app.js",
        "/static/style.css",
        "/",
        "/static/punct.wasm",
        "/static/i18n/de.json",
    ] {
        let (status, plain_headers, plain) = get(&server, path, &[]);
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            header(&plain_headers, "content-encoding"),
            None,
            "{path}: asked for nothing"
        );
        let tag = header(&plain_headers, "etag")
            .expect("an entity tag")
            .to_string();
        assert_eq!(
            header(&plain_headers, "cache-control"),
            Some("no-cache"),
            "{path}"
        );

        // (The page itself is half a kilobyte: smaller, not by half.)
        let factor = if path == "/" { 1 } else { 2 };
        let (status, br_headers, br) = get(&server, path, &[("Accept-Encoding", "br")]);
        assert_eq!(status, 200);
        assert_eq!(
            header(&br_headers, "content-encoding"),
            Some("br"),
            "{path}"
        );
        assert!(
            br.len() * factor < plain.len(),
            "{path}: {} bytes brotli of {}",
            br.len(),
            plain.len()
        );
        let (_, gz_headers, gz) = get(&server, path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(
            header(&gz_headers, "content-encoding"),
            Some("gzip"),
            "{path}"
        );
        assert!(
            gz.len() * factor < plain.len(),
            "{path}: {} bytes gzip of {}",
            gz.len(),
            plain.len()
        );
        eprintln!(
            "{path}: {} bytes, brotli {}, gzip {}",
            plain.len(),
            br.len(),
            gz.len()
        );

        // The browser holds this version: 304, nothing sent.
        let (status, again, body) = get(
            &server,
            path,
            &[("If-None-Match", &tag), ("Accept-Encoding", "br")],
        );
        assert_eq!(status, 304, "{path}");
        assert!(body.is_empty());
        assert_eq!(header(&again, "etag"), Some(tag.as_str()));
        // Another version: the file.
        let (status, _, _) = get(&server, path, &[("If-None-Match", "\"0-0\"")]);
        assert_eq!(status, 200, "{path}");
    }
    // Two files, two tags.
    let tag = |path| {
        header(&get(&server, path, &[]).1, "etag")
            .unwrap()
            .to_string()
    };
    assert_ne!(tag("/static/app.js"), tag("/static/api.js"));
    // An unknown file is still a JSON 404.
    assert_eq!(get(&server, "/static/nope.js", &[]).0, 404);
}

/// The page names its files under this release's prefix, and those are
/// kept for good (`immutable`); the same names without it, or under
/// another release's, are asked again each time; the service worker
/// fetches the names the page uses.
#[test]
fn the_page_names_its_files_by_release_and_those_are_kept_for_good() {
    let server = Server::start();
    let (_, _, page) = get(&server, "/", &[]);
    let page = String::from_utf8(page).unwrap();
    let at = page
        .find("/static/v-")
        .expect("a versioned name in the page");
    let end = at + "/static/v-".len() + page[at + "/static/v-".len()..].find('/').unwrap() + 1;
    let prefix = &page[at..end];
    assert!(
        page.contains(&format!("\"{prefix}app.js\"")),
        "app.js named under {prefix}"
    );
    assert!(
        prefix.ends_with('/') && prefix.len() > "/static/v-/".len(),
        "{prefix}"
    );
    assert!(
        !page.contains("\"/static/app.js\""),
        "app.js also named without the release"
    );
    for name in [
        "app.js",
        "style.css",
        "punct.wasm",
        "i18n/ja.json",
        "engine-worker.js",
    ] {
        let (status, headers, body) = get(&server, &format!("{prefix}{name}"), &[]);
        assert_eq!(status, 200, "{prefix}{name}");
        assert_eq!(
            header(&headers, "cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{name}"
        );
        let (_, _, plain) = get(&server, &format!("/static/{name}"), &[]);
        assert_eq!(body, plain, "{name}: the same bytes under both names");
    }
    // Another release's name: this release's file, asked again each time.
    let (status, headers, _) = get(&server, "/static/v-0000-0/app.js", &[]);
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    assert_eq!(get(&server, &format!("{prefix}nope.js"), &[]).0, 404);
    // The worker caches what the page asks for.
    let (_, headers, worker) = get(&server, "/sw.js", &[]);
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    let worker = String::from_utf8(worker).unwrap();
    assert!(
        worker.contains(&format!("\"{prefix}app.js\"")),
        "the worker's files"
    );
    assert!(worker.contains(&format!("\"{prefix}punct.wasm\"")));
}
