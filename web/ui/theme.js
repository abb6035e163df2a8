// Light / dark theme. The learner's choice ("light" | "dark" | "system") is kept in localStorage under
// "dsml.theme" and shown to CSS as html[data-theme]; with "system" the attribute is absent and style.css
// follows prefers-color-scheme. Whenever the *resolved* theme changes (a learner choice, the system
// setting, or printing — print is always light), a "dsml-theme" CustomEvent with detail { theme } is
// dispatched on document, so canvases (charts) can redraw; SVG and HTML re-theme through CSS alone.

const KEY = "dsml.theme";
const CHOICES = ["light", "dark", "system"];
const darkQuery = globalThis.matchMedia?.("(prefers-color-scheme: dark)") ?? null;

let lastResolved = null;   // the theme listeners were last told about
let printing = false;
let memoryChoice = null;   // used only when localStorage refuses writes

/** The stored choice: "light", "dark" or "system" (the default, also when storage is unavailable). */
export function themeChoice() {
  try {
    const v = globalThis.localStorage?.getItem(KEY);
    return CHOICES.includes(v) ? v : "system";
  } catch {
    return "system";
  }
}

/** The theme in effect right now: "light" or "dark". */
export function currentTheme() {
  if (printing) return "light";
  const choice = effectiveChoice();
  if (choice !== "system") return choice;
  return darkQuery?.matches ? "dark" : "light";
}

/** Choose "light", "dark" or "system"; persists the choice and re-themes the page. */
export function setTheme(choice) {
  if (!CHOICES.includes(choice)) throw new Error(`setTheme: expected "light", "dark" or "system", got ${JSON.stringify(choice)}`);
  try {
    if (choice === "system") globalThis.localStorage?.removeItem(KEY);
    else globalThis.localStorage?.setItem(KEY, choice);
    memoryChoice = null;
  } catch {
    // Storage blocked: the choice still applies to this page view.
    memoryChoice = choice;
  }
  apply();
}

/** Read a CSS custom property (e.g. "--chart-1") as computed on the root (or on `el`), trimmed. */
export function cssVar(name, el = document.documentElement) {
  return getComputedStyle(el).getPropertyValue(name).trim();
}

function effectiveChoice() {
  return memoryChoice ?? themeChoice();
}

function apply() {
  const root = document.documentElement;
  const choice = printing ? "light" : effectiveChoice();
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
  const resolved = choice === "system" ? (darkQuery?.matches ? "dark" : "light") : choice;
  if (resolved !== lastResolved) {
    lastResolved = resolved;
    document.dispatchEvent(new CustomEvent("dsml-theme", { detail: { theme: resolved } }));
  }
}

// Apply on first import (before any chart reads a colour), then follow the system and other tabs.
if (typeof document !== "undefined") {
  lastResolved = currentTheme();
  const choice = effectiveChoice();
  if (choice !== "system") document.documentElement.setAttribute("data-theme", choice);
  darkQuery?.addEventListener?.("change", apply);
  globalThis.addEventListener?.("storage", (e) => { if (e.key === KEY) apply(); });
  // Canvases keep the pixels they were drawn with, so switch to light before the print snapshot.
  globalThis.addEventListener?.("beforeprint", () => { printing = true; apply(); });
  globalThis.addEventListener?.("afterprint", () => { printing = false; apply(); });
}
