// KaTeX rendering for lesson pages. Authors write TeX as text: <span class="m">T(n)=\alpha+\beta n</span>
// inline, <div class="m-display">n^* = \alpha/\beta</div> for display. The source is kept in data-tex so
// an element can be re-rendered (e.g. after a page module changes it) and so the page prints even if
// rendering failed. Bad TeX shows KaTeX's red error text, never an exception or a console message.
// The site assembler renders the math of every page ahead of time (scripts/prerender_math.mjs, with the same
// options and attributes), so a built page arrives with its math drawn; renderMath skips what is already rendered.
//
// Only KaTeX's HTML is drawn, not its MathML copy beside it: the MathML doubled the elements of a page (Week 2:
// 11 470 → about 7 500), and every element is style, layout and memory on a phone. A screen reader reads the
// formula as an image named by its TeX (role="img", aria-label), as Wikipedia names its rendered formulas
// (the TeX is their alt text); KaTeX's HTML itself is aria-hidden.
import { katex } from "../vendor/katex.js";

const SELECTOR = ".m, .m-display";

/** KaTeX's options for an element (display math for .m-display); shared with the build's prerendering. */
export function katexOptions(display) {
  return {
    displayMode: display,
    throwOnError: false,
    strict: "ignore",   // unicode in math (α, ×) is fine here; don't warn on the console
    output: "html",     // the eye's copy only; the element's label is the screen reader's (mathAttributes)
  };
}

/** The attributes of a drawn math element: its source, and its accessible name (the same TeX). */
export function mathAttributes(tex) {
  return { "data-tex": tex, role: "img", "aria-label": tex };
}

/** Render every .m / .m-display inside `root` (an element or the document), including root itself, that is
 *  not rendered yet. */
export function renderMath(root = document) {
  const els = [...root.querySelectorAll(SELECTOR)];
  if (root.matches?.(SELECTOR)) els.unshift(root);
  for (const el of els) {
    if (el.dataset.tex !== undefined && el.querySelector(".katex, .katex-error")) continue;
    renderMathElement(el);
  }
}

/** Render one element, from `tex` if given, else from its saved source or its text. */
export function renderMathElement(el, tex) {
  const source = tex ?? el.dataset.tex ?? el.textContent;
  for (const [name, value] of Object.entries(mathAttributes(source))) el.setAttribute(name, value);
  katex.render(source, el, katexOptions(el.classList.contains("m-display")));
}

/** TeX → the HTML of a drawn math element (for content built in JS, e.g. exercise prompts, and for the build):
 *  <span class="m"> inline, <div class="m-display"> for display. */
export function mathToString(tex, { display = false } = {}) {
  const [tag, cls] = display ? ["div", "m-display"] : ["span", "m"];
  const attributes = Object.entries(mathAttributes(tex)).map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`);
  return `<${tag} class="${cls}"${attributes.join("")}>${katex.renderToString(tex, katexOptions(display))}</${tag}>`;
}

function escapeAttribute(text) {
  return text.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c]);
}
