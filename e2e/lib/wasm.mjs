// The page's WebAssembly (punct.wasm, crates/punct-wasm) in Node: loaded
// from the server as the page's worker loads it, with the same host
// functions, and called the same way (engine-worker.js).

/** Loads the module at `url`; its `call(request) -> answer`. */
export async function loadWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return { ...(await wasmModule(response)), response };
}

/**
 * The module from `source` (a fetch Response, streamed, or its bytes), with
 * the host functions the page's worker gives it: `call(request) -> answer`
 * and `infos`, each search's progress reports.
 */
export async function wasmModule(source) {
  let exports;
  const infos = [];
  const text = (ptr, len) => new TextDecoder().decode(new Uint8Array(exports.memory.buffer, ptr, len));
  const imports = {
    env: {
      punct_now_ms: () => performance.now(),
      punct_info: (ptr, len) => infos.push(JSON.parse(text(ptr, len))),
    },
  };
  const { instance } = source instanceof Response
    ? await WebAssembly.instantiateStreaming(source, imports)
    : await WebAssembly.instantiate(source, imports);
  exports = instance.exports;
  const call = (request) => {
    const bytes = new TextEncoder().encode(JSON.stringify(request));
    const ptr = exports.punct_alloc(bytes.length);
    new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
    exports.punct_call(ptr, bytes.length);
    exports.punct_free(ptr, bytes.length);
    return JSON.parse(text(exports.punct_answer_ptr(), exports.punct_answer_len()));
  };
  return { call, infos };
}

/** Every move of a view's `legal_compact` (the page's grouped form). */
export function expandCompact(groups) {
  const moves = [];
  for (const [key, list] of Object.entries(groups)) {
    for (const item of list.split(' ')) {
      if (key === 'moves') moves.push(item);
      else {
        const [kind, rotation] = key.split('/');
        moves.push(`${kind}@${item}/${rotation}`);
      }
    }
  }
  return moves;
}

/** A small seeded generator (mulberry32): the same games on every run. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
