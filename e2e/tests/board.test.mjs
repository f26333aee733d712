// The board and the game screen's layout, measured: a tower of four reads
// four levels tall, heights and labels are never hidden or clipped,
// everything needed to play fits the screen at 1366 × 768 and on a
// 390 × 844 phone, moves by touch are shown before they are played, the
// stack of a cell is drawn from the side (gaps under bridges included),
// the key, the central count and the last-piece warning, dark mode, and
// the board's flip, the mute toggle, the tab title and the favicon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Geometry, parseMove } from '../lib/rules.mjs';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, messageText, showTab } from '../lib/browser.mjs';

const PREFIX = 'board';
const env = serverAndBrowser();
const pages = [];

const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

// A four-high white tower on E5 (its top piece's PÜNCT on E5), a white E
// bridging B3–D3 at level 1 over the empty C3, and black pieces on the right.
const TOWER = ('T@E5/0 T@N12/0 T@E10/0 T@N15/0 E10-E5/0 T@O10/0 T@E11/0 T@M16/0 E11-E5/0 T@P14/0 T@E10/0 '
  + 'T@L16/3 E10-E5/0 M@P16/5 T@B3/0 R@O7/5 T@D3/0 L@Q11/0 E@B8/5 M@M7/4 B8-B3/5').split(' ');

/** A hot-seat game after `moves` (played through the API); answers {id, token, state}. */
async function gameAfter(api, moves, variant = 'standard') {
  const created = await api.create({ mode: 'hotseat', variant });
  const token = created.seats.white;
  let state = created.game;
  for (const m of moves) state = await api.move(created.id, token, m);
  return { id: created.id, token, state };
}

/**
 * A hot-seat game where White has one piece left, to move: White adds
 * pieces in columns A–G only (so it cannot connect), Black adds a T in
 * line with I9, moves it onto I9 (three central cells) and turns it there.
 */
async function lastPieceGame(api, geo, variant) {
  const created = await api.create({ mode: 'hotseat', variant });
  const { id } = created;
  const token = created.seats.white;
  let g = created.game;
  const col = (c) => geo.cells.get(c).col;
  const left = (side) => Object.values(g.reserves[side]).reduce((a, b) => a + b, 0);
  let plan = 'add';
  while (left('white') > 1) {
    const w = g.legal_moves.find((m) => {
      const mv = parseMove(m);
      const cells = mv.type === 'add' && geo.shape(mv.kind, mv.rotation, mv.to);
      return cells && cells.every((c) => col(c) <= 6);
    });
    assert.ok(w, `White can add in columns A–G at ply ${g.ply}`);
    g = await api.move(id, token, w);
    let b;
    if (plan === 'add') b = g.legal_moves.find((m) => /^T@/.test(m) && col(parseMove(m).to) >= 11 && geo.inLine(parseMove(m).to, 'I9'));
    else if (plan === 'in') b = g.legal_moves.find((m) => parseMove(m).type === 'move' && parseMove(m).to === 'I9');
    else b = g.legal_moves.find((m) => /^I9-I9\//.test(m));
    assert.ok(b, `Black has a move (${plan}) at ply ${g.ply}`);
    plan = plan === 'add' ? 'in' : 'turn';
    g = await api.move(id, token, b);
    assert.equal(g.status, 'ongoing');
  }
  return { id, token, state: g };
}

async function openGame(browser, label, options, url, id, token) {
  const page = await newPage(browser, label, options);
  pages.push(page);
  await page.goto(token ? `${url}/game/${id}#token=${token}` : `${url}/game/${id}`);
  await waitGamePage(page);
  return page;
}

/** The board's drawn box (its view box fitted into the element, as SVG does by default). */
function drawnBox(page) {
  return page.locator(tid('board')).evaluate((svg) => {
    const r = svg.getBoundingClientRect();
    const [, , vw, vh] = svg.getAttribute('viewBox').split(/[\s,]+/).map(Number);
    const s = Math.min(r.width / vw, r.height / vh);
    const w = vw * s;
    const h = vh * s;
    return { x: r.x + (r.width - w) / 2, y: r.y + (r.height - h) / 2, width: w, height: h, right: r.x + (r.width + w) / 2, bottom: r.y + (r.height + h) / 2 };
  });
}

const rect = (page, selector) => page.locator(selector).first().evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height, right: r.right, bottom: r.bottom };
});

test('a tower of four stands four levels tall, its top and its height in sight', { timeout: 60000 }, async (t) => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { id, token, state } = await gameAfter(server.api, TOWER);
    assert.equal(state.stacks.E5.length, 4);
    const page = await openGame(browser, 'tower', DESKTOP, server.url, id, token);
    await waitInSync(page, server.api, id);
    const m = await page.evaluate(() => {
      const mid = (el) => {
        const r = el.getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2];
      };
      const board = document.querySelector('[data-testid="board"]');
      const ground = (cell) => mid(board.querySelector(`[data-hex="${cell}"]`));
      const top = (cell, level) => mid(board.querySelector(`[data-piece-cell="${cell}"][data-level="${level}"] .punct-mark`));
      return {
        base: ground('E5'), tops: [0, 1, 2, 3].map((l) => top('E5', l)),
        singleBase: ground('N12'), singleTop: top('N12', 0),
      };
    });
    const single = m.singleBase[1] - m.singleTop[1];
    const tower = m.base[1] - m.tops[3][1];
    t.diagnostic(`one piece stands ${single.toFixed(1)} px above its cell, the tower of four ${tower.toFixed(1)} px`);
    assert.ok(single >= 4, `a single piece shows its thickness (${single.toFixed(1)} px)`);
    assert.ok(tower >= 3 * single, `the tower's top (${tower.toFixed(1)} px up) is at least three single lifts (${single.toFixed(1)} px)`);
    for (let l = 1; l < 4; l++) {
      assert.ok(m.tops[l - 1][1] - m.tops[l][1] >= 0.9 * single, `level ${l} stands a piece's lift above level ${l - 1}`);
    }
    // Nothing but the tower's own top piece (or its badge) is drawn over its top dot.
    const onTop = await page.evaluate(([x, y]) => {
      const board = document.querySelector('[data-testid="board"]');
      const layers = ['.pieces', '.badges'].map((s) => board.querySelector(s));
      const hits = board.querySelector('.hits');
      for (const l of layers) l.style.pointerEvents = 'all';
      hits.style.display = 'none';
      const el = document.elementFromPoint(x, y);
      for (const l of layers) l.style.pointerEvents = '';
      hits.style.display = '';
      const piece = el && el.closest('[data-piece-cell]');
      const badge = el && el.closest('[data-height-cell]');
      return piece ? `piece ${piece.dataset.pieceCell}/${piece.dataset.level}` : badge ? `badge ${badge.dataset.heightCell}` : String(el && el.outerHTML.slice(0, 200));
    }, m.tops[3]);
    assert.match(onTop, /^(piece E5\/3|badge E5)$/, `the top dot of the tower is not hidden (${onTop} is drawn there)`);
    // Pointing at the tower's top (drawn over the cell behind it) points at the tower.
    await showTab(page, 'board');
    await page.mouse.move(m.tops[3][0], m.tops[3][1]);
    await page.locator(`${tid('board')} [data-hover="E5"]`).waitFor({ state: 'attached' });
    await page.locator(tid('stack-view')).filter({ hasText: 'height 4' }).waitFor();
    // The height: a badge drawn above every piece, big enough to read.
    const badge = page.locator(`${tid('board')} [data-height-cell="E5"]`);
    assert.equal((await badge.textContent()).trim(), '4');
    const b = await badge.evaluate((el) => {
      const r = el.querySelector('circle').getBoundingClientRect();
      const pieces = el.ownerSVGElement.querySelector('.pieces');
      return { size: r.width, abovePieces: !!(pieces.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) };
    });
    assert.ok(b.abovePieces, 'height badges are drawn after (above) the pieces');
    assert.ok(b.size >= 11, `the badge is ${b.size.toFixed(1)} px across`);
    // The cell under the bridge's middle has a gap: its badge says so.
    const gapBadge = page.locator(`${tid('board')} [data-height-cells~="C3"]`);
    assert.match(await gapBadge.getAttribute('class'), /\bgap\b/);
    await shot(page, PREFIX, 'tower-1366x768');
    await page.context().close();
  });
});

// The most crowded centre of 40 engine games (`punct match --engine1 level1
// --engine2 level3 --games 40 --movetime 20 --seed 5`, ply 41): a stack of
// three in the central hexagon, a bridge over a gap, stacks of two round
// them, and the pieces of both sides side by side.
const DENSE = 'standard:b:0:bE@D9/2,bT@D11/1,wE@E3/0,wT@F7/0,bM@F9/1,wT@F11/5,wE@G6/1,bR@H6/5,wL@H8/4,wM@H9/0,bR@J6/0,'
  + 'wC@K6/1,wL@K9/1,wR@K11/4,wC@L9/0,bC@M6/2,bT@N8/0,wE@N12/4,wE@O11/2,bE@Q13/3,wT@Q16/1,wR@G8/5^1,bE@H7/3^1,'
  + 'bL@K7/0^1,bE@K8/2^1,bL@Q15/2^1,bM@H9/5^2,wM@Q16/5^2';

/** Every height badge that covers a dot of another cell or another badge (boxes on the screen), and the badges' sizes. */
function badgeClashes(page) {
  return page.locator(tid('board')).evaluate((board) => {
    const box = (el) => el.getBoundingClientRect();
    const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const badges = [...board.querySelectorAll('.badges [data-height-cell]')]
      .map((g) => ({ cell: g.dataset.heightCell, r: box(g.querySelector('circle')) }));
    const dots = [...board.querySelectorAll('.pieces circle.dot')].map((c) => ({ cell: c.dataset.dot, r: box(c) }));
    const clashes = [];
    badges.forEach((b, i) => {
      for (const d of dots) if (d.cell !== b.cell && meet(b.r, d.r)) clashes.push(`the badge of ${b.cell} covers a dot on ${d.cell}`);
      for (const o of badges.slice(i + 1)) if (meet(b.r, o.r)) clashes.push(`the badges of ${b.cell} and ${o.cell} meet`);
    });
    return { clashes, count: badges.length, sizes: badges.map((b) => b.r.width), undotted: dots.filter((d) => !d.cell).length };
  });
}

test('in the most crowded centre of an engine game no height badge covers another dot or badge, on a desktop, a phone and a zoomed phone', { timeout: 90000 }, async (t) => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    // Cells whose stack is two or more high, read from the position string (`^N`: the piece's level).
    const tall = new Set();
    for (const token of DENSE.split(':')[3].split(',')) if (/\^\d/.test(token)) tall.add(token.slice(3, token.indexOf('/')));
    for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      const page = await newPage(browser, `dense-${label}`, options);
      pages.push(page);
      await page.goto(`${server.url}/analysis#position=${encodeURIComponent(DENSE)}`);
      await page.locator(`${tid('board')} .badges [data-height-cell]`).first().waitFor();
      const views = label === 'phone' ? ['whole', 'zoomed'] : ['whole'];
      if (label === 'phone') {
        // The zoom button stands where no cell is.
        const under = await page.evaluate(() => {
          const b = document.querySelector('[data-testid="zoom-board"]').getBoundingClientRect();
          return [...document.querySelectorAll('[data-testid="board"] .hits [data-cell]')].filter((c) => {
            const r = c.getBoundingClientRect();
            const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
            return x > b.left - r.width / 2 && x < b.right + r.width / 2 && y > b.top - r.height / 2 && y < b.bottom + r.height / 2;
          }).map((c) => c.dataset.cell);
        });
        assert.deepEqual(under, [], 'no cell lies under the zoom button');
      }
      for (const view of views) {
        if (view === 'zoomed') {
          await page.locator(tid('zoom-board')).click();
          assert.equal(await page.locator(tid('zoom-board')).getAttribute('aria-pressed'), 'true');
          // The board is drawn twice as large: the badges are placed again for it.
          await page.waitForFunction(() => document.querySelector('.board-wrap.zoomed [data-testid="board"]')?.getBoundingClientRect().width > 600);
          await page.waitForTimeout(200);
        }
        const m = await badgeClashes(page);
        t.diagnostic(`${label}, ${view}: ${m.count} badges, ${Math.min(...m.sizes).toFixed(1)}–${Math.max(...m.sizes).toFixed(1)} px across`);
        assert.equal(m.undotted, 0, 'every dot names its cell');
        assert.ok(m.count >= 6, `the crowded centre has its badges (${m.count})`);
        assert.deepEqual(m.clashes, [], `${label}, ${view}: nothing covered`);
        if (view !== 'whole' || label === 'desktop') assert.ok(Math.min(...m.sizes) >= 11, `${label}, ${view}: every badge is at least 11 px across (${Math.min(...m.sizes).toFixed(1)})`);
        await shot(page, PREFIX, `dense-${label}-${view}`);
      }
      if (label === 'desktop') assert.equal(await page.locator(tid('zoom-board')).isVisible(), false, 'no zoom on a wide screen');
      await page.context().close();
    }
    assert.ok(tall.size >= 6, `the position has its stacks (${[...tall]})`);
  });
});

test('edge labels are never clipped: inside the viewport and the board\'s drawn box', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { id, token } = await gameAfter(server.api, TOWER.slice(0, 4));
    for (const [name, options] of [['1366x768', DESKTOP], ['390x844', PHONE]]) {
      const page = await openGame(browser, `labels-${name}`, options, server.url, id, token);
      const drawn = await drawnBox(page);
      const labels = await page.evaluate(() => [...document.querySelectorAll('[data-testid="board"] :is(.coord, .side-label)')].map((el) => {
        const r = el.getBoundingClientRect();
        return { text: el.textContent, x: r.x, y: r.y, right: r.right, bottom: r.bottom };
      }));
      const vw = options.viewport.width;
      const vh = options.viewport.height;
      assert.ok(labels.length >= 17 + 17 + 6, `${name}: ${labels.length} labels`);
      assert.ok(labels.some((l) => l.text === 'J') && labels.some((l) => /column A/.test(l.text)), `${name}: the J and side labels are drawn`);
      for (const l of labels) {
        const where = `${name}: label ${JSON.stringify(l.text)} at ${l.x.toFixed(1)},${l.y.toFixed(1)}–${l.right.toFixed(1)},${l.bottom.toFixed(1)}`;
        assert.ok(l.x >= 0 && l.y >= 0 && l.right <= vw && l.bottom <= vh, `${where} leaves the ${vw}×${vh} viewport`);
        assert.ok(l.x >= drawn.x - 0.5 && l.y >= drawn.y - 0.5 && l.right <= drawn.right + 0.5 && l.bottom <= drawn.bottom + 0.5,
          `${where} leaves the board's drawn box ${JSON.stringify(drawn)}`);
      }
      await page.context().close();
    }
  });
});

test('everything to play is on screen without scrolling, the board fills its area, messages do not push', { timeout: 60000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    for (const [name, options] of [['1366x768', DESKTOP], ['390x844', PHONE]]) {
      const created = await api.create({ mode: 'ai', level: 1, side: 'white' });
      const page = await openGame(browser, `layout-${name}`, options, server.url, created.id, created.seats.white);
      await waitInSync(page, api, created.id);
      const vw = options.viewport.width;
      const vh = options.viewport.height;
      const needed = ['board', 'rotate', 'rotation', 'status', 'player-white', 'player-black', 'move-input',
        ...['white', 'black'].flatMap((s) => ['T', 'C', 'E', 'L', 'M', 'R'].map((k) => `reserve-${s}-${k}`))];
      for (const id of needed) {
        const r = await rect(page, tid(id));
        assert.ok(r.width > 0 && r.height > 0, `${name}: ${id} is shown`);
        assert.ok(r.x >= 0 && r.y >= 0 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5,
          `${name}: ${id} at ${JSON.stringify(r)} is not inside the ${vw}×${vh} viewport`);
      }
      // Each clock's slot sits in its side's bar (the clock shows only in timed games).
      for (const side of ['white', 'black']) {
        assert.ok(await page.locator(`${tid(`player-${side}`)} ${tid(`clock-${side}`)}`).count() === 1, `${name}: the ${side} bar holds its clock slot`);
      }
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      // The board takes the room it has.
      const area = await rect(page, tid('board-area'));
      const drawn = await drawnBox(page);
      const free = Math.min(area.width, area.height);
      t.diagnostic(`${name}: board area ${area.width.toFixed(0)}×${area.height.toFixed(0)} px, board drawn ${drawn.width.toFixed(0)}×${drawn.height.toFixed(0)} px (${((100 * Math.min(drawn.width, drawn.height)) / free).toFixed(0)} % of ${free.toFixed(0)})`);
      assert.ok(drawn.width >= 0.85 * free && drawn.height >= 0.85 * free,
        `${name}: the board is drawn ${drawn.width.toFixed(0)}×${drawn.height.toFixed(0)} in an area of ${area.width.toFixed(0)}×${area.height.toFixed(0)}`);
      // A message appears over the page: nothing moves.
      const before = await rect(page, tid('board'));
      const input = page.locator(tid('move-input'));
      await input.fill('T@I9/0');
      await input.press('Enter');
      await page.waitForFunction(() => /central/i.test(document.querySelector('[data-testid="message"]')?.textContent || ''), null, { timeout: T.step });
      assert.match(await messageText(page), /I9/);
      assert.deepEqual(await rect(page, tid('board')), before, `${name}: the message moved the board`);
      await shot(page, PREFIX, `layout-message-${name}`);
      await page.locator('.toast-close').click();
      await page.locator(tid('message')).waitFor({ state: 'hidden' });
      await page.context().close();
    }
  });
});

test('at 1366 × 768 a finished game opens on its review: the graph, the replay and the headline in view with nothing to scroll; the moves a click away', { timeout: 120000 }, async (t) => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    // A real engine game (level 3 against level 1), won by a connection.
    const record = '[Variant "standard"]\n[Result "1-0"]\n\n1. L@L7/4 C@K5/1 2. M@I6/4 C@K7/0 3. E@G4/1 E@K12/3 '
      + '4. E@O8/4 K5-K10/0 5. R@J5/1 L@J14/2 6. C@C2/2 L@J3/4 7. T@B4/0 1-0\n';
    const created = await server.api.importRecord({ record });
    const page = await openGame(browser, 'finished', DESKTOP, server.url, created.id);
    await page.locator(`${tid('eval-graph')}[data-status="done"]`).waitFor({ timeout: 90000 });
    assert.equal(await page.locator(tid('side-tab-analysis')).getAttribute('aria-selected'), 'true', 'a finished game opens on its analysis');
    const inView = (testid) => page.locator(testid.includes(' ') ? testid : tid(testid)).first().evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
    });
    // The review's list may run on (how many moves it marks depends on
    // the search's time): its first entry is in view, the rest scroll in the tab.
    for (const id of ['eval-graph', `${tid('mistakes')} li`, 'replay-prev', 'replay-slider', 'replay-next', 'result-banner', 'side-tab-moves']) {
      assert.ok(await inView(id), `${id} is in view`);
    }
    const m = await page.evaluate(() => {
      const status = document.querySelector('[data-testid="status"]');
      return {
        page: document.scrollingElement.scrollHeight - innerHeight,
        cut: status.scrollHeight - status.clientHeight,
        status: status.textContent,
        title: status.title,
      };
    });
    t.diagnostic(`status: ${m.status} (${m.title})`);
    assert.ok(m.page <= 1, `the page does not scroll (${m.page} px more)`);
    assert.ok(m.cut <= 1, `the top bar shows its whole status line: ${m.status}`);
    assert.equal(m.status, 'Game over. White wins.');
    assert.match(m.title, /^Game over\. White wins: White connected/, 'the reason on pointing, as in the banner');
    await shot(page, PREFIX, 'finished-review-1366x768');
    await showTab(page, 'moves');
    assert.equal(await page.locator(tid('move-list')).locator('button.mv').count(), 13);
    for (const id of ['move-list', 'download-record']) assert.ok(await inView(id), `${id} is in view on the moves tab`);
    assert.equal(await page.locator(tid('eval-graph')).isVisible(), false, 'one tab at a time');
    await page.context().close();
  });
});

test('by touch the first tap on a target shows the piece there; confirm or a second tap plays it', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const created = await api.create({ mode: 'ai', level: 1, side: 'white' });
    const { id } = created;
    const page = await openGame(browser, 'touch', PHONE, server.url, id, created.seats.white);
    let g = await waitInSync(page, api, id);
    const tapCell = (cell) => page.locator(`${tid('board')} [data-cell="${cell}"]`).tap();
    const first = g.legal_moves.find((m) => /^E@[A-Q]\d+\/0$/.test(m));
    const cell = parseMove(first).to;
    await page.locator(tid('reserve-white-E')).tap();
    await tapCell(cell);
    await page.locator(`${tid('board')} [data-ghost="${cell}"]`).waitFor();
    await page.locator(tid('confirm-move')).waitFor({ state: 'visible' });
    assert.match(await page.locator(tid('confirm-text')).textContent(), new RegExp(first.replace(/[/@]/g, '\\$&')));
    await shot(page, PREFIX, 'touch-preview');
    assert.equal((await api.game(id)).ply, 0, 'the first tap played nothing');
    assert.equal(await page.locator(tid('game')).getAttribute('data-ply'), '0');
    await page.locator(tid('confirm-move')).tap();
    g = await api.waitFor(id, (s) => s.ply >= 1, { timeoutMs: T.move, what: 'the confirmed move' });
    assert.equal(g.moves[0], first);
    // The AI answers; then a second tap on the same cell plays.
    g = await api.waitFor(id, (s) => s.to_move === 'white', { timeoutMs: T.ai, what: 'the AI reply' });
    g = await waitInSync(page, api, id);
    const second = g.legal_moves.find((m) => /^T@[A-Q]\d+\/0$/.test(m));
    await page.locator(tid('reserve-white-T')).tap();
    await tapCell(parseMove(second).to);
    await page.locator(tid('confirm-move')).waitFor({ state: 'visible' });
    assert.equal((await api.game(id)).ply, 2);
    await tapCell(parseMove(second).to);
    g = await api.waitFor(id, (s) => s.ply >= 3, { timeoutMs: T.move, what: 'the move tapped twice' });
    assert.equal(g.moves[2], second);
    await page.context().close();
  });
});

test('hovering a cell highlights it and shows its stack from the side, a gap under a bridge included', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { id, token } = await gameAfter(server.api, TOWER);
    const page = await openGame(browser, 'stack', DESKTOP, server.url, id, token);
    await waitInSync(page, server.api, id);
    await showTab(page, 'board');
    const view = page.locator(tid('stack-view'));
    // The tower's top dot, where a player points at it (its ground lies behind the tower of E4 in front).
    const top = await page.locator(`${tid('board')} [data-piece-cell="E5"][data-level="3"] [data-dot="E5"]`).boundingBox();
    await page.mouse.move(top.x + top.width / 2, top.y + top.height / 2);
    await page.locator(`${tid('board')} [data-hover="E5"]`).waitFor({ state: 'attached' });
    assert.match(await page.locator(`${tid('board')} [data-cell="E5"]`).getAttribute('class'), /\bhovered\b/);
    await view.locator('.stack-disc').nth(3).waitFor({ state: 'attached' });
    const discs = await view.locator('.stack-disc').evaluateAll((els) => els.map((e) => `${e.dataset.level}:${e.dataset.side}:${e.dataset.kind}`).sort());
    assert.deepEqual(discs, ['0:white:T', '1:white:T', '2:white:T', '3:white:T']);
    assert.equal(await view.locator('.stack-gap').count(), 0);
    const text = await view.innerText();
    assert.match(text, /E5/);
    assert.match(text, /height 4/);
    // Level 0 is drawn lowest, level 3 highest.
    const ys = await view.locator('.stack-disc').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.level, e.getBoundingClientRect().y])));
    assert.ok(ys[0] > ys[1] && ys[1] > ys[2] && ys[2] > ys[3], `discs from the board up: ${JSON.stringify(ys)}`);
    await shot(page, PREFIX, 'stack-E5');
    // C3 lies under the middle of the bridge: one dot at level 1 over an empty level 0.
    await page.locator(`${tid('board')} [data-cell="C3"]`).hover();
    await view.locator('.stack-gap').waitFor({ state: 'attached' });
    assert.deepEqual(await view.locator('.stack-disc').evaluateAll((els) => els.map((e) => `${e.dataset.level}:${e.dataset.side}:${e.dataset.kind}`)), ['1:white:E']);
    assert.deepEqual(await view.locator('.stack-gap').evaluateAll((els) => els.map((e) => e.dataset.level)), ['0']);
    const gapText = await view.innerText();
    assert.match(gapText, /height 2: 1 dot, 1 empty level under a bridge/);
    assert.match(gapText, /white/i);
    await shot(page, PREFIX, 'stack-C3-bridge');
    await page.context().close();
  });
});

test('the key to the symbols opens and closes', { timeout: 30000 }, async () => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { id, token } = await gameAfter(server.api, TOWER.slice(0, 2));
    const page = await openGame(browser, 'key', DESKTOP, server.url, id, token);
    const key = page.locator(tid('key'));
    assert.equal(await key.isVisible(), false);
    await page.locator(tid('show-key')).click();
    await key.waitFor({ state: 'visible' });
    const items = await key.locator('.key-list > li').allInnerTexts();
    // Every symbol, in a few entries that group them (thirteen were too many to scan).
    assert.ok(items.length <= 8, `${items.length} entries`);
    for (const word of ['PÜNCT', 'badge', 'bridge', 'covered', 'move now', 'Last move', 'Legal target', 'Ghost', 'Central hexagon', 'count', 'Sides']) {
      assert.ok(items.some((x) => x.includes(word)), `the key explains ${word}`);
    }
    assert.match(await key.locator('.key-cursor').innerText(), /Keyboard cursor/);
    for (const entry of await key.locator('.key-list > li').all()) {
      assert.ok(await entry.locator('svg.sample').count() >= 1, 'each entry has its drawing');
    }
    assert.match(items.join(' '), /column A and column Q/);
    await shot(page, PREFIX, 'key');
    await page.keyboard.press('Escape');
    await key.waitFor({ state: 'hidden' });
    await page.locator(tid('show-key')).click();
    await page.locator(tid('close-key')).click();
    await key.waitFor({ state: 'hidden' });
    await page.context().close();
  });
});

test('the central count beside the reserves, its highlight, and the warning before the last piece', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const geo = new Geometry(await api.board());
    for (const variant of ['standard', 'basic']) {
      const { id, token, state } = await lastPieceGame(api, geo, variant);
      assert.equal(state.to_move, 'white');
      const page = await openGame(browser, `last-piece-${variant}`, DESKTOP, server.url, id, token);
      await waitInSync(page, api, id);
      const { white, black } = state.central;
      assert.ok(black >= 3, `Black counts ${black} in the centre`);
      assert.match(await page.locator(tid('central-white')).innerText(), new RegExp(`\\b${white}\\b`));
      assert.match(await page.locator(tid('central-black')).innerText(), new RegExp(`\\b${black}\\b`));
      // The highlight: the central cells whose top dot is Black's.
      const expected = geo.board.cells.filter((c) => c.central && state.stacks[c.name]?.at(-1)?.side === 'black').map((c) => c.name).sort();
      await page.locator(tid('central-black')).click();
      assert.equal(await page.locator(tid('central-black')).getAttribute('aria-pressed'), 'true');
      const counted = await page.locator(`${tid('board')} [data-counted]`).evaluateAll((els) => els.map((e) => e.dataset.counted).sort());
      assert.deepEqual(counted, expected);
      assert.equal(counted.length, black);
      await page.locator(tid('central-black')).click();
      assert.equal(await page.locator(`${tid('board')} [data-counted]`).count(), 0);
      // White's last piece: picking it says what happens after it.
      const kind = Object.entries(state.reserves.white).find(([, n]) => n > 0)[0];
      const warning = page.locator(tid('last-piece-warning'));
      assert.equal(await warning.isVisible(), false);
      await page.locator(tid(`reserve-white-${kind}`)).click();
      await warning.waitFor({ state: 'visible' });
      const text = await warning.innerText();
      assert.match(text, /^This is your last piece: after it the game ends/);
      if (variant === 'standard') assert.match(text, new RegExp(`central count decides — now White ${white}, Black ${black}`));
      else assert.match(text, /ends in a draw unless someone connects/);
      assert.ok(!text.includes('`'), 'plain text, no backticks');
      await shot(page, PREFIX, `last-piece-${variant}`);
      await page.keyboard.press('Escape');
      await warning.waitFor({ state: 'hidden' });
      await page.context().close();
    }
  });
});

test('dark mode draws a readable board; screenshots of the game screen light and dark', { timeout: 90000 }, async () => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { id, token } = await gameAfter(server.api, TOWER);
    // Relative luminance and contrast ratio (WCAG 2).
    const lum = (rgb) => {
      const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map((v) => {
        const c = Number(v) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
    for (const scheme of ['light', 'dark']) {
      for (const [name, options] of [['1366x768', DESKTOP], ['390x844', PHONE]]) {
        const page = await openGame(browser, `${scheme}-${name}`, { ...options, colorScheme: scheme }, server.url, id, token);
        await waitInSync(page, server.api, id);
        const colours = await page.evaluate(() => {
          const board = document.querySelector('[data-testid="board"]');
          const fill = (sel) => getComputedStyle(board.querySelector(sel)).fill;
          return {
            page: getComputedStyle(document.body).backgroundColor,
            cell: fill('.hex:not(.central)'),
            white: fill('.piece.white .dot:not(.covered)'),
            whiteEdge: getComputedStyle(board.querySelector('.piece.white .dot:not(.covered)')).stroke,
            black: fill('.piece.black .dot:not(.covered)'),
          };
        });
        if (scheme === 'dark') assert.ok(lum(colours.page) < 0.05, `the page is dark (${colours.page})`);
        else assert.ok(lum(colours.page) > 0.6, `the page is light (${colours.page})`);
        const { cell } = colours;
        assert.ok(contrast(cell, colours.page) >= 1.2, `${scheme}: the cells (${cell}) stand out from the page (${colours.page})`);
        assert.ok(lum(colours.white) > lum(cell) && lum(colours.black) < lum(cell), `${scheme}: white dots (${colours.white}) lighter, black ones (${colours.black}) darker than the cells (${cell})`);
        assert.ok(contrast(colours.whiteEdge, cell) >= 3, `${scheme}: white pieces' outline (${colours.whiteEdge}) on the cells (${cell})`);
        assert.ok(contrast(colours.black, cell) >= 3, `${scheme}: black pieces (${colours.black}) on the cells (${cell})`);
        const box = await page.locator(tid('board')).boundingBox();
        assert.ok(box && box.width > 300 && box.height > 300, `${scheme} ${name}: the board is shown (${JSON.stringify(box)})`);
        await page.locator(`${tid('board')} [data-cell="E5"]`).hover();
        await shot(page, PREFIX, `game-${name}-${scheme}`);
        await page.context().close();
      }
    }
  });
});

test('flip and mute are remembered, the tab title says whose turn it is, the favicon is served', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const created = await api.create({ mode: 'ai', level: 1, side: 'white' });
    const page = await openGame(browser, 'tools', DESKTOP, server.url, created.id, created.seats.white);
    await waitInSync(page, api, created.id);
    await page.waitForFunction(() => document.title === '● Your turn — PÜNCT', null, { timeout: T.step });
    // A spectator's tab names the side to move.
    const watcher = await openGame(browser, 'watcher', DESKTOP, server.url, created.id, null);
    await watcher.waitForFunction(() => document.title === 'PÜNCT · White to move', null, { timeout: T.step });
    await watcher.context().close();

    const xOf = (cell) => page.evaluate((c) => {
      const r = document.querySelector(`[data-testid="board"] [data-hex="${c}"]`).getBoundingClientRect();
      return r.x + r.width / 2;
    }, cell);
    assert.ok((await xOf('A5')) < (await xOf('Q13')), 'column A on the left');
    await page.locator(tid('flip-board')).click();
    assert.ok((await xOf('A5')) > (await xOf('Q13')), 'flipped: column A on the right');
    await page.locator(tid('mute')).click();
    assert.equal(await page.locator(tid('mute')).getAttribute('aria-pressed'), 'true');
    await page.reload();
    await waitGamePage(page);
    await waitInSync(page, api, created.id);
    assert.equal(await page.locator(tid('flip-board')).getAttribute('aria-pressed'), 'true');
    assert.ok((await xOf('A5')) > (await xOf('Q13')), 'the flip is remembered');
    assert.equal(await page.locator(tid('mute')).getAttribute('aria-pressed'), 'true', 'the mute is remembered');
    // Moves still land where clicked on the flipped board.
    const g = await api.game(created.id);
    const move = g.legal_moves.find((m) => /^C@[A-Q]\d+\/0$/.test(m));
    await page.locator(tid('reserve-white-C')).click();
    await page.locator(`${tid('board')} [data-cell="${parseMove(move).to}"]`).click();
    const after = await api.waitFor(created.id, (s) => s.ply >= 1, { timeoutMs: T.move, what: 'the move on the flipped board' });
    assert.equal(after.moves[0], move);
    await page.locator(tid('flip-board')).click();
    await page.locator(tid('mute')).click();
    assert.equal(await page.locator(tid('mute')).getAttribute('aria-pressed'), 'false');

    // The page names it by this release (kept for good, tests/assets.rs).
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.match(href, /^\/static\/v-[0-9a-f-]+\/favicon\.svg$/);
    const icon = await fetch(`${server.url}${href}`);
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type'), /^image\/svg\+xml/);
    assert.match(await icon.text(), /<svg/);
    await page.context().close();
  });
});

test('a move that arrives is animated into place, unless reduced motion is asked for', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    for (const reducedMotion of ['no-preference', 'reduce']) {
      const { id, token, state } = await gameAfter(api, TOWER.slice(0, 4));
      const page = await openGame(browser, `motion-${reducedMotion}`, { ...DESKTOP, reducedMotion }, server.url, id, token);
      await waitInSync(page, api, id);
      // E10-E5/0 lands a piece on E5 from E10 (two levels' worth of sliding and lifting).
      const ply = state.ply + 1;
      const seen = page.waitForFunction((n) => {
        if (document.querySelector('[data-testid="game"]')?.dataset.ply !== String(n)) return false;
        // Read in the first frame that shows the new ply: the animation starts with it.
        return { animations: document.getAnimations().length };
      }, ply, { polling: 'raf', timeout: T.move });
      await api.move(id, token, TOWER[4]);
      const { animations } = await (await seen).jsonValue();
      if (reducedMotion === 'reduce') assert.equal(animations, 0, 'no animation with reduced motion');
      else assert.ok(animations > 0, 'the moved piece is animated');
      await page.context().close();
    }
  });
});
