// Short sounds made with the Web Audio API (no audio files): a move, your
// turn, low time and the end of the game, and a mute toggle remembered in
// this browser. Browsers let a page make sound only after the person has
// touched it, so the AudioContext is made on the first click or key.
//
//   import { sound } from "./sound.js";
//   sound.play("move");                    // "move" | "turn" | "lowtime" | "end"
//   toolbar.append(sound.muteButton());    // data-testid="mute"

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "punct:mute";

// Each sound: notes as [frequency Hz, start s, length s, wave, volume].
const SOUNDS = {
  move: [[520, 0, 0.07, "triangle", 0.35], [260, 0, 0.05, "sine", 0.25]],
  turn: [[660, 0, 0.12, "sine", 0.25], [880, 0.12, 0.16, "sine", 0.25]],
  lowtime: [[988, 0, 0.08, "square", 0.08], [988, 0.16, 0.08, "square", 0.08], [988, 0.32, 0.08, "square", 0.08]],
  end: [[784, 0, 0.18, "sine", 0.25], [659, 0.18, 0.18, "sine", 0.25], [523, 0.36, 0.4, "sine", 0.25]],
};

let ctx = null;
let muted = readMuted();
const buttons = new Set();

function readMuted() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

function unlock() {
  if (ctx) {
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    return;
  }
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    ctx = new Ctx();
  } catch {
    ctx = null;
  }
}
// A user gesture allows sound from then on.
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { capture: true, passive: true });

function setMuted(value) {
  muted = !!value;
  try {
    localStorage.setItem(KEY, muted ? "1" : "0");
  } catch {
    /* storage disabled: this page remembers */
  }
  for (const b of buttons) paint(b);
}

function paint(button) {
  button.textContent = muted ? t("game.sound.off") : t("game.sound.on");
  button.setAttribute("aria-pressed", String(muted));
  button.title = muted ? t("game.sound.off_title") : t("game.sound.on_title");
  button.classList.toggle("muted", muted);
}

export const sound = {
  get muted() {
    return muted;
  },
  setMuted,
  /** Plays a short sound; nothing when muted or before the person has touched the page. */
  play(name) {
    const notes = SOUNDS[name];
    if (muted || !notes || !ctx || ctx.state !== "running") return;
    const now = ctx.currentTime + 0.01;
    for (const [freq, start, len, wave, volume] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      const t0 = now + start;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(volume, t0 + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0);
      osc.stop(t0 + len + 0.02);
    }
  },
  /** A new mute toggle (data-testid="mute"); every toggle shows the same setting. */
  muteButton() {
    const b = h("button", { type: "button", class: "tool mute", "data-testid": "mute", onclick: () => setMuted(!muted) });
    buttons.add(b);
    paint(b);
    return b;
  },
  /** Forgets a toggle made by muteButton (the screen holding it is gone). */
  dropButton(b) {
    buttons.delete(b);
  },
};
