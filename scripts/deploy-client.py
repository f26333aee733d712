#!/usr/bin/env python3
"""The client side of scripts/deploy-test.sh: plays PÜNCT through the
shipped proxy configurations (deploy/nginx.conf, deploy/Caddyfile) over
HTTPS, as people would, and checks what the deployment promises.

Standard library only: HTTP/1.1 and a minimal WebSocket client over
socket and ssl. Each client connects from a loopback address of its own
(127.0.0.2, 127.0.0.3, …: all of 127.0.0.0/8 is this machine), so the
proxy sees distinct clients and the instances behind it see only the
proxy (127.0.0.1).

    deploy-client.py run      the checks (settings in the environment, set
                              by deploy-test.sh); prints TAP-like lines and
                              "# pass N", "# fail N"
    deploy-client.py stub PORT LOG
                              an upstream that is not ready: /api/health
                              answers 503, anything else 200 "stub"; logs
                              each request's method, path and Host to LOG
"""

import base64
import hashlib
import json
import os
import random
import re
import signal
import socket
import ssl
import struct
import subprocess
import sys
import time

HOST = os.environ.get("DEPLOY_HOST", "punct.example.org")
CA = os.environ.get("DEPLOY_CA", "")
TIMEOUT = 10.0

# Every answer's Set-Cookie headers, and how many answers there were.
COOKIES = []
ANSWERS = [0]


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


# ------------------------------------------------------------------ HTTP


def tls_context():
    ctx = ssl.create_default_context(cafile=CA)
    ctx.check_hostname = True
    ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


def connect(port, src="127.0.0.2", tls=True):
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT, source_address=(src, 0))
    if tls:
        sock = tls_context().wrap_socket(sock, server_hostname=HOST)
    return sock


def recv_exact(sock, n, buf):
    while len(buf) < n:
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError("connection closed")
        buf += chunk
    data = bytes(buf[:n])
    del buf[:n]
    return data


def read_head(sock, buf):
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError("connection closed before the answer's head")
        buf += chunk
    end = buf.index(b"\r\n\r\n")
    head = bytes(buf[:end]).decode("latin-1")
    del buf[: end + 4]
    lines = head.split("\r\n")
    status = int(lines[0].split()[1])
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append((name.strip().lower(), value.strip()))
    return status, headers


class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def header(self, name):
        for n, v in self.headers:
            if n == name:
                return v
        return None

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            raise Failure(f"answer {self.status} is not JSON: {self.body[:200]!r}")

    def __repr__(self):
        return f"{self.status} {self.body[:300]!r}"


def request(port, method, path, body=None, src="127.0.0.2", headers=(), tls=True, host=None):
    """One request on its own connection (Connection: close)."""
    try:
        return _request(port, method, path, body, src, headers, tls, host)
    except (OSError, EOFError, ValueError) as e:
        raise Failure(f"{method} {path} to port {port} from {src}: {type(e).__name__}: {e}") from e


def _request(port, method, path, body, src, headers, tls, host):
    if host is None:
        host = f"{HOST}:{port}" if tls else f"127.0.0.1:{port}"
    data = b"" if body is None else json.dumps(body).encode()
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    elif method == "POST":
        lines.append("Content-Length: 0")
    lines += [f"{n}: {v}" for n, v in headers]
    sock = connect(port, src, tls)
    try:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        buf = bytearray()
        status, hdrs = read_head(sock, buf)
        chunked = any(n == "transfer-encoding" and "chunked" in v.lower() for n, v in hdrs)
        length = next((int(v) for n, v in hdrs if n == "content-length"), None)
        if method == "HEAD" or status in (204, 304):
            payload = b""
        elif chunked:
            payload = bytearray()
            while True:
                while b"\r\n" not in buf:
                    chunk = sock.recv(65536)
                    if not chunk:
                        raise EOFError("connection closed in a chunked body")
                    buf += chunk
                i = buf.index(b"\r\n")
                size = int(bytes(buf[:i]).split(b";")[0], 16)
                del buf[: i + 2]
                if size == 0:
                    break
                payload += recv_exact(sock, size + 2, buf)[:size]
            payload = bytes(payload)
        elif length is not None:
            payload = recv_exact(sock, length, buf)
        else:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                buf += chunk
            payload = bytes(buf)
    finally:
        sock.close()
    ANSWERS[0] += 1
    COOKIES.extend(v for n, v in hdrs if n == "set-cookie")
    return Answer(status, hdrs, payload.decode("utf-8", "replace"))


# ------------------------------------------------------------- WebSocket


class Socket:
    """A minimal WebSocket client: frames to the server masked as RFC 6455
    requires, pings answered. Single-threaded: frames are read while the
    caller waits for a message (the server pings only every 30 s), so no
    thread ever reads a TLS connection another one writes or closes."""

    def __init__(self, port, path, src, origin=None, tls=True):
        self.sock = connect(port, src, tls)
        self.buf = bytearray()
        self.parts = bytearray()
        # Messages read while waiting for another: kept, in order, for a
        # later wait (a state may come before the ack it follows, say).
        self.backlog = []
        self.closed = None
        self.body = ""
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {HOST}:{port}" if tls else f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if origin:
            lines.append(f"Origin: {origin}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.status, self.headers = read_head(self.sock, self.buf)
        if self.status != 101:
            length = next((int(v) for n, v in self.headers if n == "content-length"), 0)
            try:
                self.body = recv_exact(self.sock, length, self.buf).decode("utf-8", "replace")
            except (EOFError, OSError):
                pass
            self.close()
            return
        accept = base64.b64encode(
            hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
        ).decode()
        got = next((v for n, v in self.headers if n == "sec-websocket-accept"), None)
        if got != accept:
            self.close()
            raise Failure(f"WebSocket handshake: Sec-WebSocket-Accept {got!r}, expected {accept!r}")

    def _send_frame(self, opcode, payload):
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, message):
        self._send_frame(0x1, json.dumps(message).encode())

    def _frame(self):
        """One whole frame off the buffer: (fin, opcode, payload), or None."""
        b = self.buf
        if len(b) < 2:
            return None
        n, off = b[1] & 0x7F, 2
        if n == 126:
            if len(b) < 4:
                return None
            (n,), off = struct.unpack(">H", b[2:4]), 4
        elif n == 127:
            if len(b) < 10:
                return None
            (n,), off = struct.unpack(">Q", b[2:10]), 10
        if b[1] & 0x80:
            raise Failure("the server masked a frame")
        if len(b) < off + n:
            return None
        frame = (b[0] & 0x80, b[0] & 0x0F, bytes(b[off : off + n]))
        del b[: off + n]
        return frame

    def _next(self, deadline):
        """The next message, None once the socket has closed; TimeoutError
        at the deadline."""
        while self.closed is None:
            try:
                frame = self._frame()
                if frame is None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError
                    self.sock.settimeout(left)
                    chunk = self.sock.recv(65536)
                    if not chunk:
                        self.closed = "closed without a close frame"
                    self.buf += chunk
                    continue
                fin, opcode, payload = frame
                if opcode == 0x9:
                    self._send_frame(0xA, payload)
                elif opcode == 0x8:
                    code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
                    self.closed = f"close frame {code}"
                elif opcode in (0x1, 0x0):
                    self.parts += payload
                    if fin:
                        text, self.parts = self.parts.decode(), bytearray()
                        return json.loads(text)
            except TimeoutError:
                raise
            except (OSError, EOFError, ValueError) as e:
                self.closed = f"{type(e).__name__}: {e}"
        return None

    def wait(self, pred, what, timeout=TIMEOUT):
        """The first message for which pred is true: of those already read,
        else of those still to come."""
        for i, m in enumerate(self.backlog):
            if pred(m):
                del self.backlog[: i + 1]
                return m
        deadline = time.monotonic() + timeout
        while True:
            try:
                m = self._next(deadline)
            except TimeoutError:
                raise Failure(f"{what}: nothing within {timeout:.0f} s")
            if m is None:
                raise Failure(f"{what}: the socket closed ({self.closed})")
            if pred(m):
                return m
            self.backlog.append(m)

    def close(self):
        self.closed = self.closed or "closed by the client"
        try:
            self.sock.close()
        except OSError:
            pass


# ------------------------------------------------------------------ game


def addition_first(state, rng):
    """A legal move, additions preferred: every addition brings the game's
    end (a player's last piece added) nearer, so a game is ~36 plies."""
    legal = state["legal_moves"]
    check(legal, f"ply {state['ply']}: no legal moves in an ongoing game")
    adds = [m for m in legal if "@" in m]
    return rng.choice(adds or legal)


class Game:
    """An online game between two clients (each its own address) through
    one proxy, both players' live sockets open through it."""

    def __init__(self, port, name, white_src, black_src, seed):
        self.port = port
        self.name = name
        self.src = {"white": white_src, "black": black_src}
        self.rng = random.Random(seed)
        self.origin = f"https://{HOST}:{port}"
        made = request(port, "POST", "/api/games", {"mode": "online"}, src=white_src)
        check(made.status == 201, f"{name}: creating an online game: {made!r}")
        m = made.json()
        self.id = m["id"]
        self.tokens = {"white": m["seats"]["white"]}
        invite = m["invite"]
        check(invite and invite["side"] == "black", f"{name}: no invite for black: {m}")
        self.links = dict(m["links"])
        check(
            self.links["invite"] == f"/game/{self.id}#invite={invite['code']}",
            f"{name}: the invite link is {self.links['invite']!r}",
        )
        claim = request(port, "POST", f"/api/games/{self.id}/claim", {"invite": invite["code"]}, src=black_src)
        check(claim.status == 200, f"{name}: claiming the invite: {claim!r}")
        c = claim.json()
        check(c["side"] == "black", f"{name}: the claim gave {c['side']}")
        self.tokens["black"] = c["token"]
        self.links["black"] = c["link"]
        self.state = c["game"]
        check(self.state["invite_open"] is None, f"{name}: invite_open after the claim: {self.state['invite_open']}")
        self.answers = [made.body, claim.body]
        self.sockets = {}
        for side in ("white", "black"):
            self.open_socket(side)
        self.next_id = 1

    def open_socket(self, side):
        path = f"/api/games/{self.id}/live"
        ws = Socket(self.port, path, self.src[side], origin=self.origin)
        check(ws.status == 101, f"{self.name}: {side}'s live socket through the proxy: {ws.status} {ws.body[:200]}")
        version = self.state["version"]
        ws.wait(lambda m: m.get("type") == "state" and m["game"]["version"] >= version,
                f"{self.name}: {side}'s socket: the first state")
        ws.send({"type": "hello", "token": self.tokens[side], "id": f"hello-{side}"})
        ack = ws.wait(lambda m: m.get("id") == f"hello-{side}", f"{self.name}: {side}'s hello")
        check(ack.get("type") == "ack" and ack.get("seats") == [side], f"{self.name}: {side}'s hello: {ack}")
        self.sockets[side] = ws

    def ply(self, watch=True):
        """Plays one legal move of the side to move: over HTTP on even plies,
        over the mover's live socket on odd ones; both sockets must get
        the new state (unless `watch` is false: an HTTP move whose
        sockets the caller looks at itself)."""
        st = self.state
        side = st["to_move"]
        move = addition_first(st, self.rng)
        before = st["version"]
        where = f"{self.name}: ply {st['ply'] + 1} ({side} {move})"
        if st["ply"] % 2 == 0 or not watch:
            a = request(self.port, "POST", f"/api/games/{self.id}/moves",
                        {"move": move, "token": self.tokens[side], "ply": st["ply"]}, src=self.src[side])
            check(a.status == 200, f"{where} over HTTP: {a!r}")
            new = a.json()
            self.answers.append(a.body)
        else:
            rid = self.next_id
            self.next_id += 1
            ws = self.sockets[side]
            ws.send({"type": "move", "move": move, "token": self.tokens[side], "ply": st["ply"], "id": rid})
            ack = ws.wait(lambda m: m.get("id") == rid, f"{where} over the live socket")
            check(ack.get("type") == "ack", f"{where} over the live socket: {ack}")
            new = None
        for s, ws in self.sockets.items() if watch else ():
            got = ws.wait(lambda m: m.get("type") == "state" and m["game"]["version"] > before,
                          f"{where}: {s}'s live socket")
            g = got["game"]
            check(g["last_move"] == move and g["ply"] == st["ply"] + 1,
                  f"{where}: {s}'s socket got ply {g['ply']} {g['last_move']}")
            new = new or g
        self.state = new
        check(new["ply"] == st["ply"] + 1 and new["last_move"] == move, f"{where}: the new state is ply {new['ply']}")

    def play(self, plies=None):
        n = 0
        while self.state["status"] == "ongoing" and (plies is None or n < plies):
            self.ply()
            n += 1
            check(n < 400, f"{self.name}: no end after 400 plies")
        return n

    def close(self):
        for ws in self.sockets.values():
            ws.close()


# --------------------------------------------------------------- checks


class Env:
    def __init__(self):
        e = os.environ
        self.nginx = int(e["DEPLOY_NGINX_PORT"])
        self.nginx_http = int(e["DEPLOY_NGINX_HTTP_PORT"])
        self.caddy = int(e["DEPLOY_CADDY_PORT"])
        self.stub_log = e["DEPLOY_STUB_LOG"]
        self.instances = []
        for item in e["DEPLOY_INSTANCES"].split():
            port, pid = item.split(":")
            self.instances.append((int(port), int(pid)))
        self.rate = int(e["DEPLOY_RATE_LIST"])


def status_direct(port):
    a = request(port, "GET", "/api/status", tls=False, src="127.0.0.1")
    check(a.status == 200, f"/api/status of the instance on {port}: {a!r}")
    return a.json()


def stub_requests(env):
    try:
        with open(env.stub_log) as f:
            return [line.split() for line in f if line.strip()]
    except FileNotFoundError:
        return []


def test_tls(env, port, name):
    # The handshake verifies the certificate against the throwaway CA and
    # the host name; a name the certificate lacks is refused.
    a = request(port, "GET", "/api/health")
    check(a.status == 200 and a.json()["status"] == "ok", f"{name}: /api/health: {a!r}")
    check(a.json()["database"]["kind"] == "postgres", f"{name}: /api/health: {a.body}")
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    try:
        tls_context().wrap_socket(sock, server_hostname="other.example.org").close()
        raise Failure(f"{name}: a TLS handshake for other.example.org was accepted")
    except ssl.SSLError:
        pass
    finally:
        sock.close()
    for h, v in (("x-content-type-options", "nosniff"), ("x-frame-options", "DENY"),
                 ("strict-transport-security", "max-age=31536000")):
        check(a.header(h) == v, f"{name}: {h} is {a.header(h)!r} through the proxy")
    # An error answer carries them too (nginx adds a header to some
    # statuses only, unless `always`).
    e = request(port, "GET", "/api/games/nosuchgame")
    check(e.status == 404 and e.header("strict-transport-security"), f"{name}: a 404 through the proxy: {e.headers}")


def curl(port, *args):
    """curl over HTTP/2 (which this client does not speak) to the proxy; its
    HTTP version, status and body."""
    out = subprocess.run(
        ["curl", "-sS", "--http2", "--cacert", CA, "--resolve", f"{HOST}:{port}:127.0.0.1",
         "--interface", "127.0.0.2", "--max-time", str(TIMEOUT), "-w", "\n%{http_version} %{http_code}", *args],
        capture_output=True, text=True, check=False)
    check(out.returncode == 0, f"curl {' '.join(args)}: {out.stderr.strip()}")
    body, _, tail = out.stdout.rpartition("\n")
    version, code = tail.split()
    return version, int(code), body


def test_h2(env, port, name):
    # Browsers speak HTTP/2 to the proxy: the Host punct checks then comes
    # from the :authority pseudo-header, which the proxy must pass on.
    url = f"https://{HOST}:{port}"
    version, code, body = curl(port, f"{url}/api/board")
    check(version == "2", f"{name}: curl got HTTP/{version}, not HTTP/2")
    check(code == 200 and '"cells"' in body, f"{name}: GET /api/board over HTTP/2: {code} {body[:200]}")
    version, code, body = curl(port, "-H", "Content-Type: application/json", "--data", '{"mode": "hotseat"}',
                               f"{url}/api/games")
    check(code == 201 and '"id"' in body, f"{name}: POST /api/games over HTTP/2: {code} {body[:200]}")
    return "GET and POST answered over HTTP/2"


def test_game(env, port, name, seed):
    g = Game(port, name, "127.0.0.2", "127.0.0.3", seed)
    try:
        plies = g.play()
        res = g.state["result"]
        check(g.state["status"] == "over" and res and res.get("score"), f"{name}: the game did not end: {res}")
        # Anyone may read the finished game and its record through the proxy.
        rec = request(port, "GET", f"/api/games/{g.id}/record", src="127.0.0.4")
        check(rec.status == 200 and res["score"] in rec.body, f"{name}: the record: {rec!r}")
        # Links are addresses on the public host: paths, never an instance's
        # own http:// address; the page they open comes through the proxy,
        # and opens its live socket with wss:// when served over https.
        for key in ("white", "black", "spectate"):
            link = g.links.get(key)
            check(link and link.startswith(f"/game/{g.id}"), f"{name}: links.{key} is {link!r}")
        page = request(port, "GET", g.links["spectate"], src="127.0.0.4")
        # The page names its files by release (kept for good by browsers
        # and proxies: `immutable`); they come through the proxy too.
        named = re.search(r'"(/static/v-[0-9a-f-]+/)app\.js"', page.body)
        check(page.status == 200 and named, f"{name}: the page of {g.links['spectate']}: {page!r}")
        script = request(port, "GET", f"{named.group(1)}api.js", src="127.0.0.4")
        check(script.status == 200 and '"wss"' in script.body, f"{name}: {named.group(1)}api.js: {script.status}")
        for body in g.answers:
            check("http://" not in body and "127.0.0.1" not in body,
                  f"{name}: an answer names an instance's address: {body[:300]}")
        return f"{plies} plies, {res['text']}"
    finally:
        g.close()


def test_public_url(env, port, name):
    # Another Host through the proxy is not served.
    a = request(port, "GET", "/api/board", host=f"evil.example:{port}")
    check(a.status != 200 or '"cells"' not in a.body, f"{name}: Host evil.example was served: {a!r}")
    detail = f"Host evil.example: {a.status}"
    if a.status == 421:
        check(a.json()["error"]["code"] == "bad_host", f"{name}: {a!r}")
    # A live socket from a page of another origin is refused; one from the
    # public URL's origin is accepted.
    made = request(port, "POST", "/api/games", {"mode": "hotseat"}, src="127.0.0.4")
    check(made.status == 201, f"{name}: {made!r}")
    gid = made.json()["id"]
    bad = Socket(port, f"/api/games/{gid}/live", "127.0.0.4", origin="https://evil.example")
    check(bad.status == 403 and "bad_origin" in bad.body, f"{name}: a socket from https://evil.example: {bad.status} {bad.body[:200]}")
    good = Socket(port, f"/api/games/{gid}/live", "127.0.0.4", origin=f"https://{HOST}:{port}")
    check(good.status == 101, f"{name}: a socket from the public origin: {good.status}")
    good.wait(lambda m: m.get("type") == "state", f"{name}: spectator socket")
    good.close()
    return detail + ", foreign Origin 403"


def test_redirect(env):
    a = request(env.nginx_http, "GET", "/game/x?y=1", tls=False, host=HOST)
    loc = a.header("location")
    check(a.status == 301 and loc == f"https://{HOST}/game/x?y=1", f"nginx http: {a.status} {loc}")
    return f"301 {loc}"


METRICS_PATHS = ["/metrics", "//metrics", "/metrics?x=1", "/METRICS", "/%6Detrics", "/metrics/", "/./metrics"]


def test_metrics(env, port, name):
    inside = request(port, "GET", "/metrics", src="127.0.0.1")
    check(inside.status == 200 and "punct_http_requests_total" in inside.body,
          f"{name}: /metrics from 127.0.0.1: {inside.status}")
    for path in METRICS_PATHS:
        a = request(port, "GET", path, src="127.0.0.2")
        check("punct_http_requests_total" not in a.body, f"{name}: GET {path} from 127.0.0.2 showed the metrics ({a.status})")
        if path == "/metrics":
            check(a.status == 403, f"{name}: /metrics from 127.0.0.2: {a.status}")
    return "200 to 127.0.0.1, refused to 127.0.0.2 (" + ", ".join(METRICS_PATHS) + ")"


def test_caddy_health(env):
    # Caddy's active check asks each upstream for /api/health; the stub
    # answers 503 and must then get no player's request.
    end = time.monotonic() + 15
    while not any(r[1] == "/api/health" for r in stub_requests(env)):
        check(time.monotonic() < end, "caddy: no health check reached the stub in 15 s")
        time.sleep(0.1)
    checks = [r for r in stub_requests(env) if r[1] == "/api/health"]
    check(all(r[0] == "GET" and r[2] == HOST for r in checks), f"caddy: health checks: {checks}")
    time.sleep(0.3)
    # Requests from 16 addresses: were the stub in the pool, ip_hash would
    # send some (each 1 in 3) to it.
    for i in range(16):
        a = request(env.caddy, "GET", "/api/board", src=f"127.0.1.{i + 1}")
        check(a.status == 200 and '"cells"' in a.body, f"caddy: /api/board from 127.0.1.{i + 1}: {a!r}")
    return f"{len(checks)} checks of /api/health with Host {HOST}"


def test_stub_untouched(env):
    others = [r for r in stub_requests(env) if r[1] != "/api/health"]
    check(not others, f"caddy: the not-ready upstream got players' requests: {others[:5]}")
    return f"{len(stub_requests(env))} health checks, nothing else"


def test_direct(env):
    # The instances listen on loopback only (deploy-test.sh starts them so,
    # as deploy/punct.service does): only the proxy reaches them. What
    # --trust-proxy promises: the client is the LAST X-Forwarded-For
    # address, whoever sent it, which is why nothing but the proxy may
    # reach an instance. Each forged address is a client of its own ...
    port = env.instances[0][0]
    for i in range(env.rate + 2):
        a = request(port, "GET", "/api/games?limit=1", tls=False, src="127.0.0.20",
                    headers=[("X-Forwarded-For", f"198.51.100.{i + 1}")])
        check(a.status == 200, f"direct: forged X-Forwarded-For 198.51.100.{i + 1}: {a!r}")
    # ... and without the header the peer is the client.
    codes = [request(port, "GET", "/api/games?limit=1", tls=False, src="127.0.0.21").status for _ in range(env.rate + 1)]
    check(codes == [200] * env.rate + [429], f"direct, no X-Forwarded-For: {codes}")
    # A header that does not end in an address is refused.
    a = request(port, "GET", "/api/games?limit=1", tls=False, src="127.0.0.22", headers=[("X-Forwarded-For", "1.2.3.4, nonsense")])
    check(a.status == 400 and "bad_forwarded_for" in a.body, f"direct: X-Forwarded-For ending in nonsense: {a!r}")
    return f"{env.rate + 2} forged addresses trusted as documented; peer bucket 429 after {env.rate}"


def test_client_address(env, port, name, src, other):
    # Through the proxy, forged X-Forwarded-For headers change nothing: all
    # requests of one real client share its bucket ...
    codes = []
    for i in range(env.rate + 3):
        forged = [("X-Forwarded-For", f"203.0.113.{i + 1}")]
        if i % 3 == 1:
            forged = [("X-Forwarded-For", f"203.0.113.{i + 1}, 192.0.2.{i + 1}")]
        elif i % 3 == 2:
            forged = [("X-Forwarded-For", f"203.0.113.{i + 1}"), ("X-Forwarded-For", f"192.0.2.{i + 1}"),
                      ("X-Real-IP", f"192.0.2.{i + 1}"), ("Forwarded", f"for=192.0.2.{i + 1}")]
        codes.append(request(port, "GET", "/api/games?limit=1", src=src, headers=forged).status)
    check(codes == [200] * env.rate + [429] * 3, f"{name}: {src} with forged X-Forwarded-For: {codes}")
    a = request(port, "GET", "/api/games?limit=1", src=src)
    check(a.status == 429 and a.header("retry-after"), f"{name}: {src} afterwards: {a!r}")
    # ... and another real client behind the same proxy has its own: the
    # limits see the client's address, not the proxy's.
    b = request(port, "GET", "/api/games?limit=1", src=other)
    check(b.status == 200, f"{name}: another client {other}: {b!r}")
    return f"{src}: {codes}; {other}: {b.status}"


def test_failover(env):
    # A game through each proxy, a few plies in, both players' sockets open.
    games = [Game(env.nginx, "nginx failover", "127.0.0.2", "127.0.0.3", 11),
             Game(env.caddy, "caddy failover", "127.0.0.2", "127.0.0.3", 12)]
    for g in games:
        g.play(4)
    # Kill (SIGKILL, no shutdown) the instance holding most of the sockets.
    counts = [(status_direct(port)["live_sockets"], port, pid) for port, pid in env.instances]
    counts.sort(reverse=True)
    sockets, port, pid = counts[0]
    check(sockets > 0, f"failover: no instance holds a socket: {counts}")
    os.kill(pid, signal.SIGKILL)
    # Until the process is gone its listening socket may still accept (and
    # then reset) a connection: a race of the kill, not of the failover.
    end = time.monotonic() + 5
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except ConnectionRefusedError:
            break
        check(time.monotonic() < end, f"failover: the killed instance on {port} still accepts after 5 s")
        time.sleep(0.01)
    env.instances = [(p, q) for p, q in env.instances if p != port]
    ng, cg = games

    def reconnect(g):
        # Sockets on the killed instance close, the others answer a ping;
        # a player whose socket closed reconnects through the proxy at once
        # (as the page does) and gets the game as it is.
        n = 0
        for side, ws in list(g.sockets.items()):
            try:
                ws.send({"type": "ping", "id": "after-kill"})
                ws.wait(lambda m: m.get("id") == "after-kill", f"{g.name}: {side}'s socket after the kill", timeout=5)
            except (Failure, OSError):
                if ws.closed is None:
                    raise
                n += 1
                g.open_socket(side)
        return n

    # nginx passes the very next move (a POST) on to the other instance at
    # once: no wait for a health check.
    t0 = time.monotonic()
    ng.ply(watch=False)
    nginx_first = time.monotonic() - t0
    dropped = reconnect(ng)
    # Caddy does so for the sockets' reconnections (GET), and, having left
    # the instance out at the first refusal (fail_duration), the next move
    # goes to the other at once. (Caddy before 2.11.2 cannot resend a
    # request with a body after a refused connection: a move that came
    # before any other request would get 502, caddyserver/caddy#7546.)
    dropped += reconnect(cg)
    t0 = time.monotonic()
    cg.ply()
    caddy_first = time.monotonic() - t0
    firsts = [f"{nginx_first:.2f}", f"{caddy_first:.2f}"]
    check(dropped > 0, "failover: no socket was dropped by the kill")
    for g in games:
        g.play()
        check(g.state["status"] == "over", f"{g.name}: did not end")
        g.close()
    return f"killed the instance on {port} ({sockets} sockets); first moves after it in {', '.join(firsts)} s; {dropped} sockets reconnected; both games finished"


def run():
    env = Env()
    steps = [
        ("nginx: TLS with the throwaway certificate, /api/health, security headers and HSTS", lambda: test_tls(env, env.nginx, "nginx")),
        ("nginx: HTTP/2, as browsers speak it", lambda: test_h2(env, env.nginx, "nginx")),
        ("nginx: a whole online game, both live sockets through the proxy", lambda: test_game(env, env.nginx, "nginx game", 1)),
        ("nginx: --public-url: foreign Host and Origin refused", lambda: test_public_url(env, env.nginx, "nginx")),
        ("nginx: plain HTTP redirects to https://", lambda: test_redirect(env)),
        ("nginx: /metrics served to loopback only", lambda: test_metrics(env, env.nginx, "nginx")),
        ("caddy: health checks of /api/health leave out a not-ready upstream", lambda: test_caddy_health(env)),
        ("caddy: TLS with the throwaway certificate, /api/health, security headers and HSTS", lambda: test_tls(env, env.caddy, "caddy")),
        ("caddy: HTTP/2, as browsers speak it", lambda: test_h2(env, env.caddy, "caddy")),
        ("caddy: a whole online game, both live sockets through the proxy", lambda: test_game(env, env.caddy, "caddy game", 2)),
        ("caddy: --public-url: foreign Host and Origin refused", lambda: test_public_url(env, env.caddy, "caddy")),
        ("caddy: /metrics served to loopback only", lambda: test_metrics(env, env.caddy, "caddy")),
        ("direct to an instance: --trust-proxy trusts X-Forwarded-For as documented", lambda: test_direct(env)),
        ("failover: an instance killed mid-game, both games go on through both proxies", lambda: test_failover(env)),
        ("nginx: the limits see the real client; forged X-Forwarded-For shares its bucket",
         lambda: test_client_address(env, env.nginx, "nginx", "127.0.0.6", "127.0.0.7")),
        ("caddy: the limits see the real client; forged X-Forwarded-For shares its bucket",
         lambda: test_client_address(env, env.caddy, "caddy", "127.0.0.8", "127.0.0.9")),
        ("caddy: the not-ready upstream got nothing but health checks", lambda: test_stub_untouched(env)),
        ("every Set-Cookie over https is Secure", lambda: test_cookies()),
    ]
    passed = failed = 0
    for i, (name, fn) in enumerate(steps, 1):
        t0 = time.monotonic()
        try:
            detail = fn()
        except Failure as e:
            print(f"not ok {i} - {name}\n#   {e}", flush=True)
            failed += 1
            # Later steps build on earlier ones: stop at the first failure.
            print(f"# stopped at step {i} of {len(steps)}", flush=True)
            break
        except Exception as e:  # noqa: BLE001 - a crash is a failure of its step
            print(f"not ok {i} - {name}\n#   {type(e).__name__}: {e}", flush=True)
            failed += 1
            print(f"# stopped at step {i} of {len(steps)}", flush=True)
            break
        passed += 1
        extra = f" ({detail})" if detail else ""
        print(f"ok {i} - {name}{extra} [{time.monotonic() - t0:.1f} s]", flush=True)
    print(f"# pass {passed}")
    print(f"# fail {failed}")
    return 0 if failed == 0 else 1


def test_cookies():
    bad = [c for c in COOKIES if "secure" not in [p.strip().lower() for p in c.split(";")]]
    check(not bad, f"Set-Cookie without Secure: {bad}")
    if not COOKIES:
        return f"the server set no cookie in {ANSWERS[0]} answers"
    return f"{len(COOKIES)} cookies, all Secure"


# ------------------------------------------------------------------ stub


def stub(port, log):
    import http.server

    class Handler(http.server.BaseHTTPRequestHandler):
        def _answer(self):
            with open(log, "a") as f:
                f.write(f"{self.command} {self.path} {self.headers.get('Host', '-')}\n")
            if self.path == "/api/health":
                body, code = b'{"status": "unavailable", "database": {"kind": "stub", "error": "not ready"}}', 503
            else:
                body, code = b"stub", 200
            self.send_response(code)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_HEAD = _answer

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    if sys.argv[1:2] == ["stub"]:
        stub(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1:2] == ["run"]:
        sys.exit(run())
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
