// The rules, the AI and the analysis in a Web Worker: punct.wasm
// (crates/punct-wasm) answers one JSON request at a time, so a search
// never freezes the page. Messages in: {id, request}; out: {id, answer}
// when done, {id, info} for each depth a search finishes, {id, error}
// when the module cannot be loaded.

let module = null;

/** The WebAssembly instance with its one call, loaded once. */
async function load() {
  if (module) return module;
  const imports = {
    env: {
      // The searches' clock (std has none on wasm32).
      punct_now_ms: () => performance.now(),
      // A search's progress, passed on as it comes.
      punct_info: (ptr, len) => {
        if (module?.current !== undefined) {
          postMessage({ id: module.current, info: JSON.parse(text(ptr, len)) });
        }
      },
    },
  };
  const url = new URL('punct.wasm', import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status}`);
  // A static host may not say application/wasm, which streaming needs.
  const { instance } = response.headers.get('content-type')?.startsWith('application/wasm')
    ? await WebAssembly.instantiateStreaming(response, imports)
    : await WebAssembly.instantiate(await response.arrayBuffer(), imports);
  module = { exports: instance.exports, current: undefined };
  return module;
}

function text(ptr, len) {
  return new TextDecoder().decode(new Uint8Array(module.exports.memory.buffer, ptr, len));
}

/** One request (an object) to the module; its answer (an object). */
function call(m, id, request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const x = m.exports;
  const ptr = x.punct_alloc(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
  m.current = id;
  try {
    x.punct_call(ptr, bytes.length);
  } finally {
    m.current = undefined;
    x.punct_free(ptr, bytes.length);
  }
  return JSON.parse(text(x.punct_answer_ptr(), x.punct_answer_len()));
}

onmessage = async (event) => {
  const { id, request } = event.data;
  let m;
  try {
    m = await load();
  } catch (e) {
    postMessage({ id, error: String(e?.message ?? e) });
    return;
  }
  postMessage({ id, answer: call(m, id, request) });
};
