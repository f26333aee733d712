//! Helpers for the server's integration tests: the real `punct serve`
//! binary on a fresh data directory, JSON over HTTP (ureq) and live
//! sockets (tungstenite).
//!
//! Every test file uses a part of this module only.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The AI's thinking time the test servers use unless told otherwise.
pub const AI_MOVETIME_MS: u64 = 50;

/// How long a test waits for one answer before it fails.
const IO_TIMEOUT: Duration = Duration::from_secs(60);

// ------------------------------------------------------------ the binary

/// The `punct` binary: `$PUNCT_BIN` when set (scripts/test.sh sets the one
/// its `cargo test --workspace` built, whose crates' features differ from a
/// build of `punct-cli` alone: building that here would compile the server
/// a second time), else built once per test process with the profile (and
/// target directory) this test binary was built with.
pub fn punct_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(given) = std::env::var_os("PUNCT_BIN") {
            let bin = PathBuf::from(given);
            assert!(bin.is_file(), "PUNCT_BIN={}: no such file", bin.display());
            return bin;
        }
        // This test runs from <target>/<profile>/deps/<name>-<hash>.
        let exe = std::env::current_exe().expect("the test binary's path");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("the test binary lies in <target>/<profile>/deps")
            .to_path_buf();
        let target_dir = profile_dir
            .parent()
            .expect("the profile directory lies in the target directory");
        let profile = profile_dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a profile directory name")
            .to_string();
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(&workspace)
            .args(["build", "--quiet", "-p", "punct-cli", "--bin", "punct"])
            .arg("--target-dir")
            .arg(target_dir);
        match profile.as_str() {
            "debug" => {}
            "release" => {
                cmd.arg("--release");
            }
            other => {
                cmd.args(["--profile", other]);
            }
        }
        let status = cmd.status().expect("cannot run cargo to build punct");
        assert!(status.success(), "building the punct binary failed");
        let bin = profile_dir.join(format!("punct{}", std::env::consts::EXE_SUFFIX));
        assert!(bin.is_file(), "no punct binary at {}", bin.display());
        bin
    })
}

/// Adds `line` to a server's kept output.
fn keep(log: &Mutex<String>, line: &str) {
    let mut log = log.lock().expect("log lock");
    log.push_str(line);
    log.push('\n');
}

// ------------------------------------------------------------ temp dirs

/// A fresh directory under the system's temp directory, removed on drop.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!(
            "punct-server-test-{tag}-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&path).expect("cannot create a temp dir");
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

// ------------------------------------------------------------ PostgreSQL

/// The throwaway PostgreSQL cluster of this test run (`scripts/postgres.sh`
/// starts it, `scripts/test.sh` passes its URL in `PUNCT_TEST_DATABASE_URL`).
/// `None` when there is none; under `scripts/test.sh`
/// (`PUNCT_REQUIRE_POSTGRES=1`) a missing cluster fails instead.
pub fn postgres_cluster() -> Option<String> {
    let url = std::env::var("PUNCT_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    if url.is_none() && std::env::var("PUNCT_REQUIRE_POSTGRES").is_ok_and(|v| v == "1") {
        panic!("PUNCT_REQUIRE_POSTGRES=1 but PUNCT_TEST_DATABASE_URL is not set");
    }
    url
}

/// [`postgres_cluster`] for `test`; without one, says that the test is
/// skipped and why.
pub fn cluster_for(test: &str) -> Option<String> {
    let url = postgres_cluster();
    if url.is_none() {
        eprintln!("{test}: skipped, no PostgreSQL (PUNCT_TEST_DATABASE_URL is not set)");
    }
    url
}

/// Two `punct serve` instances on one PostgreSQL database of their own
/// (`None`, said, without a cluster), started with `flags` too.
pub fn two_instances(test: &str, flags: &[&str]) -> Option<(Server, Server)> {
    cluster_for(test)?;
    static N: AtomicUsize = AtomicUsize::new(0);
    let url = postgres_database(&format!(
        "punct_two_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let mut all = vec!["--database", url.as_str()];
    all.extend_from_slice(flags);
    let a = Server::builder().flags(&all).start();
    let b = Server::builder().flags(&all).start();
    Some((a, b))
}

/// The servers of this run keep their games in PostgreSQL
/// (`PUNCT_TEST_BACKEND=postgres`; the default is SQLite): each data
/// directory then stands for a database of its own.
pub fn on_postgres() -> bool {
    match std::env::var("PUNCT_TEST_BACKEND").as_deref() {
        Ok("postgres") => true,
        Ok("sqlite") | Err(_) => false,
        Ok(other) => panic!("PUNCT_TEST_BACKEND={other:?}: use sqlite or postgres"),
    }
}

/// The URL of database `name` on the test cluster, created if it does
/// not exist yet and migrated (`punct db migrate`); the same name gives
/// the same database, so a restarted server finds its games.
pub fn postgres_database(name: &str) -> String {
    let cluster = postgres_cluster().expect(
        "PostgreSQL tests need a cluster: run them through scripts/test.sh, or set \
         PUNCT_TEST_DATABASE_URL=postgres://USER@HOST:PORT/postgres",
    );
    let base = cluster
        .rsplit_once('/')
        .map_or(cluster.as_str(), |(base, _)| base);
    let url = format!("{base}/{name}");
    if let Err(said) = psql(&cluster, &format!("CREATE DATABASE {name}")) {
        assert!(
            said.contains("already exists"),
            "creating database {name}: {said}"
        );
    }
    let migrated = Command::new(punct_bin())
        .args(["db", "migrate", "--database", &url])
        .output()
        .expect("cannot run punct db migrate");
    assert!(
        migrated.status.success(),
        "punct db migrate --database {url}: {}",
        String::from_utf8_lossy(&migrated.stderr)
    );
    url
}

/// Runs SQL on `url` with psql; its output (unaligned, tuples only), or
/// what psql said on failure.
pub fn psql(url: &str, sql: &str) -> Result<String, String> {
    let out = Command::new("psql")
        .arg(url)
        .args(["-qXAt", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .output()
        .expect("cannot run psql");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// A database name of its own for `dir` (PostgreSQL names: 63 bytes, no
/// path characters).
pub fn database_name_for(dir: &Path) -> String {
    let hash = dir
        .to_string_lossy()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("punct_test_{hash:016x}")
}

// ------------------------------------------------------------ the server

/// The address a server listens on, from the first line it prints
/// (`PÜNCT server: open http://localhost:PORT/`): `127.0.0.1:PORT`, the
/// address the tests' servers bind (`localhost` is how the page is
/// opened, so that passkeys work; the tests connect to the address).
pub fn listening_addr(first_line: &str) -> Option<String> {
    let host_port = first_line
        .strip_prefix("PÜNCT server: open http://")?
        .strip_suffix('/')?;
    Some(match host_port.strip_prefix("localhost:") {
        Some(port) => format!("127.0.0.1:{port}"),
        None => host_port.to_string(),
    })
}

/// A running `punct serve`; killed (SIGKILL) when dropped.
pub struct Server {
    child: Option<Child>,
    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub base: String,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    pub data_dir: PathBuf,
    agent: ureq::Agent,
    /// Every line the server wrote to stdout, and to stderr when the
    /// builder asked for [`ServerBuilder::capture_log`].
    log: Arc<Mutex<String>>,
    /// The threads that read the server's output, done once it exits.
    readers: Vec<std::thread::JoinHandle<()>>,
    // Dropped after the child is killed (fields drop in order).
    _owned_dir: Option<TempDir>,
}

/// How a test starts `punct serve`: `Server::builder()`, then what differs
/// from the defaults (a fresh data directory of its own, AI moves of
/// [`AI_MOVETIME_MS`], one AI worker per core, no extra flags), then
/// `start()`.
#[must_use]
pub struct ServerBuilder {
    data_dir: Option<PathBuf>,
    ai_movetime_ms: u64,
    ai_workers: Option<u32>,
    flags: Vec<String>,
    open_files: Option<u32>,
    capture_log: bool,
}

impl ServerBuilder {
    /// Keeps what the server writes to stderr too (each line still goes
    /// on to the test's stderr): [`Server::log`] then holds its whole
    /// output.
    pub fn capture_log(mut self) -> ServerBuilder {
        self.capture_log = true;
        self
    }

    /// Keeps the games in `dir`, which outlives the server (a restarted
    /// server finds them there).
    pub fn data_dir(mut self, dir: &Path) -> ServerBuilder {
        self.data_dir = Some(dir.to_path_buf());
        self
    }

    /// The AI thinks this long per move.
    pub fn ai_movetime(mut self, ms: u64) -> ServerBuilder {
        self.ai_movetime_ms = ms;
        self
    }

    /// This many AI searches at once.
    pub fn ai_workers(mut self, n: u32) -> ServerBuilder {
        self.ai_workers = Some(n);
        self
    }

    /// These extra `punct serve` flags.
    pub fn flags(mut self, flags: &[&str]) -> ServerBuilder {
        self.flags.extend(flags.iter().map(|f| f.to_string()));
        self
    }

    /// The server may open at most `n` files (its `ulimit -n`, set by a
    /// shell that then runs it).
    pub fn open_files(mut self, n: u32) -> ServerBuilder {
        self.open_files = Some(n);
        self
    }

    pub fn start(self) -> Server {
        let flags: Vec<&str> = self.flags.iter().map(String::as_str).collect();
        match &self.data_dir {
            Some(dir) => Server::launch(
                self.open_files,
                dir,
                self.ai_movetime_ms,
                self.ai_workers,
                &flags,
                self.capture_log,
            ),
            None => {
                let dir = TempDir::new("data");
                let mut s = Server::launch(
                    self.open_files,
                    dir.path(),
                    self.ai_movetime_ms,
                    self.ai_workers,
                    &flags,
                    self.capture_log,
                );
                s._owned_dir = Some(dir);
                s
            }
        }
    }
}

impl Server {
    /// What differs from the defaults, then `start()`.
    pub fn builder() -> ServerBuilder {
        ServerBuilder {
            data_dir: None,
            ai_movetime_ms: AI_MOVETIME_MS,
            ai_workers: None,
            flags: Vec::new(),
            open_files: None,
            capture_log: false,
        }
    }

    /// A server with every default: `Server::builder().start()`.
    pub fn start() -> Server {
        Server::builder().start()
    }

    fn launch(
        open_files: Option<u32>,
        data_dir: &Path,
        ai_movetime_ms: u64,
        ai_workers: Option<u32>,
        flags: &[&str],
        capture_log: bool,
    ) -> Server {
        let mut cmd = match open_files {
            None => Command::new(punct_bin()),
            Some(n) => {
                let mut sh = Command::new("sh");
                sh.args(["-c", r#"ulimit -n "$0" && exec "$@""#, &n.to_string()])
                    .arg(punct_bin());
                sh
            }
        };
        // A developer's own database is never a test's.
        cmd.env_remove("PUNCT_DATABASE_URL")
            .arg("serve")
            .args(flags)
            .args(["--port", "0", "--ai-movetime"])
            .arg(ai_movetime_ms.to_string())
            .arg("--data-dir")
            .arg(data_dir);
        if let Some(n) = ai_workers {
            cmd.arg("--ai-workers").arg(n.to_string());
        }
        // Flags that name a database win over the run's backend.
        if on_postgres() && !flags.contains(&"--database") {
            cmd.arg("--database")
                .arg(postgres_database(&database_name_for(data_dir)));
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(if capture_log {
                Stdio::piped()
            } else {
                Stdio::inherit()
            })
            .spawn()
            .expect("cannot start punct serve");
        let log = Arc::new(Mutex::new(String::new()));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        let kept = log.clone();
        let mut readers = vec![std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let first = lines.next();
            if let Some(Ok(line)) = &first {
                keep(&kept, line);
            }
            let _ = tx.send(first);
            // Keep draining so the server never blocks on a full pipe.
            for line in lines.map_while(Result::ok) {
                keep(&kept, &line);
            }
        })];
        if let Some(stderr) = child.stderr.take() {
            let kept = log.clone();
            readers.push(std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    eprintln!("{line}");
                    keep(&kept, &line);
                }
            }));
        }
        let first = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(Some(Ok(line))) => line,
            other => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("punct serve did not start: {other:?}");
            }
        };
        let addr = listening_addr(&first)
            .unwrap_or_else(|| panic!("unexpected first line from punct serve: {first:?}"));
        let agent = http_agent();
        Server {
            child: Some(child),
            base: format!("http://{addr}"),
            addr,
            data_dir: data_dir.to_path_buf(),
            agent,
            log,
            readers,
            _owned_dir: None,
        }
    }

    /// What the server has written so far: its stdout, and its stderr if
    /// the builder asked for [`ServerBuilder::capture_log`].
    pub fn log(&self) -> String {
        self.log.lock().expect("log lock").clone()
    }

    /// Stops the server as a service manager would (SIGTERM, then SIGKILL
    /// after `timeout`) and returns everything it wrote, to its last line.
    #[cfg(unix)]
    pub fn stop_and_log(&mut self, timeout: Duration) -> String {
        self.terminate();
        if self.wait_exit(timeout).is_none() {
            self.kill();
        }
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
        self.log()
    }

    /// Kills the server with SIGKILL (no shutdown of any kind) and waits
    /// for it to be gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The server's process id (while it runs).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("a running server").id()
    }

    /// Asks the server to stop (SIGTERM), as a service manager would.
    #[cfg(unix)]
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .expect("cannot run kill");
        assert!(status.success(), "kill -TERM failed");
    }

    /// Waits up to `timeout` for the server to exit by itself; its exit
    /// status, or `None` if it still runs.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let start = Instant::now();
        let child = self.child.as_mut().expect("a running server");
        loop {
            if let Some(status) = child.try_wait().expect("waiting for the server") {
                self.child = None;
                return Some(status);
            }
            if start.elapsed() > timeout {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    // -------------------------------------------------------- HTTP

    /// GET `path`: the status and the body as JSON (a body that is not
    /// JSON comes back as a JSON string).
    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, _, text) = self.get_text(path);
        (status, to_json(&text))
    }

    /// GET `path`: the status, the headers and the body as text.
    pub fn get_text(&self, path: &str) -> (u16, ureq::http::HeaderMap, String) {
        let resp = self
            .agent
            .get(self.url(path))
            .call()
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        read(resp, path)
    }

    /// POST `body` as JSON to `path`.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let resp = self
            .agent
            .post(self.url(path))
            .send_json(body)
            .unwrap_or_else(|e| panic!("POST {path}: {e}"));
        let (status, _, text) = read(resp, path);
        (status, to_json(&text))
    }

    /// POST raw bytes to `path`, with `content_type` if given.
    pub fn post_raw(
        &self,
        path: &str,
        content_type: Option<&str>,
        body: impl Into<Vec<u8>>,
    ) -> (u16, ureq::http::HeaderMap, String) {
        let mut req = self.agent.post(self.url(path));
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        let resp = req
            .send(body.into())
            .unwrap_or_else(|e| panic!("POST {path}: {e}"));
        read(resp, path)
    }

    /// Sends any method without a body.
    pub fn request(&self, method: &str, path: &str) -> (u16, ureq::http::HeaderMap, String) {
        let req = ureq::http::Request::builder()
            .method(method)
            .uri(self.url(path))
            .body(())
            .expect("a request");
        let resp = self
            .agent
            .run(req)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        read(resp, path)
    }

    // -------------------------------------------------------- games

    /// Creates a game from `spec` (the POST /api/games body); 201 or panic.
    pub fn create(&self, spec: Value) -> Created {
        let (status, body) = self.post("/api/games", &spec);
        assert_eq!(status, 201, "creating {spec}: {body}");
        Created::from_json(body)
    }

    /// A new online game with both seats taken: the creator's (white) and
    /// the other, claimed with the invite code (the one way to get it).
    pub fn create_online(&self) -> Created {
        let mut g = self.create(json!({"mode": "online"}));
        let code = g.invite.clone().expect("an online game has an invite");
        let (status, body) = self.claim(&g.id, &code);
        assert_eq!(status, 200, "claiming the seat of {}: {body}", g.id);
        g.black = body["token"].as_str().map(str::to_string);
        g
    }

    /// The game's state; panics unless 200.
    pub fn state(&self, id: &str) -> Value {
        let (status, body) = self.get(&format!("/api/games/{id}"));
        assert_eq!(status, 200, "GET game {id}: {body}");
        body
    }

    /// Plays `mv` with `token` over HTTP: (status, body).
    pub fn play(&self, id: &str, token: &str, mv: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": mv, "token": token}),
        )
    }

    /// Plays `mv` and expects it to succeed; returns the new state.
    pub fn play_ok(&self, id: &str, token: &str, mv: &str) -> Value {
        let (status, body) = self.play(id, token, mv);
        assert_eq!(status, 200, "playing {mv} in {id}: {body}");
        body
    }

    /// POST `{"token", "action"}` to `/api/games/{id}/{what}`.
    pub fn action(&self, id: &str, what: &str, token: &str, action: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/{what}"),
            &json!({"token": token, "action": action}),
        )
    }

    /// Asks `/api/health` until it answers 200 (or panics after
    /// `timeout`): the server can save again.
    pub fn wait_ready(&self, timeout: Duration) {
        let start = Instant::now();
        loop {
            let (status, body) = self.get("/api/health");
            if status == 200 {
                return;
            }
            assert!(start.elapsed() < timeout, "not ready again: {body}");
            // Checks within a second share one answer.
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// Polls the game until `done` holds for its state (or panics after
    /// `timeout`).
    pub fn wait_for(&self, id: &str, timeout: Duration, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let state = self.state(id);
            if done(&state) {
                return state;
            }
            assert!(
                start.elapsed() < timeout,
                "game {id}: waited {timeout:?} in vain; last state ply {} status {} ai_thinking {}",
                state["ply"],
                state["status"],
                state["ai_thinking"]
            );
            // 20 reads a second: the read limit's refill, so a long wait never
            // runs out of it.
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The AI searches holding a worker now (`punct_ai_jobs_running` in
    /// `/metrics`).
    pub fn ai_jobs_running(&self) -> u64 {
        let (status, _, text) = self.request("GET", "/metrics");
        assert_eq!(status, 200, "{text}");
        text.lines()
            .find_map(|l| {
                l.strip_prefix("punct_ai_jobs_running ")?
                    .trim()
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("no punct_ai_jobs_running in {text}"))
    }

    /// Waits until `n` AI searches hold a worker (or panics after
    /// `timeout`): what a test that stops a running search waits for.
    pub fn wait_ai_running(&self, n: u64, timeout: Duration) {
        let start = Instant::now();
        loop {
            let running = self.ai_jobs_running();
            if running == n {
                return;
            }
            assert!(
                start.elapsed() < timeout,
                "{running} AI searches run, not {n}, after {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    // -------------------------------------------------------- live

    /// Opens the live socket of game `id`.
    pub fn live(&self, id: &str) -> Ws {
        Ws::connect(&self.addr, &format!("/api/games/{id}/live"))
            .unwrap_or_else(|e| panic!("live socket of {id}: {e}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An HTTP client that reads error statuses as answers, not failures.
pub fn http_agent() -> ureq::Agent {
    ureq::Agent::new_with_config(
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(IO_TIMEOUT))
            .build(),
    )
}

/// POST `body` as JSON to `url`; a transport failure (the server is gone)
/// is an `Err`.
pub fn try_post(agent: &ureq::Agent, url: &str, body: &Value) -> Result<(u16, Value), String> {
    let mut resp = agent.post(url).send_json(body).map_err(|e| e.to_string())?;
    let status = resp.status().as_u16();
    let text = resp
        .body_mut()
        .read_to_string()
        .map_err(|e| e.to_string())?;
    Ok((status, to_json(&text)))
}

fn read(
    mut resp: ureq::http::Response<ureq::Body>,
    what: &str,
) -> (u16, ureq::http::HeaderMap, String) {
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = resp
        .body_mut()
        .read_to_string()
        .unwrap_or_else(|e| panic!("reading the answer to {what}: {e}"));
    (status, headers, text)
}

/// `text` as JSON, or as a JSON string when it is not JSON.
pub fn to_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

/// Asserts an API error: the status and `{"error": {"code": code, "message": …}}`.
#[track_caller]
pub fn assert_error(answer: &(u16, Value), status: u16, code: &str) {
    let (got_status, body) = answer;
    assert_eq!(
        (*got_status, body["error"]["code"].as_str()),
        (status, Some(code)),
        "expected {status} {code}, got {got_status} {body}"
    );
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "an error without a message: {body}"
    );
}

/// What creating a game answers.
#[derive(Clone, Debug)]
pub struct Created {
    pub id: String,
    pub white: Option<String>,
    pub black: Option<String>,
    /// The code that claims the seat still waiting for its player (online).
    pub invite: Option<String>,
    pub body: Value,
}

impl Created {
    pub fn from_json(body: Value) -> Created {
        let token = |side: &str| body["seats"][side].as_str().map(str::to_string);
        Created {
            id: body["id"].as_str().expect("a game id").to_string(),
            white: token("white"),
            black: token("black"),
            invite: body["invite"]["code"].as_str().map(str::to_string),
            body: body.clone(),
        }
    }

    pub fn white(&self) -> &str {
        self.white.as_deref().expect("a white token")
    }

    pub fn black(&self) -> &str {
        self.black.as_deref().expect("a black token")
    }

    /// The token of `side` (`"white"` / `"black"`).
    pub fn token(&self, side: &str) -> &str {
        match side {
            "white" => self.white(),
            "black" => self.black(),
            other => panic!("no side {other}"),
        }
    }
}

/// A state's `legal_moves` as strings.
pub fn legal_moves(state: &Value) -> Vec<String> {
    state["legal_moves"]
        .as_array()
        .expect("legal_moves is an array")
        .iter()
        .map(|m| m.as_str().expect("a move is a string").to_string())
        .collect()
}

/// A state's `moves` as strings.
pub fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves is an array")
        .iter()
        .map(|m| m.as_str().expect("a move is a string").to_string())
        .collect()
}

pub fn ply(state: &Value) -> u64 {
    state["ply"].as_u64().expect("ply is a number")
}

/// CPU time (user + system) used so far by process `pid` (`"self"` for
/// this one), from `/proc` (Linux; clock ticks taken as 1/100 s); `None`
/// elsewhere. For reports only.
pub fn cpu_time(pid: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which is in parentheses).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

// ------------------------------------------------------------ randomness

/// A tiny seeded generator (xorshift64*), enough to pick moves.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ------------------------------------------------------------ live sockets

/// A live socket: JSON text messages both ways.
pub struct Ws {
    pub socket: tungstenite::WebSocket<TcpStream>,
}

impl Ws {
    /// Connects to `ws://{addr}{path}`. An HTTP answer other than the
    /// upgrade comes back as `Err(status)` text.
    pub fn connect(addr: &str, path: &str) -> Result<Ws, String> {
        let stream = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
        stream
            .set_read_timeout(Some(IO_TIMEOUT))
            .map_err(|e| e.to_string())?;
        stream
            .set_write_timeout(Some(IO_TIMEOUT))
            .map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        match tungstenite::client(format!("ws://{addr}{path}"), stream) {
            Ok((socket, _)) => Ok(Ws { socket }),
            Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(resp))) => {
                Err(format!("HTTP {}", resp.status().as_u16()))
            }
            Err(e) => Err(e.to_string()),
        }
    }

    pub fn send_text(&mut self, text: &str) {
        self.socket
            .send(tungstenite::Message::text(text))
            .unwrap_or_else(|e| panic!("sending on the live socket: {e}"));
    }

    pub fn send(&mut self, msg: &Value) {
        self.send_text(&msg.to_string());
    }

    /// The next JSON text message (control frames are skipped), or an
    /// error text when the socket fails or closes.
    pub fn try_recv(&mut self) -> Result<Value, String> {
        let text = self.try_recv_text()?;
        serde_json::from_str(&text).map_err(|e| format!("a message that is not JSON ({e}): {text}"))
    }

    /// The next text message, unparsed (for clients that read only a few
    /// fields of each). The server's `time` and `presence` messages, which
    /// come on connect and whenever presence changes, are skipped: read
    /// them with [`Ws::try_recv_text_any`].
    pub fn try_recv_text(&mut self) -> Result<String, String> {
        loop {
            let text = self.try_recv_text_any()?;
            if !(text.starts_with(r#"{"type":"time""#) || text.starts_with(r#"{"type":"presence""#))
            {
                return Ok(text);
            }
        }
    }

    /// The next text message, whatever its type.
    pub fn try_recv_text_any(&mut self) -> Result<String, String> {
        loop {
            match self.socket.read() {
                Ok(tungstenite::Message::Text(t)) => return Ok(t.as_str().to_string()),
                Ok(tungstenite::Message::Binary(_)) => {
                    return Err("a binary message".to_string());
                }
                Ok(tungstenite::Message::Close(c)) => return Err(format!("closed: {c:?}")),
                Ok(_) => continue,
                Err(e) => return Err(format!("live socket: {e}")),
            }
        }
    }

    /// The next JSON text message; panics on failure or timeout.
    pub fn recv(&mut self) -> Value {
        self.try_recv().unwrap_or_else(|e| panic!("{e}"))
    }

    /// Reads messages until one satisfies `want`; returns it and the ones
    /// skipped before it.
    pub fn recv_until(&mut self, want: impl Fn(&Value) -> bool) -> (Value, Vec<Value>) {
        let mut skipped = Vec::new();
        loop {
            let msg = self.recv();
            if want(&msg) {
                return (msg, skipped);
            }
            skipped.push(msg);
        }
    }

    /// The next `state` message's game (other messages skipped).
    pub fn next_state(&mut self) -> Value {
        let (msg, _) = self.recv_until(|m| m["type"] == "state");
        msg["game"].clone()
    }

    /// The next `state` message whose game has `ply`.
    pub fn recv_state_at(&mut self, ply: u64) -> Value {
        let (msg, _) =
            self.recv_until(|m| m["type"] == "state" && m["game"]["ply"].as_u64() == Some(ply));
        msg["game"].clone()
    }
}

// ------------------------------------------------------------ seats

impl Server {
    /// Claims the waiting seat of game `id` with invite `code`.
    pub fn claim(&self, id: &str, code: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/claim"),
            &json!({ "invite": code }),
        )
    }

    /// Asks for a new token in place of `token`.
    pub fn renew_token(&self, id: &str, token: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/token"),
            &json!({ "token": token }),
        )
    }

    /// Asks, with a seat's `token`, for a new code for the waiting seat's
    /// invite in place of the old one.
    pub fn renew_invite(&self, id: &str, token: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/invite"),
            &json!({ "token": token }),
        )
    }

    /// GET `path` with a seat token in the `X-Punct-Token` header.
    pub fn get_with_token(&self, path: &str, token: &str) -> (u16, Value) {
        let resp = self
            .agent
            .get(self.url(path))
            .header("x-punct-token", token)
            .call()
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        let (status, _, text) = read(resp, path);
        (status, to_json(&text))
    }
}

// ------------------------------------------------------------ AI limits

impl Server {
    /// POST `body` as JSON to `path` as the client at `ip` (sent as
    /// `X-Forwarded-For`: the server must run with `--trust-proxy`): the
    /// status, the headers and the body as JSON.
    pub fn post_as(
        &self,
        ip: &str,
        path: &str,
        body: &Value,
    ) -> (u16, ureq::http::HeaderMap, Value) {
        let resp = self
            .agent
            .post(self.url(path))
            .header("x-forwarded-for", ip)
            .send_json(body)
            .unwrap_or_else(|e| panic!("POST {path} as {ip}: {e}"));
        let (status, headers, text) = read(resp, path);
        (status, headers, to_json(&text))
    }
}

// ------------------------------------------------------------ clients

impl Ws {
    /// Connects to `ws://{addr}{path}` sending these extra headers (an
    /// `Origin`, or `X-Forwarded-For` for a server with `--trust-proxy`).
    /// A refusal comes back as `Err("HTTP <status> <body>")`.
    pub fn connect_with(addr: &str, path: &str, headers: &[(&str, &str)]) -> Result<Ws, String> {
        use tungstenite::client::IntoClientRequest;
        let stream = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
        stream
            .set_read_timeout(Some(IO_TIMEOUT))
            .map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let mut req = format!("ws://{addr}{path}")
            .into_client_request()
            .map_err(|e| e.to_string())?;
        for (name, value) in headers {
            req.headers_mut().insert(
                tungstenite::http::HeaderName::from_bytes(name.as_bytes())
                    .map_err(|e| e.to_string())?,
                value
                    .parse()
                    .map_err(|_| format!("a bad header value {value:?}"))?,
            );
        }
        match tungstenite::client(req, stream) {
            Ok((socket, _)) => Ok(Ws { socket }),
            Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(resp))) => {
                let body = resp
                    .body()
                    .as_deref()
                    .map(String::from_utf8_lossy)
                    .unwrap_or_default()
                    .to_string();
                Err(format!("HTTP {} {body}", resp.status().as_u16()))
            }
            Err(e) => Err(e.to_string()),
        }
    }
}

// ------------------------------------------------------------ clocks and presence

/// Milliseconds since 1970 now (the server runs on this machine: the
/// same clock).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Ws {
    /// The next JSON message of any type, `time` and `presence` included.
    pub fn recv_any(&mut self) -> Value {
        let text = self.try_recv_text_any().unwrap_or_else(|e| panic!("{e}"));
        serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("a message that is not JSON ({e}): {text}"))
    }

    /// Reads messages of any type until one satisfies `want`, which it
    /// returns.
    pub fn recv_any_until(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            let msg = self.recv_any();
            if want(&msg) {
                return msg;
            }
        }
    }
}

impl Server {
    /// Claims the win by abandonment with `token`.
    pub fn abandon(&self, id: &str, token: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/abandon"),
            &json!({ "token": token }),
        )
    }

    /// An online game with `clock` and both seats taken (white created
    /// it, black claimed the invite).
    pub fn create_online_clock(&self, clock: Value) -> Created {
        let mut g = self.create(json!({"mode": "online", "clock": clock}));
        let code = g.invite.clone().expect("an online game has an invite");
        let (status, body) = self.claim(&g.id, &code);
        assert_eq!(status, 200, "claiming the seat of {}: {body}", g.id);
        g.black = body["token"].as_str().map(str::to_string);
        g
    }
}

// ------------------------------------------------------------ accounts and the lobby

/// Signs up `name` with `password` (with the site's Origin, as the page
/// does); the session cookie's value.
pub fn sign_up_cookie(server: &Server, name: &str, password: &str) -> String {
    let resp = http_agent()
        .post(server.url("/api/account/signup"))
        .header("origin", &server.base)
        .send_json(json!({"name": name, "password": password}))
        .expect("signing up");
    assert_eq!(resp.status().as_u16(), 201);
    let set = resp
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a cookie")
        .to_string();
    set.split(';')
        .next()
        .and_then(|p| p.split_once('='))
        .map(|(_, v)| v.to_string())
        .expect("the cookie's value")
}

/// A lobby socket, signed in with session `cookie` if given; its first
/// message (the list of seeks) read.
pub fn lobby_socket(server: &Server, cookie: Option<&str>) -> (Ws, Value) {
    let cookie = cookie.map(|c| format!("punct_session={c}"));
    let mut headers = vec![];
    if let Some(c) = &cookie {
        headers.push(("cookie", c.as_str()));
    }
    let mut ws = Ws::connect_with(&server.addr, "/api/lobby/live", &headers)
        .unwrap_or_else(|e| panic!("the lobby socket: {e}"));
    let first = ws.try_recv().expect("the list of seeks");
    assert_eq!(first["type"], "seeks", "{first}");
    (ws, first)
}

/// The next message of `kind` on a socket, skipping others (seeks coming
/// and going); an `error` on the way fails the test.
pub fn next_of(ws: &mut Ws, kind: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        let msg = ws
            .try_recv()
            .unwrap_or_else(|e| panic!("waiting for {kind}: {e}"));
        if msg["type"] == kind {
            return msg;
        }
        assert_ne!(msg["type"], "error", "waiting for {kind}: {msg}");
    }
    panic!("no {kind} message within 20 s");
}
