// The tab's title counts the account's unread notifications, "(2) PÜNCT ·
// Rules", as other sites do: seen from another tab without opening this
// one. Each screen sets its own title (app.js, notify.js…); this only puts
// the count in front of whatever title is there, and again whenever a
// screen changes it.

import { countText, listen } from "./notes.js";

const PREFIX = /^\(\d+\+?\) /;
let count = 0;

function apply() {
  const bare = document.title.replace(PREFIX, "");
  const want = count ? `(${countText(count)}) ${bare}` : bare;
  if (document.title !== want) document.title = want;
}

/** Starts keeping the count in the title (once, for the page's life). */
export function countInTitle() {
  listen((n) => {
    count = n || 0;
    apply();
  });
  // A screen setting its title drops the count: put it back. (Setting it
  // here changes the title again, and the second call finds it in place.)
  const title = document.querySelector("title") || document.head.appendChild(document.createElement("title"));
  new MutationObserver(apply).observe(title, { childList: true, characterData: true, subtree: true });
}
