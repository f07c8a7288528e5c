// A cached client never runs against an API it doesn't know: every response of the app carries
// the version of the client that goes with it (the Web-Client-Version header). When it is not
// this shell's (version.js, cached with it), the page has the service worker install the new
// shell, then reloads into it. Once per version: a page that reloaded and still runs another
// version (no service worker to update, say) warns instead of reloading again.

import { SHELL_VERSION } from "./version.js";

export const HEADER = "Web-Client-Version";
const RELOADED = "wt.reloadedFor";
const WORKER_WAIT_MS = 8000;
let settled = false;
let reloading = false;

export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch((err) => console.warn("service worker:", err));
}

// Called with the headers of every API response (api.js).
export function checkVersion(headers) {
  const served = headers && headers.get(HEADER);
  if (!served || reloading) return;
  if (served === SHELL_VERSION) {
    if (!settled) {
      settled = true;
      forget();
    }
    return;
  }
  if (remembered() === served) {
    if (!settled) console.warn(`this client is ${SHELL_VERSION}, the server serves ${served}`);
    settled = true;
    return;
  }
  reloading = true;
  remember(served);
  reloadInto().catch(() => location.reload());
}

async function reloadInto() {
  await newWorker();
  location.reload();
}

// The service worker of the new version, installed and in control (or a few seconds spent
// waiting for it, or none to wait for).
async function newWorker() {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return;
  const changed = new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    setTimeout(resolve, WORKER_WAIT_MS);
  });
  await registration.update();
  if (registration.installing || registration.waiting) await changed;
}

function remembered() {
  try {
    return sessionStorage.getItem(RELOADED);
  } catch {
    return null;
  }
}

function remember(version) {
  try {
    sessionStorage.setItem(RELOADED, version);
  } catch {
    // no session storage: the reload still happens, once per page
  }
}

function forget() {
  try {
    sessionStorage.removeItem(RELOADED);
  } catch {
    // nothing to forget
  }
}
