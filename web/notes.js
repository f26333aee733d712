// The signed-in account's notifications as they come: one live socket per
// page (`/api/account/live`, docs/API.md "Notifications") whatever screen
// is shown, holding the unread count and telling whoever listens (the
// header's bell, bell.js) of the count and of each new notification. It
// follows session.js: opened for a signed-in account, closed on sign-out,
// and opened again with a growing delay when the connection drops.

import { session } from "./session.js";

const listeners = new Set();
let socket = null;
let user = null;
let delay = 1000;
let timer = null;

/** The unread count now (null until the socket said it). */
export let unread = null;

function tell(note) {
  for (const fn of listeners) fn(unread, note);
}

function connect() {
  clearTimeout(timer);
  if (!user) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/account/live`);
  socket = ws;
  ws.onmessage = (ev) => {
    if (socket !== ws) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (typeof msg?.unread !== "number") return;
    delay = 1000;
    unread = msg.unread;
    tell(msg.type === "notification" ? msg.notification : null);
  };
  ws.onerror = () => {}; // a close event always follows
  ws.onclose = () => {
    if (socket !== ws || !user) return;
    socket = null;
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30000);
  };
}

function follow(next) {
  if (next?.name === user?.name) return;
  if (socket) {
    const old = socket;
    socket = null;
    old.close();
  }
  user = next || null;
  unread = null;
  tell(null);
  if (user) connect();
}

session.onChange((next) => {
  follow(next);
  return true;
});

/**
 * Hears `fn(unread, note)` on every change (note: a new notification, or
 * null); the socket opens for the signed-in account on the first listener.
 * Returns a function that stops listening.
 */
export function listen(fn) {
  listeners.add(fn);
  follow(session.user);
  if (unread != null) fn(unread, null);
  return () => listeners.delete(fn);
}

/** An unread count as shown, on the bell and in the tab's title: "99+" above 99. */
export const countText = (n) => (n > 99 ? "99+" : String(n));

/** Sets the count after marking some read here (the socket says it too). */
export function setUnread(n) {
  unread = n;
  tell(null);
}
