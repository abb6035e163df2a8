// page_layout.mjs — the one layout every page of the site shares, written once: what a page of lessons/ does not
// repeat. A page in the source tree holds only what is its own — its <title>, description, module (and any
// stylesheet of its own), its <body> attributes and its <main> — and the site assembler (assemble_site.mjs) adds:
//   <head>   the charset, the Content-Security-Policy (first after the charset: a policy in a <meta> covers only
//            what comes after it), the viewport, the icon, and the shared stylesheets (KaTeX's on a lesson page,
//            whose math the build draws; web/style.css), before the page's own stylesheets and module
//   <body>   the skip link and the site header (web/lesson/lesson.js fills it: course link, theme toggle)
//   </main>  on a lesson page (<body data-week>): the prev/next links, inside <main> after the article
//            (lesson.js fills them from course.js); after </main>, the footer
// So a new week is its content only (web/README.md, "Lesson page shape"), and a page that still carries one of
// these blocks is refused, naming the block to delete.
//   layoutPage(sourceHtml, { page: "week3/index.html" }) → the page as the site serves it
import { posix } from "node:path";

/** The policy of every page: only the site's own origin; 'wasm-unsafe-eval' compiles the core; no inline script,
 *  no eval (the core is built with Embind's DYNAMIC_EXECUTION=0). Inline styles: KaTeX, CodeMirror, Chart.js. */
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
  + "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; object-src 'none'; "
  + "base-uri 'self'; form-action 'none'";

// The course's icon as a data: URL (img-src allows data:), so no page asks the server for /favicon.ico.
const ICON = "data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E%3Crect "
  + "width=%2216%22 height=%2216%22 rx=%223%22 fill=%22%230b57a4%22/%3E%3Cpath d=%22M4 5h8M4 8h8M4 11h5%22 "
  + "stroke=%22white%22 stroke-width=%221.6%22/%3E%3C/svg%3E";

const FOOTER = {
  lesson: "dsml — Distributed Systems for Machine Learning, from first principles. Every number\n"
    + "  on this page is computed in your browser by the course's WebAssembly core.",
  page: "dsml — an open course. Lessons, simulator and checks are plain files you can fork, edit and host anywhere.",
};

// What the layout writes, and how to recognise a page that still writes it itself.
const OWNED = [
  ["<meta charset>", /<meta charset=/i],
  ["the Content-Security-Policy <meta>", /http-equiv="Content-Security-Policy"/i],
  ["the viewport <meta>", /<meta name="viewport"/i],
  ["web/style.css", /href="[./]*web\/style\.css"/],
  ["web/vendor/katex.css", /href="[./]*web\/vendor\/katex\.css"/],
  ["the skip link", /class="skip-link"/],
  ["header.site-header", /<header class="site-header"/],
  ["nav.prev-next", /<nav class="prev-next"/],
  ["footer.site-footer", /<footer class="site-footer"/],
];

/**
 * The page as the site serves it. `page` is its path under lessons/ ("index.html", "week3/index.html"): the
 * shared stylesheets are linked relative to it, so the site works under any base path.
 */
export function layoutPage(source, { page }) {
  const where = `lessons/${page}`;
  for (const [block, re] of OWNED) {
    if (re.test(source)) throw new Error(`${where} writes ${block} itself: delete it, the layout adds it (scripts/page_layout.mjs)`);
  }
  const body = once(source, /<body\b([^>]*)>\n?/, where, "<body>");
  const lesson = /\bdata-week="/.test(body[1]);
  const web = `${posix.relative(posix.dirname(`lessons/${page}`), "web") || "."}/`;
  const head = [
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<link rel="icon" href="${ICON}">`,
    ...(lesson ? [`<link rel="stylesheet" href="${web}vendor/katex.css">`] : []),
    `<link rel="stylesheet" href="${web}style.css">`,
  ];
  const top = ['<a class="skip-link" href="#main">Skip to content</a>', '<header class="site-header"></header>'];
  const footer = `<footer class="site-footer"><p>${FOOTER[lesson ? "lesson" : "page"]}</p></footer>`;
  once(source, /<head>\n?/, where, "<head>");
  once(source, /<\/main>\n?/, where, "</main>");
  return source
    .replace(/<head>\n?/, (m) => `<head>\n${head.join("\n")}\n`)
    .replace(/<body\b[^>]*>\n?/, (m) => `${m.endsWith("\n") ? m : `${m}\n`}${top.join("\n")}\n`)
    .replace(/<\/main>\n?/, () => `${lesson ? '<nav class="prev-next" aria-label="Previous and next lessons"></nav>' : ""}`
      + `</main>\n${footer}\n`);
}

/** A page of its own content only, as the pages of lessons/ are written: for pages generated from other text (the
 *  guides, scripts/render_guide.mjs) and tests. `body` holds the <body> attributes, `main` the <main> element. */
export function pageSource({ comment, title, description, module, body = "", main }) {
  return [`<!doctype html>`, ...(comment ? [`<!-- ${comment} -->`] : []), `<html lang="en">`, `<head>`, `<title>${title}</title>`,
    `<meta name="description" content="${description}">`, `<script type="module" src="${module}"></script>`, `</head>`,
    `<body${body ? ` ${body}` : ""}>`, main, `</body>`, `</html>`, ""].join("\n");
}

function once(source, re, where, what) {
  const all = source.match(new RegExp(re.source, "g")) ?? [];
  if (all.length !== 1) throw new Error(`${where} must have exactly one ${what} (found ${all.length})`);
  return re.exec(source);
}
