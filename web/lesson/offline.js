// offline.js — registers the site's service worker (sw.js at the site root), which keeps the whole course for
// offline use, and offers a new deploy when one has been downloaded.
//
// Registration waits until the page has loaded and the browser is idle: caching the site downloads every file,
// which must not compete with what the page itself needs first. When a new version has been cached and waits,
// a notice offers "Reload to use it"; the waiting worker then takes over and the page reloads once (pending
// edits are saved on the way out, storage/save_soon.js). Closing every tab of the course has the same effect.
//   registerOffline();   // from the course index and every lesson page

// This file is web/lesson/offline.js, so the site root — wherever the site is served — is two folders up.
const SITE_ROOT = new URL("../../", import.meta.url);

let updateRequested = false;

/** Register the site's sw.js once the page is idle. Returns a promise of the registration (null if unsupported). */
export function registerOffline(siteRoot = SITE_ROOT) {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return afterLoadAndIdle().then(async () => {
    try {
      const registration = await navigator.serviceWorker.register(new URL("sw.js", siteRoot), { scope: siteRoot.href });
      watchForUpdate(registration);
      return registration;
    } catch {
      return null;   // e.g. storage blocked or a private window: the course still works online
    }
  });
}

function afterLoadAndIdle() {
  const loaded = document.readyState === "complete" ? Promise.resolve()
    : new Promise((ok) => addEventListener("load", ok, { once: true }));
  const idle = () => new Promise((ok) => (globalThis.requestIdleCallback ?? setTimeout)(ok, { timeout: 5000 }));
  return loaded.then(idle);
}

function watchForUpdate(registration) {
  // A worker already controls this page and a newer one is installed: that is an update, not the first visit.
  const offer = () => {
    if (registration.waiting && navigator.serviceWorker.controller) showUpdateNotice(registration);
  };
  offer();
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => { if (installing.state === "installed") offer(); });
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (updateRequested) location.reload();
  });
}

function showUpdateNotice(registration) {
  if (document.querySelector(".notice.update-ready")) return;
  const box = document.createElement("div");
  box.className = "notice info update-ready";
  box.setAttribute("role", "status");
  box.append("A new version of the course has been downloaded. ");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Reload to use it";
  button.addEventListener("click", () => {
    updateRequested = true;
    button.disabled = true;
    registration.waiting?.postMessage({ type: "skip-waiting" });
  });
  box.append(button);
  document.querySelector("main")?.prepend(box);
}
