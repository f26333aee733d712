// The board editor (/editor): being built (issue 32).

import { h } from "./dom.js";
import { siteNav } from "./nav.js";
import { t } from "./i18n.js";

export function editorScreen(root, _navigate) {
  root.replaceChildren(siteNav(), h("main", { "data-testid": "editor" }, h("h1", {}, t("title.editor"))));
  return { destroy() {} };
}
