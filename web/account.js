// The account screen (`/account`): the user's name, since when they are
// a member, a link to their profile and a download of all their games;
// the games this browser played signed out, added to the account on
// request; the sessions signed in (this device marked), signing out here
// or everywhere else; the passkeys (passkeys.js: added, removed, never
// the last way in); the API tokens a bot's program signs in with
// (tokens.js); changing the password (the other sessions end), or
// setting a first one for an account made with a passkey; deleting the
// account, confirmed by typing its name and giving the password, or a
// passkey when it has none. Signed out, it offers to sign in or to create
// an account.

import { api } from "./api.js";
import { h, gameMemory } from "./dom.js";
import { t, dateText } from "./i18n.js";
import { session } from "./session.js";
import { siteNav, profileHref } from "./nav.js";
import { field, formMessage, showPassword, accountError, fieldOf, agentText } from "./forms.js";
import { passwordRules } from "./signin.js";
import { passkeysSection, passkeyProof, passkeyFailure, whyNoPasskeys, waitingText } from "./passkeys.js";
import { tokensSection } from "./tokens.js";

const DAY_TIME = { dateStyle: "medium", timeStyle: "short" };

/**
 * The games of this browser already offered to account `user` (a set of
 * ids); with `add`, remembers those too. Kept in this browser only.
 */
function attachedMemory(user, add = null) {
  const key = `punct:attached:${user}`;
  let ids = [];
  try {
    ids = JSON.parse(localStorage.getItem(key) || "[]");
  } catch {
    /* storage disabled or garbled: offered again */
  }
  const set = new Set(Array.isArray(ids) ? ids : []);
  if (add) {
    for (const id of add) set.add(id);
    try {
      localStorage.setItem(key, JSON.stringify([...set].slice(-1000)));
    } catch {
      /* storage disabled */
    }
  }
  return set;
}

export function accountScreen(root, navigate) {
  let closed = false;
  let loaded = null; // GET /api/account's answer while signed in
  let passkeyNote = null; // {text, kind} to say in the passkeys' section once drawn again
  const page = h("div", { class: "account-page", "data-testid": "account" });
  root.replaceChildren(siteNav("account"), page);
  const notice = formMessage("account-notice");

  /** Signed out: say so (and what just happened), offer to sign in. */
  function signedOut(text = "") {
    notice.say(text, "ok");
    page.replaceChildren(h("section", { class: "panel account-panel", "data-testid": "account-signed-out" },
      h("h1", { tabindex: "-1" }, t("account.title")),
      notice.el,
      h("p", {}, t("account.signed_out.text")),
      h("p", { class: "link-list" },
        h("a", { href: "/signin?next=%2Faccount", "data-nav": "", class: "button primary", "data-testid": "account-to-signin" }, t("account.signin.link")),
        h("a", { href: "/signup?next=%2Faccount", "data-nav": "", class: "button" }, t("account.signup.link")))));
  }

  /** quiet: the screen stays as it is until the answer is drawn (no "Loading…"). */
  async function load({ quiet = false } = {}) {
    if (!session.user) {
      signedOut();
      return;
    }
    if (!quiet) page.replaceChildren(h("p", { class: "small" }, t("account.loading")));
    let answer;
    try {
      answer = await api.account();
    } catch (e) {
      if (!closed) page.replaceChildren(h("p", { class: "message", role: "alert" }, accountError(e)));
      return;
    }
    if (closed) return;
    if (!answer.user) {
      session.set(null); // the session ended elsewhere: the header follows
      return;
    }
    loaded = answer;
    draw();
  }

  function draw() {
    const user = loaded.user;
    const passkeys = loaded.passkeys || [];
    const note = passkeyNote;
    passkeyNote = null;
    page.replaceChildren(...[
      h("section", { class: "panel account-panel account-head" },
        h("h1", { "data-testid": "account-name" }, user.name,
          user.bot ? [" ", h("span", { class: "badge bot" }, t("profile.bot"))] : null),
        h("p", { class: "small", "data-testid": "account-since" }, t("profile.since", { date: dateText(user.created) })),
        h("p", { class: "link-list" },
          h("a", { href: profileHref(user.name), "data-nav": "", "data-testid": "account-profile" }, t("account.profile_link")),
          h("a", { href: api.accountRecordsUrl, download: "", "data-testid": "account-records" }, t("account.records"))),
        notice.el),
      seatsSection(user),
      sessionsSection(loaded.sessions || []),
      passkeysSection({ passkeys, site: loaded.passkey_site, note, refresh: refreshPasskeys, closed: () => closed }),
      tokensSection(),
      // Without a password or a passkey (a bot's account) nothing here can be confirmed.
      user.password === false && !passkeys.length
        ? h("section", { class: "panel account-panel" }, h("p", { class: "small", "data-testid": "no-password" }, t("account.no_password")))
        : [passwordSection(user), deleteSection(user)],
    ].flat().filter(Boolean));
  }

  /** After a passkey was added or removed: the account again, `note` said in the passkeys' section. */
  async function refreshPasskeys(note) {
    passkeyNote = note;
    await load({ quiet: true });
    if (!closed) page.querySelector('[data-testid="passkeys-status"]')?.focus();
  }

  /**
   * The games this browser played signed out (their seats' tokens are
   * kept here): added to the account when asked. Those asked about once
   * are not offered again.
   */
  function seatsSection(user) {
    const done = attachedMemory(user.id);
    const seats = Object.entries(gameMemory.all())
      .filter(([id, e]) => e && e.token && !done.has(id))
      .reverse() // newest first
      .slice(0, 200)
      .map(([game, e]) => ({ game, token: e.token }));
    if (!seats.length) return null;
    const status = formMessage("seats-status");
    const add = h("button", { type: "button", "data-testid": "attach-seats" }, t("account.seats.button"));
    const section = h("section", { class: "panel account-panel", "aria-labelledby": "seats-title", "data-testid": "account-seats" },
      h("h2", { id: "seats-title" }, t("account.seats.title")),
      h("p", { class: "small" }, t("account.seats.about", { count: seats.length })),
      h("div", { class: "row buttons" }, add),
      status.el);
    add.addEventListener("click", async () => {
      add.disabled = true;
      try {
        const answer = await api.attachSeats(seats);
        if (closed) return;
        const added = (answer.attached || []).filter((a) => a.sides && a.sides.length).length;
        attachedMemory(user.id, seats.map((s) => s.game));
        status.say(added ? t("account.seats.added", { count: added }) : t("account.seats.none"), "ok");
        add.hidden = true;
        status.el.focus();
      } catch (e) {
        status.say(accountError(e));
        add.disabled = false;
      }
    });
    return section;
  }

  function sessionsSection(sessions) {
    const status = formMessage("sessions-status");
    const list = h("ul", { class: "session-list", "data-testid": "session-list" },
      sessions.map((s) => h("li", { class: s.current ? "current" : null, "data-current": String(!!s.current) },
        h("span", { class: "session-agent" }, agentText(s.agent)),
        s.current ? h("span", { class: "badge here", "data-testid": "this-device" }, t("account.sessions.this_device")) : null,
        h("span", { class: "session-times small" },
          t("account.sessions.times", { created: dateText(s.created, DAY_TIME), seen: dateText(s.seen, DAY_TIME) })))));
    const others = sessions.filter((s) => !s.current).length;
    const signOut = h("button", { type: "button", "data-testid": "account-signout" }, t("account.signout"));
    const elsewhere = h("button", { type: "button", "data-testid": "account-signout-elsewhere", disabled: others === 0 },
      t("account.signout_elsewhere"));
    signOut.addEventListener("click", async () => {
      signOut.disabled = true;
      try {
        await api.signOut();
        if (!closed) session.set(null);
      } catch (e) {
        if (e.code === "not_signed_in") {
          session.set(null); // it had ended already
          return;
        }
        status.say(accountError(e));
        signOut.disabled = false;
      }
    });
    elsewhere.addEventListener("click", async () => {
      elsewhere.disabled = true;
      try {
        const { ended } = await api.signOutElsewhere();
        if (closed) return;
        notice.say(t("account.sessions.ended", { count: ended ?? 0 }), "ok");
        await load();
        page.querySelector('[data-testid="account-notice"]')?.focus();
      } catch (e) {
        status.say(accountError(e));
        elsewhere.disabled = false;
      }
    });
    return h("section", { class: "panel account-panel", "aria-labelledby": "sessions-title" },
      h("h2", { id: "sessions-title" }, t("account.sessions.title")),
      h("p", { class: "small" }, t("account.sessions.about")),
      list,
      h("div", { class: "row buttons" }, signOut, elsewhere),
      status.el);
  }

  function passwordSection(user) {
    // The account's name for password managers (which password changes).
    const username = h("input", { type: "text", name: "username", autocomplete: "username", value: user.name, hidden: true, readonly: true });
    const current = user.password === false ? null : field(t("account.password.current"), {
      type: "password", name: "current-password", autocomplete: "current-password", "data-testid": "password-current",
    });
    const fresh = field(t("account.password.new"), {
      type: "password", name: "new-password", autocomplete: "new-password", "data-testid": "password-new",
    }, passwordRules());
    const message = formMessage("password-message");
    const first = user.password === false; // made with a passkey: a first password, no current one
    const submit = h("button", { type: "submit", "data-testid": "password-submit" }, t(first ? "account.password.first_button" : "account.password.change"));
    const form = h("form", { class: "account-form", novalidate: true },
      username, current && current.el, fresh.el,
      showPassword([current, fresh].filter(Boolean).map((f) => f.input)),
      message.el,
      h("div", { class: "row buttons" }, submit));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      current?.clear();
      fresh.clear();
      message.say("");
      if (current && !current.input.value) {
        current.error(t("account.password.empty"));
        current.input.focus();
        return;
      }
      if (!fresh.input.value) {
        fresh.error(t("account.password.empty"));
        fresh.input.focus();
        return;
      }
      submit.disabled = true;
      try {
        const { ended } = await api.changePassword(current ? current.input.value : null, fresh.input.value);
        if (closed) return;
        notice.say(t(first ? "account.password.set" : "account.password.changed", { count: ended ?? 0 }), "ok");
        await load(); // the list of sessions is shorter now
        page.querySelector('[data-testid="account-notice"]')?.focus();
      } catch (err) {
        if (closed) return;
        const text = accountError(err);
        const where = fieldOf(err.code);
        const target = where === "current" ? current : where === "password" ? fresh : null;
        if (target) {
          target.error(text);
          target.input.focus();
        } else {
          message.say(text);
          submit.disabled = false;
          submit.focus();
        }
      } finally {
        if (!closed) submit.disabled = false;
      }
    });
    return h("section", { class: "panel account-panel", "aria-labelledby": "password-title" },
      h("h2", { id: "password-title" }, t(first ? "account.password.first_title" : "account.password.title")),
      h("p", { class: "small" }, t(first ? "account.password.first_about" : "account.password.about")),
      form);
  }

  function deleteSection(user) {
    // Without a password the account is confirmed by one of its passkeys (a fresh sign-in with it).
    const byPasskey = user.password === false;
    const blocked = byPasskey ? whyNoPasskeys(loaded.passkey_site, "delete-passkey-unavailable") : null;
    const confirm = field(t("account.delete.confirm", { name: user.name }), {
      name: "confirm-name", autocomplete: "off", "data-testid": "delete-confirm",
    });
    const password = byPasskey ? null : field(t("account.password.label"), {
      type: "password", name: "delete-password", autocomplete: "current-password", "data-testid": "delete-password",
    });
    const message = formMessage("delete-message");
    const submit = h("button", { type: "submit", class: "danger", "data-testid": "delete-submit", disabled: true }, t("account.delete.button"));
    const ready = () => !blocked && confirm.input.value.trim() === user.name && (!password || password.input.value !== "");
    for (const f of [confirm, password].filter(Boolean)) f.input.addEventListener("input", () => { submit.disabled = !ready(); });
    const form = h("form", { class: "account-form", novalidate: true }, confirm.el, password && password.el,
      byPasskey ? blocked || h("p", { class: "small", "data-testid": "delete-by-passkey" }, t("account.delete.with_passkey")) : null,
      message.el,
      h("div", { class: "row buttons" }, submit));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!ready()) return;
      password?.clear();
      message.say(byPasskey ? waitingText() : "", "info");
      submit.disabled = true;
      try {
        if (byPasskey) await api.deleteAccountWithPasskey(await passkeyProof());
        else await api.deleteAccount(password.input.value);
        if (closed) return;
        loaded = null; // said here, not as a plain sign-out
        session.set(null);
        signedOut(t("account.delete.done", { name: user.name }));
        page.querySelector("h1")?.focus();
      } catch (err) {
        if (closed) return;
        const [text, kind] = passkeyFailure(err);
        if (password && fieldOf(err.code) === "current") {
          message.say("");
          password.error(text);
          password.input.focus();
        } else {
          message.say(text, kind);
        }
        submit.disabled = !ready();
      }
    });
    return h("section", { class: "panel account-panel danger-zone", "aria-labelledby": "delete-title" },
      h("h2", { id: "delete-title" }, t("account.delete.title")),
      h("p", { class: "small" }, t("account.delete.about")),
      form);
  }

  load();
  // Signed out from the header's menu, or the deletion above: this screen follows.
  const stop = session.onChange((user) => {
    if (closed) return;
    if (!user && loaded) {
      loaded = null;
      signedOut(t("account.signed_out.now"));
      page.querySelector("h1")?.focus();
    } else if (user && !loaded) {
      load();
    }
  });
  return {
    destroy() {
      closed = true;
      stop();
    },
  };
}
