// Placeholder: the puzzles screen (issue 12).
import { h } from "./dom.js";
import { siteNav } from "./nav.js";

export function puzzlesScreen(root, navigate, id) {
  root.replaceChildren(siteNav("puzzles"), h("p", {}, "…"));
  return { destroy() {} };
}
