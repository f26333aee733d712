// A bot in the page (docs/API.md, "Bots"): its account made in the
// browser and its API token made on the account page (shown once);
// `punct bot` started with that token, driving `punct engine` (level 1,
// a tenth of a second a move) and keeping an untimed seek in the lobby;
// a person on the start screen sees the seek marked BOT, accepts it and
// plays the whole game by clicking, the bot's seat marked BOT, until the
// game ends (the person plays only additions, chosen at random among the
// legal ones: the bot wins by connecting); then `punct bot` stops by
// itself (`--games 1`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, playByClicks, showTab } from '../lib/browser.mjs';
import { serverBinary } from '../lib/server.mjs';

const PREFIX = 'bot';
const env = serverAndBrowser();
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PASSWORD = 'plum orbit lantern 42';
/** The longest the game may take (the bot thinks 100 ms a move). */
const GAME_MS = 100000;

async function open(label) {
  const page = await newPage(env.browser, label, DESKTOP);
  pages.push(page);
  return page;
}

/** `punct bot` with `args`: the process and its output so far. */
function startBot(args) {
  const proc = spawn(serverBinary(), ['bot', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { text: '' };
  for (const s of [proc.stdout, proc.stderr]) {
    s.setEncoding('utf8');
    s.on('data', (d) => { out.text += d; });
  }
  const exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, out, exited };
}

/** A small deterministic random source (xorshift), for the person's choices. */
function random(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

test('a person accepts a bot\'s seek in the lobby and plays it to the end against punct bot', { timeout: 170000 }, async (t) => {
  const { server } = env;
  const { api } = server;
  let bot = null;
  try {
    await withArtifacts(PREFIX, () => pages, async () => {
      // The bot's account and its token, in the browser.
      const owner = await open('bot-owner');
      await owner.goto(`${server.url}/signup`);
      await owner.locator(tid('signup-name')).fill('Robo');
      await owner.locator(tid('signup-password')).fill(PASSWORD);
      await owner.locator(tid('signup-submit')).click();
      await owner.locator(`${tid('nav-user')}[data-user="Robo"]`).waitFor();
      await owner.goto(`${server.url}/account`);
      await owner.locator(tid('account-tokens')).waitFor();
      await owner.locator(tid('token-label')).fill('punct bot');
      await owner.locator(tid('token-make')).click();
      const secret = await owner.locator(tid('token-secret')).inputValue();
      assert.match(secret, /^punct_[A-Za-z0-9_-]{43}$/);
      const item = owner.locator(tid('token-item'));
      await item.waitFor();
      assert.match(await item.innerText(), /punct bot/);
      assert.ok(!(await owner.locator(tid('token-list')).innerText()).includes(secret), 'the list never shows the secret');
      await shot(owner, PREFIX, 'token-made');

      bot = startBot([
        '--server', server.url, '--token', secret, '--upgrade',
        '--engine', `cmd:${serverBinary()} engine --engine level1`,
        '--seek', 'untimed', '--side', 'white', '--movetime', '100', '--games', '1',
      ]);

      // The person (on another instance when there are several) finds the
      // seek, marked as a bot's, and accepts it.
      const person = await open('person');
      await person.goto(`${server.at(1)}/`);
      const line = person.locator(`${tid('lobby-seeks')} li[data-seek]`).filter({ has: person.locator('.bot-mark') });
      await line.first().waitFor({ timeout: 30000 });
      assert.match(await line.first().innerText(), /Robo/);
      assert.equal((await line.first().locator('.bot-mark').innerText()).trim(), 'BOT');
      await shot(person, PREFIX, 'bot-seek-listed');
      await line.first().locator(tid('accept-seek')).click();
      const { id } = await waitGamePage(person);
      await showTab(person, 'players');
      await person.locator(tid('bot-white')).waitFor();
      assert.equal((await person.locator(tid('bot-white')).innerText()).trim(), 'BOT');
      assert.equal(await person.locator(tid('bot-black')).count(), 0, 'the person is no bot');
      let g = await api.game(id);
      assert.equal(g.players.white.bot, true);
      assert.equal(g.players.white.name, 'Robo');

      // The bot (White) opens; the person answers each of its moves by clicking.
      const pick = random(20240611);
      const end = Date.now() + GAME_MS;
      let clicked = 0;
      for (;;) {
        g = await api.waitFor(id, (s) => s.status === 'over' || s.to_move === 'black', {
          timeoutMs: T.ai, what: "the bot's move",
        });
        if (g.status === 'over') break;
        assert.ok(Date.now() < end, `the game did not end within ${GAME_MS / 1000} s (ply ${g.ply})`);
        await waitInSync(person, api, id);
        const adds = g.legal_moves.filter((m) => m.includes('@'));
        const choices = adds.length ? adds : g.legal_moves;
        await playByClicks(person, api, id, choices[pick(choices.length)], { side: 'black' });
        clicked += 1;
      }
      t.diagnostic(`game ${id}: ${g.ply} plies (${clicked} clicked), ${g.result.text}`);
      await person.locator(tid('result-banner')).waitFor({ timeout: T.move });
      await shot(person, PREFIX, 'game-over');
      assert.ok(g.ply >= 3, `a whole game: ${g.ply} plies`);

      // The bot stops by itself after its one game.
      const code = await Promise.race([bot.exited, new Promise((r) => setTimeout(() => r('still running'), 20000))]);
      assert.equal(code, 0, `punct bot exits 0 after its game; it said:\n${bot.out.text}`);
      assert.match(bot.out.text, new RegExp(`game ${id}: playing white against`));
      assert.match(bot.out.text, new RegExp(`game ${id}: over`));
      for (const p of [...pages]) await p.context().close();
      pages.length = 0;
    });
  } finally {
    if (bot && bot.proc.exitCode === null) bot.proc.kill('SIGKILL');
  }
});
