// Shared behaviour of every lesson page (the page shape: web/README.md):
//   header.site-header  ← course link + theme toggle          nav.toc        ← from article > section[id] > h2
//   .m / .m-display     ← KaTeX                                nav.prev-next  ← from course.js and body[data-week]
//   a[data-ref]         ← its section's number (section_refs.js; written at build, filled here in exercises' HTML)
// A page module calls initLesson() once, then builds its widgets. Nothing here logs to the console.
import { currentTheme, setTheme } from "../ui/theme.js";
import { fillToc } from "../ui/toc.js";
import { findWeek, neighbours, weekLabel } from "./course.js";
import { scrollersChanged, watchScrollers } from "./scroll_focus.js";
import { watchSectionRefs } from "./section_refs.js";

export { fillToc } from "../ui/toc.js";

/**
 * Wire up a lesson page. `homeHref` is the course index relative to this page ("./index.html" on the
 * index itself). Safe to call twice. Returns the elements it filled, and `math`: a promise resolved once the
 * page's math is drawn (at once on a built page, whose math arrives drawn).
 */
export function initLesson({ homeHref = "../index.html" } = {}) {
  const header = document.querySelector("header.site-header");
  const toc = document.querySelector("nav.toc");
  const article = document.querySelector("main article") ?? document.querySelector("article");
  const prevNext = document.querySelector("nav.prev-next");
  ensureFavicon();
  if (header) renderSiteHeader(header, { homeHref });
  if (toc && article) fillToc(toc, article);        // before math, so cloned headings get rendered too
  watchSectionRefs(document);                       // "section 4" links: filled at build, and in exercises' HTML
  const math = renderMathIfNeeded(document.body);
  if (prevNext) fillPrevNext(prevNext, document.body.dataset.week, { homeHref });
  watchScrollers();
  return { header, toc, article, prevNext, math };
}

// The site assembler draws every page's math at build time, so a built page needs no KaTeX (270 kB of script
// to download, compile and run on a phone's main thread). Only math still undrawn — the source tree served
// as it is, a test fixture — loads it.
async function renderMathIfNeeded(root) {
  const undrawn = [...root.querySelectorAll(".m, .m-display")].some((el) => !el.querySelector(".katex, .katex-error"));
  if (!undrawn) return;
  const { renderMath } = await import("../ui/math.js");
  renderMath(root);
  scrollersChanged();   // drawn math changes which boxes scroll
}

/** The site header: a link home ("dsml") and the theme toggle button. */
export function renderSiteHeader(header, { homeHref = "../index.html" } = {}) {
  const inner = el("div", { class: "site-header-inner" });
  const brand = el("a", { class: "site-brand", href: homeHref }, "dsml");
  brand.append(el("span", { class: "site-brand-long" }, "distributed systems for ML"));
  if (isSamePage(homeHref)) brand.setAttribute("aria-current", "page");
  inner.append(brand, themeToggle());
  header.replaceChildren(inner);
  return header;
}

// A real toggle button: pressed = dark. The label names the state it turns on, so aria-pressed reads
// naturally ("Dark theme, toggle button, pressed").
function themeToggle() {
  const button = el("button", { type: "button", class: "theme-toggle", "aria-label": "Dark theme",
    title: "Switch between the light and dark theme (remembered in this browser)" });
  button.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 3a9 9 0 0 1 0 18z" fill="currentColor"/></svg><span>Dark theme</span>`;
  const sync = () => button.setAttribute("aria-pressed", String(currentTheme() === "dark"));
  button.addEventListener("click", () => { setTheme(currentTheme() === "dark" ? "light" : "dark"); sync(); });
  document.addEventListener("dsml-theme", sync);
  sync();
  return button;
}

/** Previous / next links from the course manifest; an unpublished neighbour is shown, not linked. */
export function fillPrevNext(nav, weekKey, { homeHref = "../index.html" } = {}) {
  nav.replaceChildren();
  if (!findWeek(weekKey)) { nav.hidden = true; return; }
  const { prev, next } = neighbours(weekKey);
  nav.append(prev ? neighbourItem(prev, "prev") : homeItem(homeHref));
  if (next) nav.append(neighbourItem(next, "next"));
  else nav.append(homeItem(homeHref, "next"));
  nav.hidden = false;
}

function neighbourItem(week, dir) {
  const label = `${dir === "prev" ? "Previous" : "Next"} · ${weekLabel(week)}`;
  const title = week.available ? week.title : `${week.title} (in preparation)`;
  const item = week.available
    ? el("a", { class: dir, href: `../${week.slug}/index.html`, rel: dir })
    : el("div", { class: `${dir} pending` });
  item.append(el("span", { class: "dir" }, dir === "prev" ? `← ${label}` : `${label} →`),
              el("span", { class: "title" }, title));
  return item;
}

function homeItem(homeHref, dir = "prev") {
  const a = el("a", { class: dir, href: homeHref });
  a.append(el("span", { class: "dir" }, dir === "prev" ? "← Course" : "Course →"),
           el("span", { class: "title" }, "All weeks"));
  return a;
}

// Without an icon link the browser asks the server for /favicon.ico — a 404 on the console of every page
// (and outside the site when it is hosted under a sub-path). Module scripts run before the load event,
// when Chromium and Firefox pick the icon, so adding the link here is enough.
const FAVICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57a4"/>'
  + '<path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.6"/></svg>');

function ensureFavicon() {
  if (document.querySelector("link[rel~='icon']")) return;
  document.head.append(Object.assign(document.createElement("link"), { rel: "icon", href: FAVICON }));
}

function isSamePage(href) {
  try { return new URL(href, location.href).pathname.replace(/index\.html$/, "") === location.pathname.replace(/index\.html$/, ""); }
  catch { return false; }
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}
