// The account screen's API tokens: what a bot's program (`punct bot`)
// signs in with. A token is made with a label and its secret shown this
// once (the server keeps only a digest), listed with when it was made and
// last used, and removed — after which it signs nothing in.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t, dateText } from "./i18n.js";
import { field, formMessage, accountError } from "./forms.js";

const DAY_TIME = { dateStyle: "medium", timeStyle: "short" };

/** The section: its list is loaded when it is drawn. */
export function tokensSection() {
  const status = formMessage("tokens-status");
  const list = h("ul", { class: "token-list", "data-testid": "token-list" });
  const label = field(t("account.tokens.label"), { name: "token-label", autocomplete: "off", maxlength: 40, "data-testid": "token-label" });
  const make = h("button", { type: "submit", "data-testid": "token-make" }, t("account.tokens.make"));
  const shown = h("div", { class: "token-secret", "data-testid": "token-shown", hidden: true });
  const form = h("form", { class: "account-form", novalidate: true }, label.el, h("div", { class: "row buttons" }, make));

  function draw(tokens) {
    if (!tokens.length) {
      list.replaceChildren(h("li", { class: "small" }, t("account.tokens.none")));
      return;
    }
    list.replaceChildren(...tokens.map((tok) => {
      const remove = h("button", { type: "button", class: "small-button", "data-testid": "token-remove" }, t("account.tokens.remove"));
      remove.addEventListener("click", async () => {
        remove.disabled = true;
        try {
          await api.removeToken(tok.id);
          status.say(t("account.tokens.removed", { label: tok.label }), "ok");
          shown.hidden = true;
          await load();
        } catch (e) {
          status.say(accountError(e));
          remove.disabled = false;
        }
      });
      return h("li", { "data-testid": "token-item", "data-id": tok.id },
        h("span", { class: "token-label" }, tok.label), " ",
        h("span", { class: "session-times small" }, t("account.tokens.times", {
          created: dateText(tok.created, DAY_TIME),
          used: tok.used ? dateText(tok.used, DAY_TIME) : t("account.tokens.never"),
        })), " ", remove);
    }));
  }

  async function load() {
    try {
      draw((await api.tokens()).tokens || []);
    } catch (e) {
      status.say(accountError(e));
    }
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    label.clear();
    status.say("");
    const text = label.input.value.trim();
    if (!text) {
      label.error(t("account.tokens.label_empty"));
      label.input.focus();
      return;
    }
    make.disabled = true;
    try {
      const { secret } = await api.createToken(text);
      label.input.value = "";
      // Shown this once: selected, ready to copy.
      const input = h("input", { type: "text", readonly: true, value: secret, "data-testid": "token-secret",
        "aria-label": t("account.tokens.secret"), spellcheck: "false" });
      shown.replaceChildren(h("p", { class: "small" }, t("account.tokens.made")), input);
      shown.hidden = false;
      input.focus();
      input.select();
      await load();
    } catch (err) {
      if (err.code === "bad_label") label.error(accountError(err));
      else status.say(accountError(err));
    } finally {
      make.disabled = false;
    }
  });

  load();
  return h("section", { class: "panel account-panel", "aria-labelledby": "tokens-title", "data-testid": "account-tokens" },
    h("h2", { id: "tokens-title" }, t("account.tokens.title")),
    h("p", { class: "small" }, t("account.tokens.about")),
    list, form, shown, status.el);
}
