// The WebAssembly in Chromium (wasm.test.mjs has Node's part): 1,000
// random games played by the module on a page, compared ply by ply with
// the native rules, and the 308 committed cases through the page's own
// worker (engine.js), with a search stopped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { launchBrowser, newPage, withArtifacts } from '../lib/browser.mjs';
import { CASES, agreeWithNative } from '../lib/differential.mjs';

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

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
