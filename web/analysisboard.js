// The analysis board (/analysis): being built (issue 32).

import { h } from "./dom.js";
import { siteNav } from "./nav.js";
import { t } from "./i18n.js";

export function analysisScreen(root, _navigate) {
  root.replaceChildren(siteNav(), h("main", { "data-testid": "analysis-board" }, h("h1", {}, t("title.analysis"))));
  return { destroy() {} };
}
