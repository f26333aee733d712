//! Passkeys through the real binary, answered by a software passkey
//! (`punct_accounts::passkey::soft`: real keys and signatures): signing
//! up with a passkey, out, and in again with no name typed (the session
//! cookie as a password's), a replayed finish refused, a page reached by
//! a bare IP told why it has no passkeys, another origin's answer
//! refused, `--public-url` as the relying party, the per-account limit,
//! adding and removing passkeys (never the last way to sign in), a first
//! password, deletion confirmed by a fresh passkey sign-in, and a
//! ceremony begun on one instance finished on another (PostgreSQL). Run
//! on SQLite, and again on PostgreSQL by `scripts/test.sh`.

mod common;

use common::{assert_error, http_agent, two_instances, Server};
use punct_accounts::passkey::soft::SoftDevice;
use serde_json::{json, Value};

/// A browser on a page of the site: the `Host` it asks for (a name the
/// server on 127.0.0.1 answers to), its page's origin, its cookie.
struct Browser {
    agent: ureq::Agent,
    /// `http://127.0.0.1:PORT`: where it connects.
    base: String,
    host: String,
    origin: String,
    cookie: Option<String>,
}

impl Browser {
    /// On the page `http://localhost:PORT`.
    fn on(server: &Server) -> Browser {
        let port = server.addr.rsplit(':').next().unwrap_or_default();
        Browser::at(server, &format!("localhost:{port}"))
    }

    /// On the page `http://HOST`, connecting to `server`.
    fn at(server: &Server, host: &str) -> Browser {
        Browser {
            agent: http_agent(),
            base: server.base.clone(),
            host: host.to_string(),
            origin: format!("http://{host}"),
            cookie: None,
        }
    }

    /// The same browser (cookie and page) talking to another instance.
    fn moved_to(&self, server: &Server) -> Browser {
        Browser {
            agent: http_agent(),
            base: server.base.clone(),
            host: self.host.clone(),
            origin: self.origin.clone(),
            cookie: self.cookie.clone(),
        }
    }

    /// Sends a request: the status, the `Set-Cookie` it got, the body.
    fn send(&mut self, method: &str, path: &str, body: Option<&Value>) -> (u16, String, Value) {
        let mut req = ureq::http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("host", &self.host);
        if let Some(c) = &self.cookie {
            req = req.header("cookie", format!("punct_session={c}"));
        }
        if method != "GET" {
            req = req.header("origin", &self.origin);
        }
        let resp = match body {
            Some(b) => self.agent.run(
                req.header("content-type", "application/json")
                    .body(b.to_string())
                    .expect("a request"),
            ),
            None => self.agent.run(req.body(String::new()).expect("a request")),
        }
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = resp.status().as_u16();
        let set = resp
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("punct_session="))
            .unwrap_or("")
            .to_string();
        if let Some(value) = set
            .split(';')
            .next()
            .and_then(|p| p.strip_prefix("punct_session="))
        {
            self.cookie = (!value.is_empty()).then(|| value.to_string());
        }
        let text = resp.into_body().read_to_string().expect("a body");
        (status, set, common::to_json(&text))
    }

    fn post(&mut self, path: &str, body: &Value) -> (u16, Value) {
        let (s, _, v) = self.send("POST", path, Some(body));
        (s, v)
    }

    fn account(&mut self) -> Value {
        let (s, _, v) = self.send("GET", "/api/account", None);
        assert_eq!(s, 200, "{v}");
        v
    }

    /// Begins a ceremony: its id and the options.
    fn start(&mut self, path: &str, body: &Value) -> (String, Value) {
        let (status, started) = self.post(path, body);
        assert_eq!(status, 200, "{path}: {started}");
        let id = started["ceremony"].as_str().expect("a ceremony id");
        (id.to_string(), started["options"].clone())
    }

    /// Signs up as `name` with a new passkey on `device`: the user.
    fn sign_up(&mut self, device: &mut SoftDevice, name: &str) -> Value {
        let finish = self.sign_up_answer(device, name);
        let (status, body) = self.post("/api/account/passkey/signup/finish", &finish);
        assert_eq!(status, 201, "signing up {name}: {body}");
        body["user"].clone()
    }

    /// The finish of a sign-up as `name`, not sent yet.
    fn sign_up_answer(&mut self, device: &mut SoftDevice, name: &str) -> Value {
        let (ceremony, options) =
            self.start("/api/account/passkey/signup/start", &json!({"name": name}));
        let credential = device.create(&self.origin, &options).expect("a passkey");
        json!({"ceremony": ceremony, "credential": credential})
    }

    /// The finish of a sign-in with `device`, not sent yet.
    fn sign_in_answer(&mut self, device: &mut SoftDevice) -> Value {
        let (ceremony, options) = self.start("/api/account/passkey/signin/start", &json!({}));
        let credential = device.get(&self.origin, &options).expect("an assertion");
        json!({"ceremony": ceremony, "credential": credential})
    }

    fn sign_in(&mut self, device: &mut SoftDevice) -> (u16, Value) {
        let finish = self.sign_in_answer(device);
        self.post("/api/account/passkey/signin/finish", &finish)
    }

    /// Adds a passkey on `device` to the signed-in account.
    fn add(&mut self, device: &mut SoftDevice, label: &str) -> (u16, Value) {
        let (ceremony, options) = self.start("/api/account/passkey/add/start", &json!({}));
        let credential = device.create(&self.origin, &options).expect("a passkey");
        self.post(
            "/api/account/passkey/add/finish",
            &json!({"ceremony": ceremony, "credential": credential, "label": label}),
        )
    }

    fn sign_out(&mut self) {
        let (status, body) = self.post("/api/account/signout", &json!({}));
        assert_eq!(status, 200, "{body}");
        assert!(self.cookie.is_none());
    }
}

#[test]
fn a_passkey_signs_up_signs_out_and_signs_in_without_a_name() {
    let server = Server::start();
    let mut b = Browser::on(&server);
    let mut device = SoftDevice::new();
    let site = b.account();
    assert_eq!(site["user"], Value::Null);
    assert_eq!(site["passkey_site"], json!({"ok": true, "id": "localhost"}));

    let (ceremony, options) = b.start(
        "/api/account/passkey/signup/start",
        &json!({"name": "Ada_1"}),
    );
    let public = &options["publicKey"];
    assert_eq!(public["rp"]["id"], "localhost", "{options}");
    assert_eq!(public["user"]["name"], "Ada_1");
    assert_eq!(public["authenticatorSelection"]["residentKey"], "required");
    let credential = device.create(&b.origin, &options).unwrap();
    let (status, set, body) = b.send(
        "POST",
        "/api/account/passkey/signup/finish",
        Some(&json!({"ceremony": ceremony, "credential": credential, "label": "My laptop"})),
    );
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["user"]["name"], "Ada_1");
    assert_eq!(body["user"]["password"], false, "a passkey, no password");
    // The cookie as a password sign-up sets it.
    assert!(set.contains("; HttpOnly"), "{set}");
    assert!(set.contains("; SameSite=Lax"), "{set}");
    assert!(set.contains("; Path=/"), "{set}");
    assert!(set.contains("; Max-Age=2592000"), "{set}");
    let account = b.account();
    assert_eq!(account["user"]["name"], "Ada_1");
    let keys = account["passkeys"].as_array().expect("passkeys").clone();
    assert_eq!(keys.len(), 1, "{account}");
    assert_eq!(keys[0]["name"], "My laptop");
    assert_eq!(keys[0]["id"], device.held()[0].id.as_str());
    assert_eq!(keys[0]["used"], Value::Null);

    b.sign_out();
    assert_eq!(b.account()["user"], Value::Null);
    // No name typed: the passkey the device offers names the account.
    let (ceremony, options) = b.start("/api/account/passkey/signin/start", &json!({}));
    assert!(
        options["publicKey"]["allowCredentials"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{options}"
    );
    let credential = device.get(&b.origin, &options).unwrap();
    let (status, set, body) = b.send(
        "POST",
        "/api/account/passkey/signin/finish",
        Some(&json!({"ceremony": ceremony, "credential": credential})),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["user"]["name"], "Ada_1");
    assert!(set.contains("; HttpOnly; SameSite=Lax"), "{set}");
    let account = b.account();
    assert_eq!(account["user"]["name"], "Ada_1");
    assert!(
        account["passkeys"][0]["used"].as_i64().is_some(),
        "{account}"
    );
    // The name is taken as any other account's.
    let mut other = Browser::on(&server);
    let answer = other.post(
        "/api/account/passkey/signup/start",
        &json!({"name": "ada_1"}),
    );
    assert_error(&answer, 409, "name_taken");
    let answer = other.post("/api/account/passkey/signup/start", &json!({"name": "a"}));
    assert_error(&answer, 422, "name_length");
}

#[test]
fn a_replayed_finish_is_refused() {
    let server = Server::start();
    let mut b = Browser::on(&server);
    let mut device = SoftDevice::new();
    let finish = b.sign_up_answer(&mut device, "replay");
    let (status, _) = b.post("/api/account/passkey/signup/finish", &finish);
    assert_eq!(status, 201);
    let again = b.post("/api/account/passkey/signup/finish", &finish);
    assert_error(&again, 400, "passkey_expired");
    b.sign_out();
    let finish = b.sign_in_answer(&mut device);
    let (status, _) = b.post("/api/account/passkey/signin/finish", &finish);
    assert_eq!(status, 200);
    b.sign_out();
    let again = b.post("/api/account/passkey/signin/finish", &finish);
    assert_error(&again, 400, "passkey_expired");
    assert_eq!(
        b.account()["user"],
        Value::Null,
        "not signed in by a replay"
    );
    // A ceremony of one kind does not finish another.
    let (ceremony, options) = b.start("/api/account/passkey/signin/start", &json!({}));
    let credential = device.get(&b.origin, &options).unwrap();
    let wrong = b.post(
        "/api/account/passkey/signup/finish",
        &json!({"ceremony": ceremony, "credential": credential}),
    );
    assert_error(&wrong, 400, "passkey_expired");
    let made_up = b.post(
        "/api/account/passkey/signin/finish",
        &json!({"ceremony": "not-a-ceremony", "credential": credential}),
    );
    assert_error(&made_up, 400, "passkey_expired");
}

#[test]
fn a_page_at_a_bare_ip_is_told_why_it_has_no_passkeys() {
    let server = Server::start();
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    for host in [format!("127.0.0.1:{port}"), format!("[::1]:{port}")] {
        let mut b = Browser::at(&server, &host);
        let site = b.account()["passkey_site"].clone();
        assert_eq!(site["ok"], false, "{host}: {site}");
        assert_eq!(site["code"], "passkeys_need_host_name", "{site}");
        for (path, body) in [
            (
                "/api/account/passkey/signup/start",
                json!({"name": "ip_user"}),
            ),
            ("/api/account/passkey/signin/start", json!({})),
        ] {
            let answer = b.post(path, &body);
            assert_error(&answer, 400, "passkeys_need_host_name");
            let message = answer.1["error"]["message"].as_str().unwrap();
            assert!(message.contains("http://localhost:PORT"), "{message}");
            assert!(message.contains("--public-url"), "{message}");
        }
    }
}

#[test]
fn an_answer_signed_for_another_origin_is_refused() {
    let server = Server::start();
    let mut b = Browser::on(&server);
    let mut device = SoftDevice::new();
    let (ceremony, options) = b.start(
        "/api/account/passkey/signup/start",
        &json!({"name": "elsewhere"}),
    );
    // The page that asked the device is another port's.
    let credential = device.create("http://localhost:1", &options).unwrap();
    let answer = b.post(
        "/api/account/passkey/signup/finish",
        &json!({"ceremony": ceremony, "credential": credential}),
    );
    assert_error(&answer, 400, "passkey_refused");
    let answer = b.post(
        "/api/account/passkey/signup/finish",
        &json!({"ceremony": "x", "credential": {"id": 1}}),
    );
    assert_error(&answer, 400, "passkey_expired");
    b.sign_up(&mut device, "elsewhere");
    b.sign_out();
    let (ceremony, options) = b.start("/api/account/passkey/signin/start", &json!({}));
    let credential = device.get("http://localhost:1", &options).unwrap();
    let answer = b.post(
        "/api/account/passkey/signin/finish",
        &json!({"ceremony": ceremony, "credential": credential}),
    );
    assert_error(&answer, 401, "passkey_refused");
    let (ceremony, _) = b.start("/api/account/passkey/signin/start", &json!({}));
    let answer = b.post(
        "/api/account/passkey/signin/finish",
        &json!({"ceremony": ceremony, "credential": {"id": "x"}}),
    );
    assert_error(&answer, 400, "bad_passkey");
}

#[test]
fn the_public_url_is_the_relying_party() {
    let server = Server::builder()
        .flags(&["--public-url", "https://punct.example.org"])
        .start();
    let mut b = Browser::at(&server, "punct.example.org");
    b.origin = "https://punct.example.org".into();
    let mut device = SoftDevice::new();
    assert_eq!(
        b.account()["passkey_site"],
        json!({"ok": true, "id": "punct.example.org"})
    );
    let (_, options) = b.start(
        "/api/account/passkey/signup/start",
        &json!({"name": "public"}),
    );
    assert_eq!(options["publicKey"]["rp"]["id"], "punct.example.org");
    b.sign_up(&mut device, "public");
    b.sign_out();
    let (status, body) = b.sign_in(&mut device);
    assert_eq!((status, &body["user"]["name"]), (200, &json!("public")));
    // Behind its proxy the server also answers to localhost, but the
    // site is the public one.
    let mut local = Browser::on(&server);
    let (_, options) = local.start("/api/account/passkey/signin/start", &json!({}));
    assert_eq!(options["publicKey"]["rpId"], "punct.example.org");
}

#[test]
fn sign_in_tries_against_one_account_are_limited() {
    let server = Server::start();
    let mut b = Browser::on(&server);
    let mut device = SoftDevice::new();
    b.sign_up(&mut device, "limited");
    b.sign_out();
    // Six tries a minute per account (the client's own bucket allows
    // ten finishes, so the account's limit is the one met).
    for n in 0..6 {
        let (status, body) = b.sign_in(&mut device);
        assert_eq!(status, 200, "try {n}: {body}");
        b.sign_out();
    }
    let answer = b.sign_in(&mut device);
    assert_error(&answer, 429, "account_limited");
}

#[test]
fn passkeys_are_added_and_removed_but_never_the_last_way_in() {
    let server = Server::start();
    let mut b = Browser::on(&server);
    let mut laptop = SoftDevice::new();
    b.sign_up(&mut laptop, "keys");
    let first = b.account()["passkeys"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let answer = b.post("/api/account/passkey/remove", &json!({"id": first}));
    assert_error(&answer, 409, "last_sign_in");
    // The same device again is excluded; another is added.
    let (_, options) = b.start("/api/account/passkey/add/start", &json!({}));
    assert_eq!(
        options["publicKey"]["excludeCredentials"][0]["id"],
        first.as_str()
    );
    assert!(laptop.create(&b.origin, &options).is_err());
    let mut phone = SoftDevice::new();
    let (status, added) = b.add(&mut phone, "Phone");
    assert_eq!(status, 201, "{added}");
    assert_eq!(added["passkey"]["name"], "Phone");
    assert_eq!(b.account()["passkeys"].as_array().map(Vec::len), Some(2));
    // Either device signs in.
    b.sign_out();
    let (status, _) = b.sign_in(&mut phone);
    assert_eq!(status, 200);
    let (status, body) = b.post("/api/account/passkey/remove", &json!({"id": first}));
    assert_eq!((status, &body), (200, &json!({"removed": true})));
    let answer = b.post("/api/account/passkey/remove", &json!({"id": first}));
    assert_error(&answer, 404, "no_passkey");
    let second = added["passkey"]["id"].as_str().unwrap().to_string();
    let answer = b.post("/api/account/passkey/remove", &json!({"id": second}));
    assert_error(&answer, 409, "last_sign_in");
    // The removed passkey signs in no more.
    let mut other = Browser::on(&server);
    let answer = other.sign_in(&mut laptop);
    assert_error(&answer, 401, "passkey_unknown");
    // A first password, set without a current one; then the last
    // passkey may go, and the password signs in.
    let answer = b.post(
        "/api/account/password",
        &json!({"new": "a long new password"}),
    );
    assert_eq!(answer.0, 200, "{}", answer.1);
    assert_eq!(b.account()["user"]["password"], true);
    let answer = b.post(
        "/api/account/password",
        &json!({"new": "another new password"}),
    );
    assert_error(&answer, 403, "wrong_password");
    let (status, _) = b.post("/api/account/passkey/remove", &json!({"id": second}));
    assert_eq!(status, 200);
    let (status, body) = other.post(
        "/api/account/signin",
        &json!({"name": "keys", "password": "a long new password"}),
    );
    assert_eq!(status, 200, "{body}");
    // Adding needs an account.
    let mut stranger = Browser::on(&server);
    let answer = stranger.post("/api/account/passkey/add/start", &json!({}));
    assert_error(&answer, 401, "not_signed_in");
}

#[test]
fn a_passkey_account_is_deleted_by_a_fresh_passkey_sign_in() {
    let server = Server::start();
    let mut ada = Browser::on(&server);
    let mut ada_key = SoftDevice::new();
    ada.sign_up(&mut ada_key, "ada_del");
    let mut bo = Browser::on(&server);
    let mut bo_key = SoftDevice::new();
    bo.sign_up(&mut bo_key, "bo_del");
    let answer = ada.post(
        "/api/account/delete",
        &json!({"password": "anything at all"}),
    );
    assert_error(&answer, 422, "no_password");
    let answer = ada.post("/api/account/delete", &json!({}));
    assert_error(&answer, 400, "bad_json");
    // Another account's passkey does not confirm it.
    let proof = ada.sign_in_answer(&mut bo_key);
    let answer = ada.post("/api/account/delete", &json!({"passkey": proof}));
    assert_error(&answer, 403, "wrong_passkey");
    let proof = ada.sign_in_answer(&mut ada_key);
    let (status, body) = ada.post("/api/account/delete", &json!({"passkey": proof}));
    assert_eq!((status, &body), (200, &json!({"deleted": true})), "{body}");
    assert_eq!(ada.account()["user"], Value::Null);
    let answer = ada.sign_in(&mut ada_key);
    assert_error(&answer, 401, "passkey_unknown");
    assert_eq!(bo.account()["user"]["name"], "bo_del", "the other stays");
}

#[test]
fn a_name_taken_between_start_and_finish_is_refused() {
    let server = Server::start();
    let mut b = Browser::on(&server);
    let mut device = SoftDevice::new();
    let finish = b.sign_up_answer(&mut device, "Zed");
    let mut quick = Browser::on(&server);
    let (status, _) = quick.post(
        "/api/account/signup",
        &json!({"name": "zed", "password": "correct horse battery"}),
    );
    assert_eq!(status, 201);
    let answer = b.post("/api/account/passkey/signup/finish", &finish);
    assert_error(&answer, 409, "name_taken");
    assert!(b.cookie.is_none());
    // Its passkey made no account.
    let answer = b.sign_in(&mut device);
    assert_error(&answer, 401, "passkey_unknown");
}

#[test]
fn a_ceremony_begun_on_one_instance_finishes_on_another() {
    let Some((a, b)) = two_instances("a_ceremony_begun_on_one_instance_finishes_on_another", &[])
    else {
        return;
    };
    // One site name in front of both (a balancer): the page's origin is
    // the same whichever instance answers.
    let port = a.addr.rsplit(':').next().unwrap();
    let mut on_a = Browser::at(&a, &format!("localhost:{port}"));
    let mut device = SoftDevice::new();
    let finish = on_a.sign_up_answer(&mut device, "roamer");
    let mut on_b = on_a.moved_to(&b);
    let (status, body) = on_b.post("/api/account/passkey/signup/finish", &finish);
    assert_eq!(status, 201, "{body}");
    let again = on_a.post("/api/account/passkey/signup/finish", &finish);
    assert_error(&again, 400, "passkey_expired");
    on_b.sign_out();
    let finish = on_b.sign_in_answer(&mut device);
    let mut on_a = on_b.moved_to(&a);
    let (status, body) = on_a.post("/api/account/passkey/signin/finish", &finish);
    assert_eq!(status, 200, "{body}");
    assert_eq!(on_a.moved_to(&b).account()["user"]["name"], "roamer");
    let mut replayer = Browser::at(&b, &on_a.host);
    let again = replayer.post("/api/account/passkey/signin/finish", &finish);
    assert_error(&again, 400, "passkey_expired");
}
