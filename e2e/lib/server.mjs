// Starting and stopping the real `punct serve`, and a thin client of its
// HTTP API (docs/API.md) for the tests' own look-ups.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = path.resolve(E2E_DIR, '..');

/** The server binary: $PUNCT_BIN, else <repo>/target/debug/punct. */
export function serverBinary() {
  return process.env.PUNCT_BIN || path.join(REPO_DIR, 'target', 'debug', 'punct');
}

/**
 * With PUNCT_TEST_BACKEND=postgres: a fresh database named after `dataDir`
 * on the test cluster (PUNCT_TEST_DATABASE_URL, scripts/postgres.sh),
 * migrated; its URL. Otherwise null (the data directory's SQLite file).
 */
function postgresDatabase(dataDir) {
  if (process.env.PUNCT_TEST_BACKEND !== 'postgres') return null;
  const cluster = process.env.PUNCT_TEST_DATABASE_URL;
  if (!cluster) throw new Error('PUNCT_TEST_BACKEND=postgres needs PUNCT_TEST_DATABASE_URL (scripts/test.sh sets both)');
  const name = path.basename(dataDir).toLowerCase().replace(/[^a-z0-9]/g, '_');
  execFileSync('psql', [cluster, '-qXc', `CREATE DATABASE ${name}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = `${cluster.slice(0, cluster.lastIndexOf('/'))}/${name}`;
  execFileSync(serverBinary(), ['db', 'migrate', '--database', url], { stdio: ['ignore', 'ignore', 'pipe'] });
  return url;
}

/**
 * Starts `punct serve --port 0 --data-dir <fresh temp dir> --ai-movetime 50`
 * (plus `args`; with PUNCT_TEST_BACKEND=postgres, on a fresh PostgreSQL
 * database) and resolves once it prints its address. Returns {url, siteUrl,
 * api, stop}: `url` is http://127.0.0.1:PORT, `siteUrl` the address it
 * prints, http://localhost:PORT (where the page may use passkeys).
 */
export async function startServer({ aiMovetime = 50, startTimeoutMs = 20000, args = [] } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'punct-e2e-'));
  const bin = serverBinary();
  const database = postgresDatabase(dataDir);
  const backend = database ? ['--database', database] : [];
  const env = { ...process.env };
  delete env.PUNCT_DATABASE_URL;
  const proc = spawn(bin, ['serve', '--port', '0', '--data-dir', dataDir, '--ai-movetime', String(aiMovetime), ...backend, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  const printed = await new Promise((resolve, reject) => {
    const fail = (e) => { rmSync(dataDir, { recursive: true, force: true }); reject(e); };
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      fail(new Error(`server did not start within ${startTimeoutMs} ms: ${out}${log}`));
    }, startTimeoutMs);
    proc.on('error', (e) => { clearTimeout(timer); fail(new Error(`cannot run ${bin}: ${e.message}`)); });
    proc.on('exit', (code) => { clearTimeout(timer); fail(new Error(`server exited with ${code} before listening: ${out}${log}`)); });
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/open (http:\/\/\S+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
  // It prints http://localhost:PORT (the name passkeys need); the tests
  // open http://127.0.0.1:PORT unless they need the name (`siteUrl`).
  const siteUrl = printed;
  const url = `http://127.0.0.1:${new URL(printed).port}`;
  proc.removeAllListeners('exit');
  proc.stdout.resume();
  // never leave a server behind, even when the test process is ended early
  const killNow = () => { try { proc.kill('SIGKILL'); } catch {} };
  process.once('exit', killNow);
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => { killNow(); rmSync(dataDir, { recursive: true, force: true }); process.exit(130); });
  }
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    }
    process.removeListener('exit', killNow);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, siteUrl, dataDir, proc, api: new Api(url), stop, log: () => log };
}

export class ApiError extends Error {
  constructor(status, body) {
    super(`HTTP ${status}: ${JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
    this.code = body?.error?.code;
  }
}

export class Api {
  constructor(base) { this.base = base; }

  async req(method, p, body, headers = {}) {
    const res = await fetch(this.base + p, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15000),
    });
    const text = await res.text();
    let json;
    try { json = JSON.parse(text); } catch { json = text; }
    if (!res.ok) throw new ApiError(res.status, json);
    return json;
  }

  game(id, ply) { return this.req('GET', `/api/games/${id}${ply === undefined ? '' : `?ply=${ply}`}`); }
  /** The seats `token` holds in game `id` (the state's `you`, asked with the X-Punct-Token header). */
  async you(id, token) { return (await this.req('GET', `/api/games/${id}`, undefined, { 'x-punct-token': token })).you; }
  games(query = '') { return this.req('GET', `/api/games${query}`); }
  create(body) { return this.req('POST', '/api/games', body); }
  importRecord(body) { return this.req('POST', '/api/games/import', body); }
  move(id, token, move, ply) { return this.req('POST', `/api/games/${id}/moves`, { move, token, ...(ply === undefined ? {} : { ply }) }); }
  analyse(body) { return this.req('POST', '/api/analyse', body); }
  board() { return this.req('GET', '/api/board'); }
  async record(id) {
    const res = await fetch(`${this.base}/api/games/${id}/record`, { signal: AbortSignal.timeout(15000) });
    return res.text();
  }

  /** Which side `token` holds in game `id` (probes with a stale pass, which changes nothing). */
  async seatOf(id, token) {
    const g = await this.game(id);
    if (g.status !== 'ongoing') throw new Error('seatOf needs an ongoing game');
    try {
      await this.move(id, token, 'pass', 1e6);
    } catch (e) {
      if (e.code === 'stale') return g.to_move;
      if (e.code === 'not_your_turn') return g.to_move === 'white' ? 'black' : 'white';
      throw e;
    }
    throw new Error('probe move unexpectedly succeeded');
  }

  /** Polls the game until `pred(state)` holds. */
  async waitFor(id, pred, { timeoutMs = 15000, what = 'game state' } = {}) {
    const end = Date.now() + timeoutMs;
    let g;
    for (;;) {
      g = await this.game(id);
      if (pred(g)) return g;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; ply ${g.ply}, to_move ${g.to_move}, status ${g.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
