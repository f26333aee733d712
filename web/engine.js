// The page's own rules and AI: a client of engine-worker.js, which runs
// punct.wasm in a Web Worker. `ask` sends one request (see
// crates/punct-wasm/src/lib.rs for the ops) and resolves with its answer;
// `stop` ends whatever is running by ending the worker (a search in
// WebAssembly cannot be interrupted from outside), its callers getting
// {error: 'stopped'}, and the next request starts a fresh one.

let worker = null;
let nextId = 1;
const pending = new Map();
let failed = null;

function start() {
  worker = new Worker(new URL('engine-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => {
    const { id, answer, info, error } = event.data;
    const call = pending.get(id);
    if (!call) return;
    if (info) {
      call.onInfo?.(info);
      return;
    }
    pending.delete(id);
    if (error !== undefined) {
      failed = error;
      call.resolve({ error: 'unavailable', message: error });
    } else {
      call.resolve(answer);
    }
  };
  worker.onerror = (event) => {
    failed = event.message || 'the engine failed';
    for (const [, call] of pending) call.resolve({ error: 'unavailable', message: failed });
    pending.clear();
    worker?.terminate();
    worker = null;
  };
}

/**
 * The answer to `request` (an object with `op`), a promise; `onInfo`
 * hears a search's progress. Refusals come as answers with `error`, never
 * as a rejected promise.
 */
export function ask(request, onInfo) {
  if (typeof Worker === 'undefined') return Promise.resolve({ error: 'unavailable', message: 'no Web Workers here' });
  if (!worker) start();
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, { resolve, onInfo });
    worker.postMessage({ id, request });
  });
}

/** Ends every running request (each answers {error: 'stopped'}). */
export function stop() {
  if (!worker) return;
  worker.terminate();
  worker = null;
  for (const [, call] of pending) call.resolve({ error: 'stopped', message: 'stopped' });
  pending.clear();
}

/** Whether the module loads here (false once it has failed to). */
export async function available() {
  if (failed) return false;
  const answer = await ask({ op: 'view' });
  return !answer.error;
}
