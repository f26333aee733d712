// The screen of an address the site has no page for: says so in the
// reader's language and offers the way back (the server answers such an
// address with this page and status 404).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { siteNav } from "./nav.js";

export function notFoundScreen(root) {
  root.replaceChildren(siteNav(), h("div", { class: "not-found", "data-testid": "not-found" },
    h("h1", {}, t("notfound.title")),
    h("p", {}, t("notfound.text", { path: location.pathname })),
    h("p", {}, h("a", { href: "/", "data-nav": "", "data-testid": "not-found-back" }, t("notfound.back")))));
  return { destroy() {} };
}
