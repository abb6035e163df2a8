// save_soon.js — debounced saving that never loses the last edit.
//
// An editor saves ~300 ms after the learner stops typing; without more, keystrokes typed just before a reload,
// a click on "Next" or closing the tab were lost with the pending timer. Every pending save here is written at
// once when the page is being left: on `pagehide` (reload, navigation, closing — and the back/forward cache,
// unlike `unload`), on `visibilitychange` to hidden (a phone switching apps may never fire pagehide), and on a
// click on a link, before the browser starts the navigation.
//
//   const save = saveSoon((code) => progress.update(id, { code }));   // 300 ms by default
//   editor.onChange = save;   save.flush();   // write now if anything is pending

const pending = new Set();   // the flush functions of saves that are waiting for their timer

/** A debounced `write(value)`: call it with each new value; the last one is written `delayMs` after the last call. */
export function saveSoon(write, delayMs = 300) {
  let timer = null;
  let value;
  const flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    timer = null;
    pending.delete(flush);
    write(value);
  };
  const save = (next) => {
    value = next;
    clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
    pending.add(flush);
  };
  save.flush = flush;
  return save;
}

/** Write every pending save now. */
export function flushPendingSaves() {
  for (const flush of [...pending]) {
    try { flush(); } catch { /* one failed write must not stop the others (Progress reports its own failures) */ }
  }
}

if (typeof document !== "undefined") {
  globalThis.addEventListener("pagehide", flushPendingSaves);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flushPendingSaves();
  });
  document.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("a[href]")) flushPendingSaves();
  }, true);
}
