// Starting and stopping the real `punct serve`, and a thin client of its
// HTTP API (docs/API.md) for the tests' own look-ups.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
 * How many instances `startServer` runs: $PUNCT_TEST_INSTANCES (default 1).
 * Several share one PostgreSQL database (PUNCT_TEST_BACKEND=postgres), as
 * a deployment behind a sticky balancer does: each client on its own
 * instance, every game, seek, session and notification in the database.
 */
export function instanceCount() {
  const raw = process.env.PUNCT_TEST_INSTANCES ?? '1';
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error(`PUNCT_TEST_INSTANCES must be 1 to 8, not ${JSON.stringify(raw)}`);
  if (n > 1 && process.env.PUNCT_TEST_BACKEND !== 'postgres') {
    throw new Error('PUNCT_TEST_INSTANCES above 1 needs PUNCT_TEST_BACKEND=postgres: instances share a PostgreSQL database');
  }
  return n;
}

/** Starts one `punct serve` process; resolves with its printed address once it listens. */
async function spawnInstance(bin, dataDir, args, startTimeoutMs, extraEnv = {}) {
  const env = { ...process.env, ...extraEnv };
  delete env.PUNCT_DATABASE_URL;
  const proc = spawn(bin, ['serve', '--port', '0', '--data-dir', dataDir, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  const instance = { proc, log: '' };
  proc.stderr.on('data', (d) => { instance.log += d; });
  const printed = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start within ${startTimeoutMs} ms: ${out}${instance.log}`));
    }, startTimeoutMs);
    proc.on('error', (e) => { clearTimeout(timer); reject(new Error(`cannot run ${bin}: ${e.message}`)); });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code} before listening: ${out}${instance.log}`)); });
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/open (http:\/\/\S+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
  proc.removeAllListeners('exit');
  proc.stdout.resume();
  // It prints http://localhost:PORT (the name passkeys need); the tests
  // open http://127.0.0.1:PORT unless they need the name (`siteUrl`).
  instance.siteUrl = printed;
  instance.url = `http://127.0.0.1:${new URL(printed).port}`;
  return instance;
}

async function stopInstance({ proc }) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  const t = setTimeout(() => proc.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(t);
}

/**
 * Starts `punct serve --port 0 --data-dir <fresh temp dir> --ai-movetime 50`
 * (plus `args`, and `env` added to its environment; with PUNCT_TEST_BACKEND=postgres, on a fresh PostgreSQL
 * database; with PUNCT_TEST_INSTANCES=N, N instances on it) and resolves
 * once each prints its address. Returns {url, siteUrl, api, stop, at,
 * siteAt, instances}: `url` is the first instance's http://127.0.0.1:PORT,
 * `siteUrl` the address it prints, http://localhost:PORT (where the page
 * may use passkeys); `at(i)` and `siteAt(i)` are instance i's (counted
 * round), so a test puts each of its clients on an instance of its own.
 */
export async function startServer({ aiMovetime = 50, startTimeoutMs = 20000, args = [], env = {} } = {}) {
  const count = instanceCount();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'punct-e2e-'));
  const bin = serverBinary();
  const database = postgresDatabase(dataDir);
  const backend = database ? ['--database', database] : [];
  const instances = [];
  try {
    for (let i = 0; i < count; i++) {
      const dir = count === 1 ? dataDir : path.join(dataDir, `instance${i}`);
      mkdirSync(dir, { recursive: true });
      instances.push(await spawnInstance(bin, dir, ['--ai-movetime', String(aiMovetime), ...backend, ...args], startTimeoutMs, env));
    }
  } catch (e) {
    await Promise.all(instances.map(stopInstance));
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  // never leave a server behind, even when the test process is ended early
  const killNow = () => { for (const { proc } of instances) try { proc.kill('SIGKILL'); } catch {} };
  process.once('exit', killNow);
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => { killNow(); rmSync(dataDir, { recursive: true, force: true }); process.exit(130); });
  }
  const stop = async () => {
    await Promise.all(instances.map(stopInstance));
    process.removeListener('exit', killNow);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const [first] = instances;
  return {
    url: first.url,
    siteUrl: first.siteUrl,
    dataDir,
    proc: first.proc,
    instances: count,
    at: (i) => instances[i % count].url,
    siteAt: (i) => instances[i % count].siteUrl,
    api: new Api(first.url),
    stop,
    log: () => instances.map((x, i) => (count === 1 ? x.log : `--- instance ${i}\n${x.log}`)).join(''),
  };
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
