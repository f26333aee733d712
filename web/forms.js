// The account screens' forms (signin.js, account.js, passkeys.js): a
// labelled field with its rules and its error beside it (tied by
// aria-describedby), a form's own message, "show the password", where a
// server error's code belongs: a user name's under the name, a
// password's under the password, the rest (a wrong sign-in, too many
// tries) above the button; and a browser in a few words (a session's, a
// new passkey's label).

import { h } from "./dom.js";
import { t, errorText } from "./i18n.js";

let serial = 0;

/**
 * A field: {el, input, error(text), clear()}. `hint` is shown under the
 * field and read with it; an error replaces nothing, it is added below
 * the hint, read with the field and marks it invalid.
 * `attrs` go on the <input> (type, autocomplete, data-testid …).
 */
export function field(label, attrs, hint = null) {
  const id = `field-${++serial}`;
  const hintEl = hint ? h("p", { class: "field-hint small", id: `${id}-hint` }, hint) : null;
  const errorEl = h("p", { class: "field-error", id: `${id}-error`, "data-testid": attrs["data-testid"] ? `${attrs["data-testid"]}-error` : null });
  const input = h("input", { type: "text", spellcheck: "false", autocapitalize: "none", ...attrs, id });
  const describe = () => {
    const ids = [hintEl && hintEl.id, errorEl.textContent ? errorEl.id : null].filter(Boolean);
    if (ids.length) input.setAttribute("aria-describedby", ids.join(" "));
    else input.removeAttribute("aria-describedby");
  };
  describe();
  const el = h("div", { class: "field" }, h("label", { for: id }, label), input, hintEl, errorEl);
  return {
    el,
    input,
    /** Shows `text` as this field's error (empty: none). */
    error(text) {
      errorEl.textContent = text || "";
      if (text) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
      describe();
    },
    clear() {
      this.error("");
    },
  };
}

/** A form's own message (errors that belong to no field, or what was done): a live region. */
export function formMessage(testid) {
  // Focusable by script: a screen redrawn after an action moves the focus here.
  const el = h("p", { class: "form-message", "data-testid": testid, role: "status", "aria-live": "polite", tabindex: "-1" });
  return {
    el,
    /** kind: "error" | "ok" */
    say(text, kind = "error") {
      el.textContent = text || "";
      el.dataset.kind = kind;
    },
  };
}

/** The checkbox "Show the password" that turns the `inputs` into plain text and back. */
export function showPassword(inputs) {
  const box = h("input", { type: "checkbox", "data-testid": "show-password" });
  box.addEventListener("change", () => {
    for (const input of inputs) input.type = box.checked ? "text" : "password";
  });
  return h("label", { class: "check" }, box, ` ${t("account.show_password")}`);
}

/**
 * An API error in words for the account screens: its code's text, and
 * for a refusal that says no time to wait, "try again later" rather than
 * a number that is not known.
 */
export function accountError(err) {
  if (err && err.status === 429 && err.params && err.params.seconds == null) return t("account.try_later");
  return errorText(err);
}

/**
 * Which field a server error's code belongs to: "name" (the user name's
 * rules, a name taken), "password" (the new password's rules), "current"
 * (the password given to confirm) or null (the form's own message).
 */
export function fieldOf(code) {
  if (!code) return null;
  if (code.startsWith("name_") || code === "no_user") return "name";
  if (code.startsWith("password_")) return "password";
  if (code === "wrong_password") return "current";
  return null;
}

/** A browser's User-Agent in a few words: "Firefox on Windows" (else the text itself, cut short). */
export function agentText(agent) {
  const ua = String(agent || "");
  if (!ua) return t("account.sessions.unknown_agent");
  const browser = [
    [/Edg(e|A|iOS)?\//, "Edge"], [/OPR\/|Opera/, "Opera"], [/Firefox\/|FxiOS/, "Firefox"],
    [/SamsungBrowser/, "Samsung Internet"], [/Chrom(e|ium)\/|CriOS/, "Chrome"], [/Safari\//, "Safari"],
  ].find(([re]) => re.test(ua));
  const os = [
    [/Android/, "Android"], [/iPhone|iPad|iPod/, "iOS"], [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "macOS"], [/CrOS/, "ChromeOS"], [/Linux/, "Linux"],
  ].find(([re]) => re.test(ua));
  if (browser && os) return t("account.sessions.agent", { browser: browser[1], os: os[1] });
  if (browser) return browser[1];
  return ua.length > 60 ? `${ua.slice(0, 59)}…` : ua;
}
