// The rules and the AI compiled to WebAssembly (punct.wasm, served by the
// real binary) agree with the native crates, in Node: the 308 committed
// differential cases (computed by an independent implementation), 1,000
// seeded random games compared ply by ply with `punct engine` (the native
// rules over the engine protocol: position string, status, central counts
// and the legal moves), and level 4's move at a fixed depth on 100
// positions. Chromium's part is wasm-browser.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { loadWasm, expandCompact, seeded } from '../lib/wasm.mjs';
import { CASES, sha256, byteOrder, nativeEngine, agreeWithNative } from '../lib/differential.mjs';

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

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
