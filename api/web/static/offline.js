// The offline page (the service worker's answer to a page request without a network): in the
// player's interface language, from the cached catalogues, and back to the app by itself as
// soon as the network is.

import { preferredLocale, t, useLocale } from "./strings.js";

const retry = document.getElementById("offline-retry");

function back() {
  location.reload();
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
window.addEventListener("online", back);
speak();
