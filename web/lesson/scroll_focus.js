// scroll_focus.js — boxes that scroll sideways (display math, code, tables, wide figures at 360 px) must be
// reachable by keyboard (axe: scrollable-region-focusable): an overflowing box gets a tab stop, and loses it
// when it fits again.
//
// Measuring a box lays it out, and on phones a lesson section far from the viewport is not laid out at all
// until it comes near (content-visibility, style.css): measuring every box of a lesson (hundreds of rendered
// formulas) while it loads would lay out the whole page at once. So a box is measured only while its section is
// in view (it is laid out then anyway); until then it is taken to scroll and keeps a tab stop. Boxes outside
// the sections are measured at once. One IntersectionObserver watches the sections for the life of the page, and
// every reason to look again — a section coming into view, a widget built, a box added later, math drawn, fonts
// loaded, a resize —
// only asks for the next pass: one pass, when the page is idle, measures every box due and then writes the
// attributes (reading all sizes before writing any: interleaving them would force a layout per box).
const SCROLLERS = ".m-display, pre, table, .scroll-x, .timeline-scroll";
const PASS_WITHIN_MS = 250;   // a pass waits for an idle moment, but not longer than this

let watching = false;
let passPending = false;
const inView = new Set();        // sections now in the viewport
let measured = new WeakSet();    // boxes measured at the current window size

/** Give every horizontally overflowing box under `root` a tab stop now (printing, tests: everything built). */
export function makeScrollersFocusable(root = document) {
  checkBoxes([...root.querySelectorAll(SCROLLERS)]);
}

/** Keep the page's tab stops right from now on (once per page; a second call only asks for a pass). */
export function watchScrollers() {
  scrollersChanged();
  if (watching) return;
  watching = true;
  if (globalThis.IntersectionObserver) {
    const observer = new IntersectionObserver((entries) => {
      let entered = false;
      for (const e of entries) {
        if (!e.isIntersecting) inView.delete(e.target);
        else if (!inView.has(e.target)) { inView.add(e.target); entered = true; }
      }
      if (entered) scrollersChanged();
    });
    for (const section of document.querySelectorAll("article > section")) observer.observe(section);
  }
  // A widget that builds a table or a timeline after a run (a Worker's answer, a button) adds a box the last pass
  // never saw: any added node that is or holds a scroll box asks for a pass.
  if (globalThis.MutationObserver) {
    const holdsScroller = (n) => n.nodeType === 1 && (n.matches(SCROLLERS) || n.querySelector(SCROLLERS) !== null);
    new MutationObserver((records) => {
      if (records.some((r) => [...r.addedNodes].some(holdsScroller))) scrollersChanged();
    }).observe(document.querySelector("article") ?? document.body, { childList: true, subtree: true });
  }
  addEventListener("resize", () => { measured = new WeakSet(); scrollersChanged(); });
  document.fonts?.ready?.then(scrollersChanged);   // KaTeX's fonts change widths
}

/** Boxes were added, or their content changed (a widget built, math drawn): look again in the next pass. */
export function scrollersChanged() {
  if (passPending) return;
  passPending = true;
  const idle = globalThis.requestIdleCallback ?? ((run) => setTimeout(run, 0));
  idle(() => { passPending = false; pass(); }, { timeout: PASS_WITHIN_MS });
}

function pass() {
  const due = [];
  const observing = watching && globalThis.IntersectionObserver;
  for (const box of document.querySelectorAll(SCROLLERS)) {
    const section = box.closest("article > section");
    if (!observing || !section || inView.has(section)) due.push(box);
    else if (!measured.has(box)) setScrollFocus(box, true);   // not laid out yet: assume it scrolls
  }
  checkBoxes(due);
}

function checkBoxes(boxes) {
  const overflowing = boxes.map((box) => box.isConnected && box.scrollWidth > box.clientWidth + 1);
  for (const box of boxes) measured.add(box);
  boxes.forEach((box, i) => setScrollFocus(box, overflowing[i]));
}

function setScrollFocus(box, overflows) {
  if (overflows && !box.hasAttribute("tabindex")) {
    box.setAttribute("tabindex", "0");
    box.dataset.scrollFocus = "";
  } else if (!overflows && "scrollFocus" in box.dataset) {
    box.removeAttribute("tabindex");
    delete box.dataset.scrollFocus;
  }
}
