// The offline page (the service worker's answer to a page request without a network): in the
// player's interface language, from the cached catalogues, and back to the app by itself as
// soon as the server answers again.
//
// The browser's "online" event is not enough: it says the device has a network, not that the
// page's next request gets through. The service worker may still see the network as down a
// moment after the page does (so a reload at the event lands here again), and once online no
// second event comes. So the page asks the server itself — at the event and every few seconds —
// and goes back to the app when it answers.

import { preferredLocale, t, useLocale } from "./strings.js";

const PROBE_MS = 2000;
const retry = document.getElementById("offline-retry");
let probing = false;

function back() {
  location.reload();
}

// Whether the server answers now: any HTTP answer will do (the page itself may be a 404).
async function reachable() {
  try {
    await fetch("/sw.js", { cache: "no-store" });
    return true;
  } catch {
    return false;
  }
}

async function probe() {
  if (probing) return;
  probing = true;
  try {
    if (navigator.onLine && (await reachable())) back();
  } finally {
    probing = false;
  }
}

async function speak() {
  try {
    await useLocale(preferredLocale());
  } catch {
    return; // no catalogue in the cache: the page's own English stays
  }
  document.getElementById("offline-brand").textContent = t("app.title");
  document.getElementById("offline-title").textContent = t("offline.title");
  document.getElementById("offline-text").textContent = t("offline.text");
  retry.textContent = t("offline.retry");
}

retry.addEventListener("click", back);
window.addEventListener("online", probe);
setInterval(probe, PROBE_MS);
speak();
