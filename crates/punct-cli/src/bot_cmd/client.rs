//! The server's bots' API over HTTP (docs/API.md, bots): requests signed
//! in with the API token, and NDJSON streams read line by line on a
//! thread of their own. Plain `http://` only (no TLS is built in).

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// A stream that says nothing (not even its keep-alive, every 7 s) for
/// this long is taken for dead.
const SILENCE: Duration = Duration::from_secs(30);
/// The most any other request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A server and the token to sign in with.
pub struct Client {
    base: String,
    token: String,
    agent: ureq::Agent,
    streams: ureq::Agent,
}

/// Why a request got no answer to act on.
#[derive(Debug)]
pub enum Failure {
    /// No answer: the server cannot be reached (or the connection broke).
    Unreachable(String),
    /// An answer other than the one asked for: its status, the API's
    /// error code and message.
    Refused {
        status: u16,
        code: String,
        message: String,
    },
}

impl Failure {
    pub fn text(&self) -> String {
        match self {
            Failure::Unreachable(why) => why.clone(),
            Failure::Refused {
                status,
                code,
                message,
            } => format!("{status} {code}: {message}"),
        }
    }

    /// The server refused the token (gone, or not a bot's): trying again
    /// will not help.
    pub fn is_refusal_of_the_token(&self) -> bool {
        matches!(self, Failure::Refused { status: 401 | 403, code, .. }
            if matches!(code.as_str(), "no_token" | "invalid_token" | "not_a_bot" | "token_and_cookie"))
    }
}

/// The server's address as given, checked: `http://HOST[:PORT]`, with no
/// path (a trailing `/` is dropped).
pub fn server_url(text: &str) -> Result<String, String> {
    let url = text.trim().trim_end_matches('/');
    if url.to_ascii_lowercase().starts_with("https://") {
        return Err(format!(
            "--server `{text}`: https is not built into `punct bot`; reach the server over \
             http (on its own network, or through a tunnel such as `ssh -L`)"
        ));
    }
    let Some(rest) = url.strip_prefix("http://") else {
        return Err(format!(
            "--server `{text}`: expected an address like http://127.0.0.1:8080"
        ));
    };
    if rest.is_empty() || rest.contains(['/', '?', '#', ' ', '@']) {
        return Err(format!(
            "--server `{text}`: expected an address like http://127.0.0.1:8080 (a host and a \
             port, no path)"
        ));
    }
    Ok(url.to_string())
}

impl Client {
    /// A client of the server at `base` (checked by [`server_url`]).
    pub fn new(base: String, token: String) -> Client {
        let agent = ureq::Agent::new_with_config(
            ureq::Agent::config_builder()
                .http_status_as_error(false)
                .timeout_global(Some(REQUEST_TIMEOUT))
                .build(),
        );
        let streams = ureq::Agent::new_with_config(
            ureq::Agent::config_builder()
                .http_status_as_error(false)
                .timeout_connect(Some(Duration::from_secs(10)))
                .timeout_recv_response(Some(REQUEST_TIMEOUT))
                .timeout_per_read(Some(SILENCE))
                .build(),
        );
        Client {
            base,
            token,
            agent,
            streams,
        }
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    fn auth(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// GET `path`: its JSON answer when 2xx.
    pub fn get(&self, path: &str) -> Result<Value, Failure> {
        let resp = self
            .agent
            .get(format!("{}{path}", self.base))
            .header("authorization", &self.auth())
            .call();
        self.answer(resp, path)
    }

    /// POST `body` (none: empty) to `path`: its JSON answer when 2xx.
    pub fn post(&self, path: &str, body: Option<&Value>) -> Result<Value, Failure> {
        let req = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("authorization", &self.auth());
        let resp = match body {
            Some(body) => req.send_json(body),
            None => req.send_empty(),
        };
        self.answer(resp, path)
    }

    fn answer(
        &self,
        resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
        path: &str,
    ) -> Result<Value, Failure> {
        let mut resp = resp.map_err(|e| self.unreachable(&e))?;
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| self.unreachable(&e))?;
        let json: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if (200..300).contains(&status) {
            return Ok(json);
        }
        Err(refused(status, &json, path))
    }

    fn unreachable(&self, e: &ureq::Error) -> Failure {
        Failure::Unreachable(format!("cannot reach {}: {e}", self.base))
    }

    /// Opens the NDJSON stream at `path`.
    pub fn stream(&self, path: &str) -> Result<Lines, Failure> {
        let resp = self
            .streams
            .get(format!("{}{path}", self.base))
            .header("authorization", &self.auth())
            .call()
            .map_err(|e| self.unreachable(&e))?;
        let status = resp.status().as_u16();
        if status != 200 {
            let text = resp
                .into_body()
                .read_to_string()
                .map_err(|e| self.unreachable(&e))?;
            let json = serde_json::from_str(&text).unwrap_or(Value::Null);
            return Err(refused(status, &json, path));
        }
        let reader = BufReader::new(resp.into_body().into_reader());
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in reader.lines() {
                let line = match line {
                    Ok(line) => line,
                    Err(e) => {
                        let _ = tx.send(Some(Line::End(format!("reading it failed: {e}"))));
                        return;
                    }
                };
                let sent = if line.trim().is_empty() {
                    tx.send(None) // kept alive
                } else {
                    match serde_json::from_str::<Value>(&line) {
                        Ok(v) => tx.send(Some(Line::Json(v))),
                        Err(e) => {
                            let _ =
                                tx.send(Some(Line::End(format!("a line that is not JSON ({e})"))));
                            return;
                        }
                    }
                };
                if sent.is_err() {
                    return; // nobody reads it any more
                }
            }
            let _ = tx.send(Some(Line::End("the server closed it".into())));
        });
        Ok(Lines { rx })
    }
}

/// A refusal from an answer's status and body (the API's error object,
/// or something else at that address).
fn refused(status: u16, json: &Value, path: &str) -> Failure {
    let code = json["error"]["code"].as_str().unwrap_or("").to_string();
    let message = json["error"]["message"].as_str().map_or_else(
        || format!("{path} answered {status}, not as a PÜNCT server would"),
        str::to_string,
    );
    Failure::Refused {
        status,
        code: if code.is_empty() {
            "not_punct".into()
        } else {
            code
        },
        message,
    }
}

/// What a stream gives next.
pub enum Line {
    Json(Value),
    /// The stream ended, and why.
    End(String),
}

/// A stream's lines (keep-alives left out).
pub struct Lines {
    /// A line, or `None` for a keep-alive.
    rx: Receiver<Option<Line>>,
}

impl Lines {
    /// The next line (however long it takes while the stream is kept
    /// alive); an end after [`SILENCE`] without even a keep-alive.
    pub fn next(&self) -> Line {
        loop {
            match self.rx.recv_timeout(SILENCE + Duration::from_secs(5)) {
                Ok(Some(line)) => return line,
                Ok(None) => {}
                Err(RecvTimeoutError::Timeout) => return Line::End("it fell silent".into()),
                Err(RecvTimeoutError::Disconnected) => return Line::End("it broke off".into()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_are_checked() {
        assert_eq!(
            server_url("http://127.0.0.1:8080/").as_deref(),
            Ok("http://127.0.0.1:8080")
        );
        assert!(server_url("https://punct.example")
            .unwrap_err()
            .contains("https"));
        assert!(server_url("127.0.0.1:8080")
            .unwrap_err()
            .contains("http://"));
        assert!(server_url("http://host/api").is_err());
        assert!(server_url("http://").is_err());
    }

    #[test]
    fn only_refusals_of_the_token_are_final() {
        let refusal = |status, code: &str| Failure::Refused {
            status,
            code: code.into(),
            message: String::new(),
        };
        assert!(refusal(401, "invalid_token").is_refusal_of_the_token());
        assert!(refusal(403, "not_a_bot").is_refusal_of_the_token());
        assert!(!refusal(429, "rate_limited").is_refusal_of_the_token());
        assert!(!Failure::Unreachable("x".into()).is_refusal_of_the_token());
    }
}
