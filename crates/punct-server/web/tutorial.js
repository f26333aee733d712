// Placeholder: the tutorial screen (issue 12).
import { h } from "./dom.js";
import { siteNav } from "./nav.js";

export function tutorialScreen(root, navigate, lesson) {
  root.replaceChildren(siteNav("learn"), h("p", {}, "…"));
  return { destroy() {} };
}
