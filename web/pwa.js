// The installable site: registers the service worker (sw.js, served at
// /sw.js for the whole site) and, when a new release's worker is waiting,
// offers to reload into it.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Registers the service worker; `offer(button)` shows the reload offer. */
export async function installable() {
  if (!("serviceWorker" in navigator)) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    return; // not offered here (a private window, a policy): the site works as before
  }
  if (!registration) return;
  const offerWhenWaiting = () => {
    if (registration.waiting && navigator.serviceWorker.controller) offerReload(registration.waiting);
  };
  offerWhenWaiting();
  registration.addEventListener("updatefound", () => {
    const next = registration.installing;
    next?.addEventListener("statechange", () => {
      if (next.state === "installed") offerWhenWaiting();
    });
  });
  // The new release took over because the reload was asked for: reload
  // (a first worker taking the page over changes nothing that shows).
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (asked && !reloading) {
      reloading = true;
      location.reload();
    }
  });
}

let asked = false;
let reloading = false;

/** A bar at the foot of the page: a new version, and a button to use it. */
function offerReload(waiting) {
  if (document.querySelector('[data-testid="update-ready"]')) return;
  const bar = h("div", { class: "update-ready", role: "status", "data-testid": "update-ready" },
    h("span", {}, t("pwa.update_ready")),
    h("button", { type: "button", "data-testid": "update-reload", onclick: () => {
      asked = true;
      waiting.postMessage("take-over");
    } }, t("pwa.reload")));
  document.body.append(bar);
}
