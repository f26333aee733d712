// A live game's page follows moves, not states: it reads the state once
// over HTTP, its socket says which version it holds, and every change
// reaches it as an `update` of a few hundred bytes, and the
// page makes the next state itself with its own rules (punct.wasm in its
// worker) — the board it draws and the moves it lets its player click are
// the server's. An update that does not follow (one lost on the way) makes
// the page ask for one whole state; a socket that reconnects after missed
// moves gets one whole state, then updates again. The socket is routed
// through the test (Playwright's routeWebSocket) to read and drop frames.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, newPage, withArtifacts, waitGamePage, waitInSync, waitBoardShows, playByClicks,
  shot, tid, T,
} from '../lib/browser.mjs';

const env = serverAndBrowser();

/** A legal addition in game `g` (the n-th of its list, spread over the board). */
function anAddition(g, n) {
  const adds = g.legal_moves.filter((m) => m.includes('@'));
  return adds[(n * 97) % adds.length];
}
const pages = [];

/** Routes game `id`'s live sockets of `page` through the test; each connection's frames from the server. */
async function routeLive(page, id) {
  const route = { connections: [], dropNext: null, hold: null };
  await page.routeWebSocket(new RegExp(`/api/games/${id}/live`), async (ws) => {
    if (route.hold) await route.hold;
    const frames = [];
    route.connections.push({ frames, ws });
    const server = ws.connectToServer();
    server.onMessage((message) => {
      const text = String(message);
      const type = JSON.parse(text).type;
      if (route.dropNext === type) {
        route.dropNext = null;
        frames.push({ text, type, dropped: true });
        return;
      }
      frames.push({ text, type });
      ws.send(message);
    });
    ws.onMessage((message) => server.send(message));
  });
  return route;
}

/** The game's own messages (states and updates) of a connection. */
const gameFrames = (conn) => conn.frames.filter((f) => f.type === 'state' || f.type === 'update');

test('a live game reaches the page as moves, and the page keeps in step', { timeout: 120000 }, async () => {
  const { api } = env.server;
  await withArtifacts('updates', () => pages, async () => {
    const created = await api.create({ mode: 'online', side: 'white', name: 'Ada', clock: { type: 'realtime', initial: 600, increment: 5 } });
    const claimed = await api.req('POST', `/api/games/${created.id}/claim`, { invite: created.invite.code, name: 'Bo' });
    const [id, white, black] = [created.id, created.seats.white, claimed.token];
    const page = await newPage(env.browser, 'updates-white', { viewport: { width: 1366, height: 768 } });
    pages.push(page);
    const route = await routeLive(page, id);
    await page.goto(`${env.server.url}/game/${id}#token=${white}`);
    await waitGamePage(page);
    await waitInSync(page, api, id);

    // White by clicks (the page's own legal moves), Black through the API.
    for (let round = 0; round < 3; round++) {
      await playByClicks(page, api, id, anAddition(await api.game(id), round), { side: 'white' });
      const theirs = anAddition(await api.game(id), round + 5);
      await api.move(id, black, theirs);
      const g = await waitInSync(page, api, id);
      await waitBoardShows(page, g, `after ${theirs}`);
    }
    const [first] = route.connections;
    const frames = gameFrames(first);
    // The page read the state over HTTP and said its version: no whole
    // state comes, only an update saying it is in step.
    const inStep = JSON.parse(frames[0].text);
    assert.equal(inStep.type, 'update', `the first message: ${frames[0].text.slice(0, 200)}`);
    assert.equal(inStep.previous, inStep.version);
    assert.equal(inStep.move, undefined);
    const later = frames.slice(1);
    assert.ok(later.length >= 6, `an update per move: ${later.map((f) => f.type)}`);
    assert.deepEqual([...new Set(later.map((f) => f.type))], ['update'], 'after the first, only updates');
    const sizes = later.filter((f) => JSON.parse(f.text).move).map((f) => f.text.length);
    console.log(`update sizes (bytes): ${sizes.join(' ')}; the first message: ${frames[0].text.length}`);
    assert.ok(Math.max(...sizes) <= 300, `a move's update is at most 300 bytes: ${sizes}`);

    // An update lost on the way: the next one does not follow, and the
    // page asks for the whole state once.
    route.dropNext = 'update';
    const before = gameFrames(first).length;
    await api.move(id, white, anAddition(await api.game(id), 11));
    await api.move(id, black, anAddition(await api.game(id), 12));
    const g = await waitInSync(page, api, id);
    await waitBoardShows(page, g, 'after a lost update');
    const after = gameFrames(first).slice(before);
    assert.deepEqual(after.map((f) => `${f.type}${f.dropped ? ' (dropped)' : ''}`), ['update (dropped)', 'update', 'state'],
      'the update lost, the next that did not follow, then one whole state');

    // A reconnection after missed moves: one whole state, then updates.
    let release;
    route.hold = new Promise((r) => { release = r; });
    await first.ws.close();
    await api.move(id, white, anAddition(await api.game(id), 13));
    await api.move(id, black, anAddition(await api.game(id), 14));
    route.hold = null;
    release();
    await waitInSync(page, api, id, { timeout: T.step * 4 });
    await playByClicks(page, api, id, anAddition(await api.game(id), 15), { side: 'white' });
    const g2 = await waitInSync(page, api, id);
    await waitBoardShows(page, g2, 'after reconnecting');
    const second = route.connections[route.connections.length - 1];
    assert.notEqual(second, first);
    assert.deepEqual(gameFrames(second).map((f) => f.type), ['state', 'update'],
      'one whole state on reconnecting, then the move as an update');
    assert.equal(await page.locator(tid('game')).getAttribute('data-ply'), String(g2.ply));
    await shot(page, 'updates', 'followed');
  });
});
