// KaTeX rendering for lesson pages. Authors write TeX as text: <span class="m">T(n)=\alpha+\beta n</span>
// inline, <div class="m-display">n^* = \alpha/\beta</div> for display. The source is kept in data-tex so
// an element can be re-rendered (e.g. after a page module changes it) and so the page prints even if
// rendering failed. Bad TeX shows KaTeX's red error text, never an exception or a console message.
// The site assembler renders the math of every page ahead of time (scripts/prerender_math.mjs, with the same
// options), so a built page arrives with its math drawn; renderMath skips what is already rendered.
import { katex } from "../vendor/katex.js";

const SELECTOR = ".m, .m-display";

/** KaTeX's options for an element (display math for .m-display); shared with the build's prerendering. */
export function katexOptions(display) {
  return {
    displayMode: display,
    throwOnError: false,
    strict: "ignore",          // unicode in math (α, ×) is fine here; don't warn on the console
    output: "htmlAndMathml",   // MathML for screen readers, HTML for the eye
  };
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
  el.dataset.tex = source;
  katex.render(source, el, katexOptions(el.classList.contains("m-display")));
}

/** TeX → an HTML string (for content built in JS, e.g. exercise prompts). */
export function mathToString(tex, { display = false } = {}) {
  return katex.renderToString(tex, { displayMode: display, throwOnError: false, strict: "ignore" });
}
