// page_layout.mjs — the one layout every page of the site shares, written once: what a page of lessons/ does not
// repeat. A lesson page (one of web/lesson/course.js) in the source tree holds only what is its own — its description,
// module (and any stylesheet of its own) as the first lines after its opening comment, then <body data-week="…">, its
// lesson head (abstract, time, outcomes) and its sections — and the site assembler (assemble_site.mjs) adds:
//   <html>, <head>  the charset, the Content-Security-Policy (first after the charset: a policy in a <meta> covers only
//            what comes after it), the viewport, the icon, and the shared stylesheets (KaTeX's on a lesson page,
//            whose math the build draws; web/style.css), the <title> from course.js, before the page's own lines
//   <body>   the skip link and the site header (web/lesson/lesson.js fills it: course link, theme toggle), then
//            <main id="main" class="lesson"><article>; in the lesson head, the kicker and the <h1> from course.js
//            ("Week 3", "Week 3 — Data parallelism and large-batch training"), and after it the table of contents
//            (nav.toc, which lesson.js fills from the <h2>s); the symbol table's frame around the rows the page
//            lists in <table data-symbols> (a <details> "Symbols on this page", its caption and column heads); at
//            the end of <section id="exercises"
//            data-exercises="code">, the paragraph that links the ctx reference (lessons/ctx/) and the exercises' <div>
//   the end  the prev/next links (lesson.js fills them from course.js) inside <main> after the article; the footer;
//            </body></html>
// So a new week is its content only (web/README.md, "Lesson page shape"), and a page that still carries one of
// these blocks is refused, naming the block to delete. Other pages (the index, the guides: pageSource) write
// <head> … </head><body><main>…</main> themselves and get the shared head, header and footer.
//   layoutPage(sourceHtml, { page: "week3/index.html" }) → the page as the site serves it
import { posix } from "node:path";
import { findWeek, weekLabel } from "../web/lesson/course.js";

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
// …and on a lesson page, what course.js and the layout write.
const LESSON_OWNED = [
  ["<html>", /<html\b/i], ["<head>", /<head>/i], ["</head>", /<\/head>/i], ["<title>", /<title>/i],
  ["<main>", /<main\b/i], ["</main>", /<\/main>/i], ["</article>", /<\/article>/i], ["the kicker", /class="kicker"/],
  ["the <h1>", /<h1\b/i], ["nav.toc", /<nav class="toc"/], ["</body>", /<\/body>/i], ["</html>", /<\/html>/i],
  ["the ctx reference paragraph", /href="\.\.\/ctx\/index\.html"/],
  ["the symbol table's frame (<details class=\"symbols\">: list its rows in <table data-symbols>)", /<details class="symbols"/],
];

// The symbol table of a lesson page: its author lists the rows (<tr><td>symbol</td><td>meaning</td><td>unit</td></tr>)
// in <table data-symbols>; the layout writes the same frame around them on every page.
const SYMBOLS = /^( *)<table data-symbols>\n([\s\S]*?)^ *<\/table>\n/m;
const symbolTable = (indent, rows) => [
  `${indent}<details class="symbols" id="symbols">`,
  `${indent}  <summary>Symbols on this page</summary>`,
  `${indent}  <div class="scroll-x"><table class="symbol-table">`,
  `${indent}    <caption>Each symbol of this page's formulas, its one meaning here and its unit</caption>`,
  `${indent}    <thead><tr><th scope="col">Symbol</th><th scope="col">Meaning</th><th scope="col">Unit</th></tr></thead>`,
  `${indent}    <tbody>`,
  rows.replace(/\n$/, "").split("\n").map((line) => `    ${line}`).join("\n"),
  `${indent}    </tbody>`,
  `${indent}  </table></div>`,
  `${indent}</details>`,
].join("\n") + "\n";

// What a section of code exercises (<section id="exercises" data-exercises="code">) ends with: the paragraph that
// links the ctx reference, and the exercises' container (web/lesson/lesson_page.js fills it).
const CTX_REFERENCE = `  <p>The code exercises run your <code>main(ctx)</code> (or the function a prompt names) once per rank:
    <a href="../ctx/index.html">the <code>ctx</code> reference</a> gives every call’s signature, the order messages
    arrive in, what a synchronous send is and why sending first on every rank can then deadlock, and what a Check
    runs.</p>
  <div data-exercises></div>`;

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
  const nav = lesson ? '<nav class="prev-next" aria-label="Previous and next lessons"></nav>' : "";
  const withCtx = (html) => html.replace(/^<section id="exercises" data-exercises="code">\n([\s\S]*?)^<\/section>/m,
    (_, intro) => `<section id="exercises">\n${intro}${CTX_REFERENCE}\n</section>`);
  if (lesson && !/<head>/i.test(source)) return withCtx(layoutLesson(source, { where, body, head, top, nav, footer }));
  once(source, /<head>\n?/, where, "<head>");
  once(source, /<\/main>\n?/, where, "</main>");
  return withCtx(source
    .replace(/<head>\n?/, (m) => `<head>\n${head.join("\n")}\n`)
    .replace(/<body\b[^>]*>\n?/, (m) => `${m.endsWith("\n") ? m : `${m}\n`}${top.join("\n")}\n`)
    .replace(/<\/main>\n?/, () => `${nav}</main>\n${footer}\n`));
}

// A lesson page as its author writes it: <!doctype html>, its comment, its own head lines, <body data-week="…">, its
// content (the lesson head, then its sections).
function layoutLesson(source, { where, body, head, top, nav, footer }) {
  for (const [block, re] of LESSON_OWNED) {
    if (re.test(source.replace(/<!--[\s\S]*?-->/g, ""))) {
      throw new Error(`${where} writes ${block} itself: delete it, the layout adds it (scripts/page_layout.mjs)`);
    }
  }
  const week = findWeek(/\bdata-week="([^"]*)"/.exec(body[1])[1]);
  if (!week) throw new Error(`${where}: <body${body[1]}> names no page of web/lesson/course.js`);
  const title = week.number == null ? week.title : `${weekLabel(week)} — ${week.title}`;
  const doctype = /^<!doctype html>\n(?:<!--[\s\S]*?-->\n)?/i.exec(source);
  if (!doctype) throw new Error(`${where} must begin with <!doctype html> (and its comment)`);
  const own = source.slice(doctype[0].length, body.index);
  if ((source.match(/<table data-symbols>/g) ?? []).length > 1) throw new Error(`${where} has more than one <table data-symbols>`);
  const content = source.slice(body.index + body[0].length).replace(/\n*$/, "\n")
    .replace(SYMBOLS, (_, indent, rows) => symbolTable(indent, rows));
  const lessonHead = once(content, /<header class="lesson-head">\n/, where, '<header class="lesson-head">');
  const headEnd = once(content, /^<\/header>\n/m, where, "</header> closing the lesson head");
  return `${doctype[0]}<html lang="en">\n<head>\n${head.join("\n")}\n<title>${title} · dsml</title>\n${own}</head>\n`
    + `${body[0].endsWith("\n") ? body[0] : `${body[0]}\n`}${top.join("\n")}\n<main id="main" class="lesson"><article>\n\n`
    + content.slice(0, lessonHead.index + lessonHead[0].length)
    + `  <p class="kicker">${weekLabel(week)}</p>\n  <h1>${title}</h1>\n`
    + content.slice(lessonHead.index + lessonHead[0].length, headEnd.index + headEnd[0].length)
    + '\n<nav class="toc" aria-label="Contents"></nav>\n' + content.slice(headEnd.index + headEnd[0].length)
    + `\n</article>${nav}</main>\n${footer}\n</body>\n</html>\n`;
}

/** A page of its own content only, as the pages of lessons/ are written: for pages generated from other text (the
 *  guides, scripts/render_guide.mjs) and tests. `body` holds the <body> attributes, `main` the <main> element. */
export function pageSource({ comment, title, description, module, body = "", main }) {
  return [`<!doctype html>`, ...(comment ? [`<!-- ${comment} -->`] : []), `<html lang="en">`, `<head>`, `<title>${title}</title>`,
    `<meta name="description" content="${description}">`, `<script type="module" src="${module}"></script>`, `</head>`,
    `<body${body ? ` ${body}` : ""}>`, main, `</body>`, `</html>`, ""].join("\n");
}

function once(source, re, where, what) {
  const all = source.match(new RegExp(re.source, `${re.flags.replace("g", "")}g`)) ?? [];
  if (all.length !== 1) throw new Error(`${where} must have exactly one ${what} (found ${all.length})`);
  return re.exec(source);
}
