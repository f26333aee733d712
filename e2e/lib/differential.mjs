// What the WebAssembly's differential tests share (wasm.test.mjs in Node,
// wasm-browser.test.mjs in Chromium): the 308 committed cases, the native
// engine over its protocol, and a ply-by-ply comparison of games with it.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { serverBinary, REPO_DIR } from './server.mjs';

export const CASES = readFileSync(path.join(REPO_DIR, 'crates/punct-core/tests/data/public.jsonl'), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

export const sha256 = (text) => createHash('sha256').update(text).digest('hex');
export const byteOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** `punct engine` (native), answering one command's lines at a time. */
export function nativeEngine(args = []) {
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

/**
 * Compares games played by the module with the native rules, ply by ply:
 * `games` yields, per game, its variant and its plies' `{moves, status,
 * legal}` (`legal`: the sorted full list, at some plies). Each game's
 * questions go to `punct engine` while the next game is played.
 */
export async function agreeWithNative(games) {
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
