// The rules and the AI compiled to WebAssembly (punct.wasm, served by the
// real binary) agree with the native crates: the 308 committed
// differential cases (computed by an independent implementation), 1,000
// seeded random games compared ply by ply with `punct engine` (the native
// rules over the engine protocol: position string, status, central counts
// and the legal moves), and level 4's move at a fixed depth on 100
// positions. In Node; and in Chromium 1,000 other random games, and the
// cases again through the page's own worker (engine.js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startServer, serverBinary, REPO_DIR } from '../lib/server.mjs';
import { launchBrowser, newPage, withArtifacts } from '../lib/browser.mjs';
import { loadWasm, expandCompact, seeded } from '../lib/wasm.mjs';

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

const CASES = readFileSync(path.join(REPO_DIR, 'crates/punct-core/tests/data/public.jsonl'), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const byteOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** `punct engine` (native), answering one command's lines at a time. */
function nativeEngine(args = []) {
  const proc = spawn(serverBinary(), ['engine', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout });
  const queue = [];
  const waiting = [];
  lines.on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line); else queue.push(line);
  });
  const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r)));
  const send = (line) => proc.stdin.write(`${line}\n`);
  return {
    send,
    /** The lines up to and including the one `last` accepts. */
    async until(last) {
      const got = [];
      for (;;) {
        const line = await next();
        got.push(line);
        if (last(line)) return got;
      }
    },
    quit() { send('quit'); return new Promise((r) => proc.on('exit', r)); },
  };
}

test('the WebAssembly is served as such, with a policy that lets the page compile it', async () => {
  const res = await fetch(`${server.url}/static/punct.wasm`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/wasm');
  assert.match(res.headers.get('content-security-policy'), /script-src 'self' 'wasm-unsafe-eval'/);
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual([...bytes.slice(0, 4)], [0, 0x61, 0x73, 0x6d], 'the WebAssembly magic number');
});

test('the 308 differential cases agree in WebAssembly', async () => {
  const { call } = await loadWasm(`${server.url}/static/punct.wasm`);
  let checked = 0;
  for (const [i, c] of CASES.entries()) {
    const answer = call({ op: 'legal', variant: c.variant, moves: c.moves });
    assert.equal(typeof answer.moves, 'string', `case ${i + 1}: ${JSON.stringify(answer)}`);
    const legal = answer.moves ? answer.moves.split(' ').sort(byteOrder) : [];
    const view = call({ op: 'view', variant: c.variant, moves: c.moves });
    assert.equal(legal.length, c.legal_count, `case ${i + 1}: the number of legal moves`);
    assert.equal(sha256(legal.join('\n')), c.legal_sha256, `case ${i + 1}: the legal moves`);
    assert.equal(view.outcome, c.status, `case ${i + 1}: the status`);
    assert.equal(view.legal_count, c.legal_count, `case ${i + 1}: the view's count`);
    assert.deepEqual(expandCompact(view.legal_compact).sort(byteOrder), legal, `case ${i + 1}: grouped moves`);
    checked++;
  }
  assert.equal(checked, 308);
});

/**
 * Compares games played by the module with the native rules, ply by ply:
 * `games` yields, per game, its variant and its plies' `{moves, status,
 * legal}` (`legal`: the sorted full list, at some plies). Each game's
 * questions go to `punct engine` while the next game is played.
 */
async function agreeWithNative(games) {
  const native = nativeEngine();
  let compared = 0;
  let plies = 0;
  const ends = { white: 0, black: 0, draw: 0 };
  const compare = async (g, states) => {
    for (const { moves, status, legal } of states) {
      const where = `game ${g + 1}, ply ${moves.length} (${moves.join(' ')})`;
      const d = Object.fromEntries((await native.until((l) => l.startsWith('legal '))).map((l) => {
        const at = l.indexOf(' ');
        return [l.slice(0, at), l.slice(at + 1)];
      }));
      assert.equal(status.position, d.position, `${where}: the position string`);
      assert.equal(status.outcome, d.status, `${where}: the status`);
      assert.equal(`white ${status.central.white} black ${status.central.black}`, d.central, `${where}: the central counts`);
      assert.equal(String(status.legal_count), d.legal, `${where}: the number of legal moves`);
      if (legal) {
        const [line] = await native.until(() => true);
        // The list itself, or (from a browser, to keep the transfer
        // small) the SHA-256 of its text.
        if (legal.sha256) assert.equal(legal.sha256, sha256(line), `${where}: the legal moves' digest`);
        else assert.equal(legal.join(' '), line, `${where}: the legal moves`);
        compared++;
      }
    }
  };
  let previous = null;
  let g = 0;
  for await (const { variant, states } of games) {
    native.send(`newgame ${variant}`);
    for (const { moves, legal } of states) {
      native.send(`position startpos moves ${moves.join(' ')}`);
      native.send('d');
      if (legal) native.send('legal');
    }
    const last = states[states.length - 1].status;
    ends[last.outcome]++;
    plies += states.length - 1;
    if (previous) await compare(...previous);
    previous = [g++, states];
  }
  await compare(...previous);
  await native.quit();
  assert.ok(ends.white > 0 && ends.black > 0, 'both sides won some games');
  return { games: g, plies, compared, ends };
}

/** Whether ply `n`'s legal moves are compared in full (every seventh). */
const fullAt = (n) => n % 7 === 3;

test('1,000 random games agree with the native rules ply by ply', { timeout: 600000 }, async () => {
  const { call } = await loadWasm(`${server.url}/static/punct.wasm`);
  const random = seeded(2026);
  function* games() {
    for (let g = 0; g < 1000; g++) {
      const variant = g % 3 === 2 ? 'basic' : 'standard';
      const states = [];
      const moves = [];
      let status = call({ op: 'status', variant });
      for (;;) {
        const over = status.outcome !== 'ongoing';
        const legal = over ? [] : call({ op: 'legal', position: status.position }).moves.split(' ');
        assert.equal(legal.length, status.legal_count, `game ${g + 1}, ply ${moves.length}: status and list agree`);
        const full = fullAt(moves.length) && legal.length > 0;
        states.push({ moves: [...moves], status, legal: full ? [...legal].sort(byteOrder) : null });
        if (over) break;
        const move = legal[Math.floor(random() * legal.length)];
        status = call({ op: 'status', position: status.position, moves: [move] });
        assert.ok(status.position, `game ${g + 1}: ${move} plays: ${JSON.stringify(status)}`);
        moves.push(move);
      }
      yield { variant, states };
    }
  }
  const r = await agreeWithNative(games());
  console.log(`Node: ${r.games} games, ${r.plies} plies, ${r.compared} full legal lists compared; ends ${JSON.stringify(r.ends)}`);
});

test('1,000 other random games, played by the module in Chromium, agree too', { timeout: 600000 }, async () => {
  const browser = await launchBrowser();
  const pages = [];
  try {
    await withArtifacts('wasm-games', () => pages, async () => {
      const page = await newPage(browser, 'wasm-games');
      pages.push(page);
      await page.goto(`${server.url}/`);
      // The module in Chromium's own engine, on the page's thread and
      // called as its worker calls it (the worker's round trips would
      // make this test five times longer; the worker itself is held to
      // the 308 cases below).
      await page.evaluate(async () => {
        let x;
        const text = (ptr, len) => new TextDecoder().decode(new Uint8Array(x.memory.buffer, ptr, len));
        const { instance } = await WebAssembly.instantiateStreaming(fetch('/static/punct.wasm'), {
          env: { punct_now_ms: () => performance.now(), punct_info: () => {} },
        });
        x = instance.exports;
        window.punctCall = (request) => {
          const bytes = new TextEncoder().encode(JSON.stringify(request));
          const ptr = x.punct_alloc(bytes.length);
          new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
          x.punct_call(ptr, bytes.length);
          x.punct_free(ptr, bytes.length);
          return JSON.parse(text(x.punct_answer_ptr(), x.punct_answer_len()));
        };
      });
      // Played in the page in batches, checked natively while the next
      // batch plays.
      let next = 0;
      async function* games() {
        while (next < 1000) {
          const from = next;
          next += 100;
          const batch = await page.evaluate(async ([first, count]) => {
            const engine = { ask: window.punctCall };
            // mulberry32, seeded per game: the same games on every run.
            const seeded = (seed) => {
              let a = seed >>> 0;
              return () => {
                a = (a + 0x6d2b79f5) >>> 0;
                let t = a;
                t = Math.imul(t ^ (t >>> 15), t | 1);
                t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
                return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
              };
            };
            const order = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
            const out = [];
            for (let g = first; g < first + count; g++) {
              const random = seeded(77_000 + g);
              const variant = g % 3 === 2 ? 'basic' : 'standard';
              const states = [];
              const moves = [];
              let status = engine.ask({ op: 'status', variant });
              for (;;) {
                const over = status.outcome !== 'ongoing';
                const legal = over ? [] : engine.ask({ op: 'legal', position: status.position }).moves.split(' ');
                if (legal.length !== status.legal_count) throw new Error(`game ${g + 1}: the status counts ${status.legal_count}, the list ${legal.length}`);
                const full = moves.length % 7 === 3 && legal.length > 0;
                let digest = null;
                if (full) {
                  const bytes = new TextEncoder().encode([...legal].sort(order).join(' '));
                  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
                  digest = { sha256: [...hash].map((b) => b.toString(16).padStart(2, '0')).join('') };
                }
                states.push({ moves: [...moves], status, legal: digest });
                if (over) break;
                const move = legal[Math.floor(random() * legal.length)];
                status = engine.ask({ op: 'status', position: status.position, moves: [move] });
                if (!status.position) throw new Error(`game ${g + 1}: ${move}: ${JSON.stringify(status)}`);
                moves.push(move);
              }
              out.push({ variant, states });
            }
            return out;
          }, [from, 100]);
          yield* batch;
        }
      }
      const r = await agreeWithNative(games());
      assert.equal(r.games, 1000);
      console.log(`Chromium: ${r.games} games, ${r.plies} plies, ${r.compared} full legal lists compared; ends ${JSON.stringify(r.ends)}`);
    });
  } finally {
    await browser.close();
  }
});

test("level 4's move at a fixed depth is the native engine's on 100 positions", { timeout: 300000 }, async () => {
  const { call, infos } = await loadWasm(`${server.url}/static/punct.wasm`);
  const native = nativeEngine(['--engine', 'level4', '--seed', '0']);
  native.send('pei');
  await native.until((l) => l === 'peiok');
  // The per-game root preference off on both sides: the native engine
  // draws a new one at every `newgame`, the module once per call.
  native.send('setoption name Variety value 0');
  let positions = 0;
  for (const [i, c] of CASES.entries()) {
    if (c.status !== 'ongoing' || i % 2 !== 0 || positions === 100) continue;
    const depth = 2;
    native.send(`newgame ${c.variant}`);
    native.send(`position startpos moves ${c.moves.join(' ')}`);
    native.send(`go depth ${depth}`);
    const [best] = (await native.until((l) => l.startsWith('bestmove '))).slice(-1);
    const answer = call({ op: 'ai', level: 4, depth, seed: 0, variety: 0, variant: c.variant, moves: c.moves });
    assert.equal(`bestmove ${answer.move}`, best, `case ${i + 1}`);
    positions++;
  }
  await native.quit();
  assert.equal(positions, 100);
  assert.ok(infos.length >= 100, 'the searches reported their depths to the host');
});

test('the page runs the same module in its worker (Chromium)', { timeout: 120000 }, async () => {
  const browser = await launchBrowser();
  const pages = [];
  try {
    await withArtifacts('wasm', () => pages, async () => {
      const page = await newPage(browser, 'wasm');
      pages.push(page);
      await page.goto(`${server.url}/`);
      const result = await page.evaluate(async (cases) => {
        const engine = await import('/static/engine.js');
        const wrong = [];
        for (const [i, c] of cases.entries()) {
          const answer = await engine.ask({ op: 'legal', variant: c.variant, moves: c.moves });
          const moves = answer.moves ? answer.moves.split(' ').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : [];
          const text = new TextEncoder().encode(moves.join('\n'));
          const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', text))]
            .map((b) => b.toString(16).padStart(2, '0')).join('');
          if (moves.length !== c.legal_count || digest !== c.legal_sha256) wrong.push(i + 1);
        }
        // A search can be stopped: its caller hears so, and the next request is answered.
        const long = engine.ask({ op: 'ai', level: 4, movetime: 60000 });
        engine.stop();
        const stopped = await long;
        const after = await engine.ask({ op: 'check', move: 'T@I9/0' });
        return { wrong, stopped, after };
      }, CASES);
      assert.deepEqual(result.wrong, [], 'cases that disagree in the browser');
      assert.equal(result.stopped.error, 'stopped');
      assert.equal(result.after.reason, 'add_in_centre');
    });
  } finally {
    await browser.close();
  }
});
