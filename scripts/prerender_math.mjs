// prerender_math.mjs — the math of a page rendered at build time, as the page would render it at load
// (web/ui/math.js's mathToString: the same KaTeX options and attributes): <span class="m">TeX</span> and
// <div class="m-display">TeX</div> get KaTeX's HTML inside, their source in data-tex and the TeX as their
// accessible name. The page then arrives with its math drawn: nothing moves when it loads, nothing is computed for
// it on the learner's main thread, and it prints and reads without JavaScript. Math elements hold only TeX
// (no tags), as web/README.md describes.
import { mathToString } from "../web/ui/math.js";

const MATH = /<(span|div) class="(m|m-display)">([^<]*)<\/\1>/g;
const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

export function prerenderMath(html) {
  return html.replace(MATH, (whole, tag, cls, text) => {
    const display = cls === "m-display";
    if (tag !== (display ? "div" : "span")) throw new Error(`math must be <span class="m"> or <div class="m-display">: ${whole}`);
    return mathToString(decodeEntities(text), { display });
  });
}

function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return String.fromCodePoint(code);
    }
    return ENTITIES[name] ?? whole;
  });
}
