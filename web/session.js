// Who is signed in on this page: the account of `GET /api/account`, asked
// once per page load (app.js, beside the catalogue) and changed by the
// account screens (signin.js, account.js) when they sign in or out; and
// whether the page's address allows passkeys (its `passkey_site`). The
// session itself is an HttpOnly cookie: the page never sees it.

import { api } from "./api.js";

let current = null; // the signed-in user ({id, name, created, bot, password}) or null
let site = null; // GET /api/account's passkey_site: whether this page may use passkeys (null: not known)
const listeners = new Set();

export const session = {
  /** Asks the server who is signed in; a failure counts as signed out. */
  async load() {
    try {
      const answer = await api.account();
      current = answer.user || null;
      site = answer.passkey_site || null;
    } catch {
      current = null; // the header then offers to sign in, which says what is wrong
    }
    return current;
  },

  /**
   * Whether this page may use passkeys, as the server sees its address:
   * {ok: true, id} or {ok: false, code, message}; null when not known.
   */
  get passkeySite() {
    return site;
  },

  /** The signed-in user, or null. */
  get user() {
    return current;
  },

  /** Sets the signed-in user (null: signed out) and tells every listener. */
  set(user) {
    current = user || null;
    for (const fn of [...listeners]) fn(current);
  },

  /**
   * Calls `fn(user)` on every change until the answered function is
   * called (or `fn` answers false: an element no longer shown stops
   * listening by itself).
   */
  onChange(fn) {
    const wrapped = (user) => {
      if (fn(user) === false) listeners.delete(wrapped);
    };
    listeners.add(wrapped);
    return () => listeners.delete(wrapped);
  },
};
