// assemble_site.mjs — the static site from the source tree. The site is laid out as the source tree is —
// lessons/ (the index, one folder per week, the lab) beside web/ (the shared runtime) — so every relative import
// resolves to the same file in the source tree, in Node and in the site. Assembling only copies the two folders and
// replaces what a browser cannot load as is:
//   web/vendor/{acorn,chart,editor,katex}.js source: re-exports of npm packages → site: esbuild bundles (+ KaTeX CSS, fonts)
//   web/worker/rank_worker.js           source: plain modules → site: one bundled file (one fetch per Worker)
//   wasm/dsml.{mjs,wasm}                the core, from the emscripten build
//   lessons/cluster/index.html          a guide: mpi/README.md as a page of the site (scripts/render_guide.mjs)
//   lessons/*/index.html                the same pages in the layout every page shares (scripts/page_layout.mjs:
//                                       head, site header, prev/next, footer), their math rendered (prerender_math.mjs),
//                                       its cross-references given their sections' numbers (<a href="#ring" data-ref>
//                                       → "section 4", web/lesson/section_refs.js; one in a lesson's modules is
//                                       checked here and filled in the browser), the course index with its week
//                                       cards (web/lesson/course_cards.js)
//                                       and each published week's exercise ids (data-exercise-ids: index.js
//                                       counts the learner's solved ones without loading every week's modules)
//   sw.js                               the service worker (source web/sw.js) at the site root, so its scope
//                                       covers every page; told the site's files and a hash of them (its version)
//   index.html, <slug>/index.html       redirects: the site root to lessons/, and every URL of the layout before
//                                       web/ moved out of lessons/ (…/week3/#ddp) to the same page and fragment
//   lessons/*/exercises/*.js            with --no-solutions (a graded term): the reference solutions left out
//                                       (scripts/withhold_solutions.mjs)
//   node scripts/assemble_site.mjs <out dir> [--wasm build/wasm/wasm] [--no-solutions]
// Also importable (tests assemble a site from the working tree): assembleSite(outDir, { wasmDir, solutions }).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { prerenderMath } from "./prerender_math.mjs";
import { CSP, layoutPage } from "./page_layout.mjs";
import { GUIDES, renderGuide } from "./render_guide.mjs";
import { withholdSolutions } from "./withhold_solutions.mjs";
import { WEEKS } from "../web/lesson/course.js";
import { cardsHTML } from "../web/lesson/course_cards.js";
import { renderSectionRefs, sectionIds, sectionRefsIn } from "../web/lesson/section_refs.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const LESSONS = join(ROOT, "lessons");
const WEB = join(ROOT, "web");
const VENDOR_ENTRIES = ["acorn", "chart", "editor", "katex"];

export async function assembleSite(outDir, { wasmDir = join(ROOT, "build/wasm/wasm"), requireWasm = false, solutions = true } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  const lessons = join(outDir, "lessons");
  const web = join(outDir, "web");
  cpSync(LESSONS, lessons, { recursive: true });
  cpSync(WEB, web, { recursive: true, filter: (src) => src !== join(WEB, "sw.js") && !src.endsWith(".md") });
  await Promise.all([
    ...VENDOR_ENTRIES.map((entry) => bundle(join(WEB, `vendor/${entry}.js`), join(web, `vendor/${entry}.js`))),
    bundle(join(WEB, "worker/rank_worker.js"), join(web, "worker/rank_worker.js")),
  ]);
  cpSync(join(ROOT, "node_modules/katex/dist/katex.min.css"), join(web, "vendor/katex.css"));
  const fonts = join(ROOT, "node_modules/katex/dist/fonts");
  mkdirSync(join(web, "vendor/fonts"), { recursive: true });
  for (const f of readdirSync(fonts).filter((f) => f.endsWith(".woff2"))) cpSync(join(fonts, f), join(web, "vendor/fonts", f));
  const haveWasm = existsSync(join(wasmDir, "dsml.mjs")) && existsSync(join(wasmDir, "dsml.wasm"));
  if (!haveWasm && requireWasm) throw new Error(`the wasm core is not built (${wasmDir}); run bash scripts/test.sh`);
  if (haveWasm) {
    mkdirSync(join(outDir, "wasm"), { recursive: true });
    for (const f of ["dsml.mjs", "dsml.wasm"]) cpSync(join(wasmDir, f), join(outDir, "wasm", f));
  }
  const index = join(lessons, "index.html");
  const emptyCards = '<ol class="week-cards" id="weeks"></ol>';
  if (!readFileSync(index, "utf8").includes(emptyCards)) throw new Error(`lessons/index.html must contain ${emptyCards}`);
  const withCards = emptyCards.replace("><", ` data-exercise-ids="${escapeAttribute(JSON.stringify(await exerciseIds()))}">`
    + `${cardsHTML(WEEKS)}<`);
  writeFileSync(index, readFileSync(index, "utf8").replace(emptyCards, withCards));
  for (const guide of GUIDES) {
    mkdirSync(join(lessons, guide.slug), { recursive: true });
    writeFileSync(join(lessons, guide.slug, "index.html"), renderGuide(guide));
  }
  checkModuleRefs();
  for (const page of listFiles(lessons).filter((f) => f.endsWith(".html"))) {
    const file = join(lessons, page);
    writeFileSync(file, prerenderMath(renderSectionRefs(layoutPage(readFileSync(file, "utf8"), { page }), `lessons/${page}`)));
  }
  writeRedirects(outDir, ["", ...WEEKS.map((w) => w.slug), ...GUIDES.map((g) => g.slug)]);
  writeFileSync(join(outDir, ".nojekyll"), "");
  if (!solutions) await withholdSolutions(outDir, ROOT);
  const { version, files } = stampServiceWorker(outDir);
  return { haveWasm, version, files };
}

// The site root and every page's URL from before lessons/ was a folder of the site (…/week3/, …/cluster/) lead to
// lessons/: web/lesson/redirect.js keeps the query and fragment (…/week3/#ddp → …/lessons/week3/#ddp); the meta
// refresh is for a browser without JavaScript. Every redirect carries the pages' Content-Security-Policy.
export function writeRedirects(outDir, slugs) {
  for (const slug of slugs) {
    const up = slug ? "../" : "./";
    const target = `${up}lessons/${slug ? `${slug}/` : ""}`;
    mkdirSync(join(outDir, slug), { recursive: true });
    writeFileSync(join(outDir, slug, "index.html"), `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dsml — moved</title>
<meta name="robots" content="noindex">
<link rel="canonical" href="${target}">
<script src="${up}web/lesson/redirect.js" data-target="${target}"></script>
<meta http-equiv="refresh" content="0; url=${target}">
</head>
<body><p>This page has moved to <a href="${target}">${target}</a>.</p></body>
</html>
`);
  }
}

// The service worker (web/sw.js) caches every file of the site for offline use under a name that includes
// a hash of all of them, so any change to the site makes a new worker that replaces the old cache. Writes
// <outDir>/sw.js from the source with BUILD = { version, files }; safe to run again after changing a file.
// The same version and the commit are written into web/lesson/site_version.js (left out of the hash, which covers
// the commit instead), so a page can say which build it is.
export function stampServiceWorker(outDir) {
  const files = listFiles(outDir).filter((f) => f !== "sw.js" && !f.split("/").some((part) => part.startsWith(".")));
  const commit = gitCommit();
  const hash = createHash("sha256").update(`${commit}\0`);
  for (const f of files.filter((f) => f !== SITE_VERSION)) hash.update(`${f}\0`).update(readFileSync(join(outDir, f))).update("\0");
  const version = hash.digest("hex").slice(0, 16);
  stampSiteVersion(outDir, { version, commit });
  const source = readFileSync(join(WEB, "sw.js"), "utf8");
  const placeholder = 'const BUILD = { version: "source", files: [] };';
  if (!source.includes(placeholder)) throw new Error(`web/sw.js must contain the line ${placeholder}`);
  writeFileSync(join(outDir, "sw.js"), source.replace(placeholder, `const BUILD = ${JSON.stringify({ version, files })};`));
  return { version, files };
}

const SITE_VERSION = "web/lesson/site_version.js";

function stampSiteVersion(outDir, site) {
  const file = join(outDir, SITE_VERSION);
  const placeholder = 'export const SITE = { version: "source", commit: "source" };';
  const source = readFileSync(join(ROOT, SITE_VERSION), "utf8");
  if (!source.includes(placeholder)) throw new Error(`${SITE_VERSION} must contain the line ${placeholder}`);
  writeFileSync(file, source.replace(placeholder, `export const SITE = ${JSON.stringify(site)};`));
}

// The commit the working tree is at ("…-dirty" when it has changes), or null outside a git checkout.
function gitCommit() {
  try {
    const git = (...args) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return git("rev-parse", "--short=12", "HEAD") + (git("status", "--porcelain", "--untracked-files=no") ? "-dirty" : "");
  } catch {
    return null;
  }
}

// { slug: [exercise id, …] } of every published week, from its exercises.js.
async function exerciseIds() {
  const weeks = WEEKS.filter((w) => w.available);
  const lists = await Promise.all(weeks.map((w) => import(pathToFileURL(join(LESSONS, w.slug, "exercises.js")).href)));
  return Object.fromEntries(weeks.map((w, i) => [w.slug, lists[i].default.map((e) => e.id)]));
}

// The cross-references in a lesson's modules (an exercise's prompt, hint or solution) name sections of that lesson's
// page: the browser fills them when the exercise mounts, and a missing id fails the build here, naming the file.
export function checkModuleRefs(lessonsDir = LESSONS) {
  for (const week of WEEKS) {
    const page = join(lessonsDir, week.slug, "index.html");
    if (!existsSync(page)) continue;
    const ids = sectionIds(readFileSync(page, "utf8"));
    for (const f of listFiles(join(lessonsDir, week.slug)).filter((f) => f.endsWith(".js"))) {
      const where = `lessons/${week.slug}/${f}`;
      for (const ref of sectionRefsIn(readFileSync(join(lessonsDir, week.slug, f), "utf8"))) {
        if (ref.id == null) throw new Error(`${where}: a data-ref link must point to a section of its own page ("#id"), not "${ref.href}"`);
        if (!ids.includes(ref.id)) {
          throw new Error(`${where}: a cross-reference names "#${ref.id}", which is no section of lessons/${week.slug}/index.html `
            + `(its sections: ${ids.join(", ")})`);
        }
      }
    }
  }
}

function escapeAttribute(text) {
  return text.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c]);
}

function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath ?? d.path, d.name)).split(sep).join("/"))
    .sort();
}

function bundle(entry, outfile) {
  return build({ entryPoints: [entry], outfile, bundle: true, format: "esm", minify: true, logLevel: "warning",
                 allowOverwrite: true });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2];
  if (!out) { console.error("usage: node scripts/assemble_site.mjs <out dir> [--wasm <dir>] [--no-solutions]"); process.exit(2); }
  const i = process.argv.indexOf("--wasm");
  await assembleSite(resolve(out), { requireWasm: true, solutions: !process.argv.includes("--no-solutions"),
    ...(i > 0 ? { wasmDir: resolve(process.argv[i + 1]) } : {}) });
}
