// The page's WebAssembly against the native build, for docs/PERFORMANCE.md:
// perft and the AI's nodes per second on the same positions, and a short
// match of level 4 in WebAssembly (as the page's worker runs it, here in
// Node's V8) against native level 4 (`punct engine`) at the same time per
// move. Not a test: figures.
//
//   cargo build -p punct-cli
//   node scripts/wasm-bench.mjs [games=10] [movetime_ms=200]
//
// Reads target/wasm/wasm32-unknown-unknown/wasm/punct_wasm.wasm (or
// $PUNCT_WASM) and target/debug/punct (or $PUNCT_BIN).
import { readFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { wasmModule } from '../e2e/lib/wasm.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wasmPath = process.env.PUNCT_WASM || path.join(root, 'target/wasm/wasm32-unknown-unknown/wasm/punct_wasm.wasm');
const bin = process.env.PUNCT_BIN || path.join(root, 'target/debug/punct');
const games = Number(process.argv[2] || 10);
const movetime = Number(process.argv[3] || 200);

// Loaded and called as the page's worker does (e2e/lib/wasm.mjs).
const { call } = await wasmModule(readFileSync(wasmPath));

const cases = readFileSync(path.join(root, 'crates/punct-core/tests/data/public.jsonl'), 'utf8').trim().split('\n').map(JSON.parse);
const mid = cases.filter((c) => c.status === 'ongoing' && c.variant === 'standard' && c.moves.length >= 16).slice(0, 3);

// perft(2) of three mid-game positions, each the best of three runs.
let wasmMs = 0;
let nativeMs = 0;
for (const c of mid) {
  const best = (f) => Math.min(f(), f(), f());
  wasmMs += best(() => call({ op: 'perft', depth: 2, moves: c.moves }).time_ms);
  nativeMs += best(() => {
    const t = performance.now();
    spawnSync(bin, ['perft', '2', '--moves', c.moves.join(' ')]);
    return performance.now() - t;
  });
}
const startup = Math.min(...[1, 2, 3].map(() => { const t = performance.now(); spawnSync(bin, ['perft', '0']); return performance.now() - t; }));
nativeMs -= 3 * startup;
console.log(`perft(2) of 3 mid-game positions: wasm ${wasmMs.toFixed(1)} ms, native ${nativeMs.toFixed(1)} ms (process start ${startup.toFixed(1)} ms taken off): ratio ${(nativeMs / wasmMs).toFixed(2)}`);

/** `punct engine` answering one command's lines. */
function engine(args) {
  const proc = spawn(bin, ['engine', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout });
  const queue = [];
  const waiting = [];
  lines.on('line', (l) => { const w = waiting.shift(); if (w) w(l); else queue.push(l); });
  const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r)));
  return {
    send: (l) => proc.stdin.write(`${l}\n`),
    async until(pred) { const got = []; for (;;) { const l = await next(); got.push(l); if (pred(l)) return got; } },
    quit() { proc.stdin.write('quit\n'); },
  };
}

// Nodes per second of level 4 in 2 s on the same positions.
const native = engine(['--engine', 'level4']);
let wasmNodes = 0;
let nativeNodes = 0;
for (const c of mid) {
  wasmNodes += call({ op: 'ai', level: 4, movetime: 2000, moves: c.moves }).nodes;
  native.send(`position startpos moves ${c.moves.join(' ')}`);
  native.send('go movetime 2000');
  const lines = await native.until((l) => l.startsWith('bestmove'));
  const infos = lines.filter((l) => / nodes /.test(l));
  nativeNodes += Number(infos[infos.length - 1].match(/ nodes (\d+)/)[1]);
}
console.log(`level 4, 2 s on each of 3 positions: wasm ${Math.round(wasmNodes / 6)} nodes/s, native ${Math.round(nativeNodes / 6)} nodes/s: ratio ${(wasmNodes / nativeNodes).toFixed(2)}`);

// The match: level 4 in WebAssembly against native level 4, colours alternating.
const score = { wasm: 0, native: 0, draw: 0 };
for (let g = 0; g < games; g++) {
  const wasmSide = g % 2 === 0 ? 'white' : 'black';
  native.send('newgame');
  const moves = [];
  let status = call({ op: 'status', moves });
  while (status.outcome === 'ongoing' && moves.length < 200) {
    let move;
    if (status.to_move === wasmSide) {
      move = call({ op: 'ai', level: 4, movetime, seed: g, moves }).move;
    } else {
      native.send(`position startpos moves ${moves.join(' ')}`);
      native.send(`go movetime ${movetime}`);
      move = (await native.until((l) => l.startsWith('bestmove'))).pop().split(' ')[1];
    }
    moves.push(move);
    status = call({ op: 'status', moves });
  }
  const winner = status.outcome;
  if (winner === 'draw' || winner === 'ongoing') score.draw++;
  else if (winner === wasmSide) score.wasm++;
  else score.native++;
  console.log(`game ${g + 1}: wasm ${wasmSide}, ${moves.length} plies, ${winner}`);
}
native.quit();
console.log(`level 4 at ${movetime} ms a move, ${games} games: wasm ${score.wasm}, native ${score.native}, draws ${score.draw}`);
