// Placeholder: the rules screen (issue 12).
import { h } from "./dom.js";
import { siteNav } from "./nav.js";

export function rulesScreen(root, navigate) {
  root.replaceChildren(siteNav("rules"), h("p", {}, "…"));
  return { destroy() {} };
}
