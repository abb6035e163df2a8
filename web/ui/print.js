// print.js — what a page prints instead of its live parts (the rest is style.css, section "print").
//
// Just before printing (the browser's `beforeprint`, also fired for "Save as PDF" and headless page.pdf()):
//   - every <canvas> (the charts) gets an <img> copy of what it shows, so a chart prints as the picture the learner
//     saw, scaled to the paper, instead of a canvas that Chart.js would re-layout for the paper's width;
//     ui/theme.js has already redrawn the charts in the light palette by then (its listener was added first);
//   - every element registered with printCopy() (the code editors) gets a <pre> with its whole text, since an
//     editor shows only what fits in its scroll box.
// style.css hides the originals and shows the copies in print; `afterprint` removes the copies.
import "./theme.js";   // its beforeprint listener (charts redrawn light) must run before ours

const copies = new Map();   // element → () => text
let installed = false;

/** Print `textOf()` as a code block in place of `element` (an editor). */
export function printCopy(element, textOf) {
  copies.set(element, textOf);
  installPrint();
}

/** Stop printing a copy of `element` (it was destroyed). */
export function forgetPrintCopy(element) {
  copies.delete(element);
}

/** Listen for printing (safe to call more than once). */
export function installPrint() {
  if (installed || typeof document === "undefined") return;
  installed = true;
  globalThis.addEventListener("beforeprint", preparePrint);
  globalThis.addEventListener("afterprint", endPrint);
}

export function preparePrint() {
  endPrint();
  for (const canvas of document.querySelectorAll("canvas")) {
    if (!canvas.width || !canvas.height || !canvas.isConnected) continue;
    let src;
    try { src = canvas.toDataURL("image/png"); } catch { continue; }   // a tainted canvas cannot be copied
    const img = document.createElement("img");
    img.className = "print-copy";
    img.src = src;
    img.alt = canvas.getAttribute("aria-label") ?? "";
    canvas.classList.add("has-print-copy");
    canvas.after(img);
  }
  for (const [element, textOf] of copies) {
    if (!element.isConnected) { copies.delete(element); continue; }
    const pre = document.createElement("pre");
    pre.className = "print-copy";
    pre.textContent = textOf();
    element.classList.add("has-print-copy");
    element.after(pre);
  }
}

export function endPrint() {
  for (const copy of document.querySelectorAll(".print-copy")) copy.remove();
  for (const original of document.querySelectorAll(".has-print-copy")) original.classList.remove("has-print-copy");
}
