// The sign-in and sign-up screens (`/signin`, `/signup`): a user name and
// a password, the rules beside the fields when creating an account, each
// refusal of the server said beside the field it is about (a name taken,
// a password too short) or above the button (a wrong name or password,
// too many tries and when to try again); beside them a passkey (the
// typed name and a new passkey instead of a password, or signing in with
// a passkey and no name typed), or why this page offers none. Signed in,
// the page goes on to `next` (the screen the header's "Sign in" was
// clicked on) or home.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t, num } from "./i18n.js";
import { session } from "./session.js";
import { siteNav, profileHref } from "./nav.js";
import { field, formMessage, showPassword, accountError, fieldOf } from "./forms.js";
import { signInWithPasskey, signUpWithPasskey, whyNoPasskeys, passkeyFailure, waitingText } from "./passkeys.js";

/** The rules of docs/API.md for user names and passwords, as the page words them. */
export const NAME_MIN = 2;
export const NAME_MAX = 20;
export const PASSWORD_MIN = 10;

/** The user name's rules in words. */
export const nameRules = () => t("account.name.rules", { min: NAME_MIN, max: NAME_MAX });
/** The password's rules in words. */
export const passwordRules = () => t("account.password.rules", { min: num(PASSWORD_MIN) });

/** The screen for a signed-in user who opens /signin or /signup. */
function alreadyIn(user) {
  return h("section", { class: "panel account-panel", "data-testid": "signed-in-already" },
    h("h1", { tabindex: "-1" }, t("account.already.title")),
    h("p", {}, t("account.already.text", { name: user.name })),
    h("p", { class: "link-list" },
      h("a", { href: "/account", "data-nav": "" }, t("nav.account")),
      h("a", { href: profileHref(user.name), "data-nav": "" }, t("nav.profile")),
      h("a", { href: "/", "data-nav": "" }, t("account.home"))));
}

/** signup: the sign-up form (else sign-in); next: where to go once signed in. */
export function signInScreen(root, navigate, { signup = false, next = null } = {}) {
  let closed = false;
  const mode = signup ? "signup" : "signin";
  const page = h("div", { class: "account-page", "data-testid": mode });
  root.replaceChildren(siteNav("signin"), page);

  const draw = () => {
    if (session.user) {
      page.replaceChildren(alreadyIn(session.user));
      return;
    }
    page.replaceChildren(form());
  };

  function form() {
    const name = field(t("account.name.label"), {
      name: "username", autocomplete: "username", "data-testid": `${mode}-name`,
    }, signup ? nameRules() : null);
    const password = field(t("account.password.label"), {
      type: "password", name: "password", autocomplete: signup ? "new-password" : "current-password",
      "data-testid": `${mode}-password`,
    }, signup ? passwordRules() : null);
    const message = formMessage(`${mode}-message`);
    const submit = h("button", { type: "submit", class: "primary", "data-testid": `${mode}-submit` },
      t(signup ? "account.signup.button" : "account.signin.button"));
    const keep = next ? `?next=${encodeURIComponent(next)}` : "";
    const other = signup
      ? h("p", {}, t("account.signup.have_one"), " ", h("a", { href: `/signin${keep}`, "data-nav": "", "data-testid": "to-signin" }, t("account.signin.link")))
      : h("p", {}, t("account.signin.new_here"), " ", h("a", { href: `/signup${keep}`, "data-nav": "", "data-testid": "to-signup" }, t("account.signup.link")));
    const heading = h("h1", {}, t(signup ? "account.signup.title" : "account.signin.title"));
    const el = h("form", { class: "panel account-panel account-form", novalidate: true, "aria-labelledby": "account-form-title" },
      heading,
      signup ? h("p", { class: "small" }, t("account.signup.about")) : null,
      name.el, password.el,
      showPassword([password.input]),
      message.el,
      h("div", { class: "row buttons" }, submit),
      passkeyPart(),
      other);
    heading.id = "account-form-title";

    /**
     * The passkey beside the password: signing in with one (no name
     * typed), or creating the account with the name typed above and a
     * new passkey; or, where this page cannot, why not.
     */
    function passkeyPart() {
      const blocked = whyNoPasskeys(session.passkeySite);
      const said = formMessage("passkey-message");
      const button = blocked ? null : h("button", { type: "button", class: "passkey-button", "data-testid": `${mode}-passkey` },
        t(signup ? "passkey.signup.button" : "passkey.signin.button"));
      button?.addEventListener("click", async () => {
        name.clear();
        password.clear();
        message.say("");
        const n = name.input.value.trim();
        if (signup && !n) {
          name.error(t("account.name.empty"));
          name.input.focus();
          return;
        }
        button.disabled = true;
        submit.disabled = true;
        said.say(waitingText(), "info");
        try {
          const user = await (signup ? signUpWithPasskey(n) : signInWithPasskey());
          if (closed) return;
          session.set(user);
          navigate(next || "/");
        } catch (err) {
          if (closed) return;
          if (signup && fieldOf(err.code) === "name") {
            said.say("");
            name.error(accountError(err));
            name.input.focus();
          } else {
            said.say(...passkeyFailure(err));
            button.focus();
          }
        } finally {
          if (!closed) {
            button.disabled = false;
            submit.disabled = false;
          }
        }
      });
      return h("div", { class: "passkey-part", "data-testid": "passkey-part" },
        blocked ? null : h("p", { class: "or-line", "aria-hidden": "true" }, h("span", {}, t("passkey.or"))),
        signup && !blocked ? h("p", { class: "small" }, t("passkey.signup.about")) : null,
        blocked || h("div", { class: "row buttons" }, button),
        said.el);
    }

    el.addEventListener("submit", async (e) => {
      e.preventDefault();
      name.clear();
      password.clear();
      message.say("");
      const n = name.input.value.trim();
      const p = password.input.value;
      if (!n || !p) {
        if (!n) name.error(t("account.name.empty"));
        if (!p) password.error(t("account.password.empty"));
        (n ? password : name).input.focus();
        return;
      }
      submit.disabled = true;
      try {
        const answer = await (signup ? api.signUp(n, p) : api.signIn(n, p));
        if (closed) return;
        session.set(answer.user);
        navigate(next || "/");
      } catch (err) {
        if (closed) return;
        const text = accountError(err);
        const where = err.code === "wrong_credentials" ? "password" : fieldOf(err.code);
        if (where === "name") {
          name.error(text);
          name.input.focus();
        } else if (where === "password") {
          password.error(text);
          password.input.focus();
          password.input.select();
        } else {
          message.say(text);
          submit.disabled = false;
          submit.focus();
        }
      } finally {
        if (!closed) submit.disabled = false;
      }
    });
    // The name first, or the password when the browser filled the name in.
    queueMicrotask(() => (name.input.value ? password : name).input.focus());
    return el;
  }

  draw();
  const stop = session.onChange(() => {
    if (!closed) draw();
  });
  return {
    destroy() {
      closed = true;
      stop();
    },
  };
}
