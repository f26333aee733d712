// Passkeys in the page: the ceremonies (a start on the server, the
// browser's passkey by webauthn.js, the finish), the words for why this
// page offers none (reached by an IP address, plain http on a name other
// than localhost, a browser without WebAuthn), and the account screen's
// list of passkeys with adding and removing them. The sign-in and
// sign-up screens (signin.js) and the account screen (account.js) use
// these; docs/API.md ("Passkeys") has the routes.

import { api } from "./api.js";
import { h, tNodes } from "./dom.js";
import { t, dateText } from "./i18n.js";
import { formMessage, accountError, agentText } from "./forms.js";
import { createPasskey, usePasskey, webAuthnAvailable } from "./webauthn.js";

const DAY_TIME = { dateStyle: "medium", timeStyle: "short" };
/** The longest label the server takes (a display name's rules). */
const LABEL_MAX = 40;

/** A new passkey's label when none is typed: this browser in a few words ("Chrome on Linux"). */
export function deviceLabel() {
  return agentText(navigator.userAgent).slice(0, LABEL_MAX).trim();
}

/** Signs up as `name` with a new passkey: the new account's user (signed in). */
export async function signUpWithPasskey(name) {
  const { ceremony, options } = await api.passkeySignUpStart(name);
  const credential = await createPasskey(options);
  return (await api.passkeySignUpFinish(ceremony, credential, deviceLabel())).user;
}

/** Signs in with a passkey the browser offers (no name typed): the user. */
export async function signInWithPasskey() {
  const { ceremony, options } = await api.passkeySignInStart();
  const credential = await usePasskey(options);
  return (await api.passkeySignInFinish(ceremony, credential)).user;
}

/** Adds a new passkey to the signed-in account: {id, name, created, used}. */
export async function addPasskey(label) {
  const { ceremony, options } = await api.passkeyAddStart();
  const credential = await createPasskey(options);
  return (await api.passkeyAddFinish(ceremony, credential, label || deviceLabel())).passkey;
}

/** A fresh passkey sign-in to confirm something (a deletion): {ceremony, credential}. */
export async function passkeyProof() {
  const { ceremony, options } = await api.passkeySignInStart();
  return { ceremony, credential: await usePasskey(options) };
}

/** Whether the host of this page is an IP address (v4, or v6 in brackets). */
const isIp = (host) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
const isLoopback = (host) => /^127\./.test(host) || host === "[::1]";

/**
 * Why this page offers no passkeys, in words (a paragraph, with a link to
 * this page at http://localhost where that is the way), or null when it
 * may: `site` is GET /api/account's passkey_site (null: not known, offered).
 */
export function whyNoPasskeys(site, testid = "passkey-unavailable") {
  let text = null;
  if (site && site.ok === false) {
    const host = location.hostname; // an IPv6 address in brackets
    if (site.code === "passkeys_need_host_name" && isIp(host) && isLoopback(host)) {
      const here = `${location.protocol}//localhost${location.port ? `:${location.port}` : ""}${location.pathname}${location.search}`;
      text = tNodes("passkey.site.ip_local", { link: h("a", { href: here, "data-testid": "passkey-localhost" }, here) });
    } else if (site.code === "passkeys_need_host_name") {
      text = t("passkey.site.ip");
    } else if (site.code === "passkeys_need_https") {
      text = t("passkey.site.https");
    } else {
      text = accountError(site);
    }
  } else if (!webAuthnAvailable()) {
    text = t("error.passkey_unsupported");
  }
  if (text == null) return null;
  return h("p", { class: "small passkey-unavailable", "data-testid": testid, "data-code": site && site.ok === false ? site.code : "no_webauthn" }, text);
}

/**
 * A passkey failure in words: a person who cancels is told calmly (an
 * "info" message, not an error). Answers [text, kind] for formMessage.
 */
export function passkeyFailure(err) {
  return [accountError(err), err && err.code === "passkey_cancelled" ? "info" : "error"];
}

/** What the page says while the browser's own passkey dialog is open. */
export const waitingText = () => t("passkey.waiting");

/**
 * The account screen's passkeys: each with its label, when it was added
 * and last used, and a button to remove it (the server refuses the last
 * way to sign in, said here); a passkey added with an optional label.
 * `refresh(text)` reloads the account and draws it again with `text`
 * said here (`note`: {text, kind} carried over from before the redraw).
 * `closed()` says the screen is gone.
 */
export function passkeysSection({ passkeys, site, note = null, refresh, closed }) {
  const status = formMessage("passkeys-status");
  if (note) status.say(note.text, note.kind);
  const items = passkeys.length
    ? passkeys.map((p) => {
      const remove = h("button", { type: "button", class: "tool", "data-testid": "passkey-remove",
        "aria-label": t("passkey.remove_label", { name: p.name }) }, t("passkey.remove"));
      remove.addEventListener("click", async () => {
        remove.disabled = true;
        status.say("");
        try {
          await api.removePasskey(p.id);
          if (closed()) return;
          await refresh({ text: t("passkey.removed", { name: p.name }), kind: "ok" });
        } catch (e) {
          if (closed()) return;
          status.say(accountError(e));
          remove.disabled = false;
          remove.focus();
        }
      });
      return h("li", { "data-id": p.id, "data-testid": "passkey-item" },
        h("span", { class: "passkey-name", "data-testid": "passkey-name" }, p.name),
        remove,
        h("span", { class: "passkey-times small" },
          p.used == null
            ? t("passkey.times.unused", { created: dateText(p.created, DAY_TIME) })
            : t("passkey.times.used", { created: dateText(p.created, DAY_TIME), used: dateText(p.used, DAY_TIME) })));
    })
    : [h("li", { class: "empty small", "data-testid": "passkeys-empty" }, t("passkey.none"))];
  const list = h("ul", { class: "session-list passkey-list", "data-testid": "passkey-list", "data-count": String(passkeys.length) }, items);

  const blocked = whyNoPasskeys(site);
  let adding = null;
  if (!blocked) {
    const labelId = "passkey-label-input";
    const label = h("input", { type: "text", id: labelId, name: "passkey-label", autocomplete: "off", maxlength: String(LABEL_MAX),
      placeholder: deviceLabel(), "data-testid": "passkey-label", spellcheck: "false" });
    const add = h("button", { type: "submit", "data-testid": "passkey-add" }, t("passkey.add"));
    adding = h("form", { class: "account-form passkey-add", novalidate: true },
      h("div", { class: "field" }, h("label", { for: labelId }, t("passkey.label")), label),
      h("div", { class: "row buttons" }, add));
    adding.addEventListener("submit", async (e) => {
      e.preventDefault();
      add.disabled = true;
      status.say(waitingText(), "info");
      try {
        const made = await addPasskey(label.value.trim());
        if (closed()) return;
        await refresh({ text: t("passkey.added", { name: made.name }), kind: "ok" });
      } catch (err) {
        if (closed()) return;
        status.say(...passkeyFailure(err));
        add.disabled = false;
        add.focus();
      }
    });
  }
  return h("section", { class: "panel account-panel", "aria-labelledby": "passkeys-title", "data-testid": "account-passkeys" },
    h("h2", { id: "passkeys-title" }, t("passkey.title")),
    h("p", { class: "small" }, t("passkey.about")),
    list,
    adding || blocked,
    status.el);
}
