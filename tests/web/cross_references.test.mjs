// Cross-references between pages never dangle: a page or exercise that mentions a week not yet published says
// "(Week N, in preparation)" and does not link to it; every relative link to a lesson page names a published one
// (or a guide, scripts/render_guide.mjs).
//   node --test tests/web/cross_references.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { WEEKS } from "../../web/lesson/course.js";
import { GUIDES } from "../../scripts/render_guide.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const published = new Set(WEEKS.filter((w) => w.available && w.number != null).map((w) => w.number));
const slugs = new Set([...WEEKS.filter((w) => w.available).map((w) => w.slug), ...GUIDES.map((g) => g.slug)]);

// What a learner reads: HTML without its comments, JS without its line comments (prompts, hints, messages).
const readable = () => execFileSync("git", ["ls-files", "lessons"], { cwd: ROOT, encoding: "utf8" }).split("\n")
  .filter((f) => /\.(html|js)$/.test(f) && !f.startsWith("web/vendor/") && f !== "web/lesson/course.js")
  .map((f) => {
    const raw = readFileSync(`${ROOT}${f}`, "utf8");
    const text = f.endsWith(".html") ? raw.replace(/<!--[\s\S]*?-->/g, "") : raw.replace(/^\s*\/\/.*$/gm, "");
    return { file: f, text: text.replace(/"\s*\+\s*"|`\s*\+\s*`/g, "").replace(/\s+/g, " ") };
  });

test("a week that is not published yet is mentioned as in preparation", () => {
  const dangling = [];
  for (const { file, text } of readable()) {
    for (const m of text.matchAll(/Week (\d)\b(.{0,24})/g)) {
      const n = Number(m[1]);
      if (published.has(n) || file.startsWith(`lessons/week${n}/`)) continue;   // a page may name itself before it is published
      if (!/^(?:, | \()in preparation/.test(m[2])) dangling.push(`${file}: “Week ${n}${m[2]}…”`);
    }
  }
  assert.deepEqual(dangling, []);
});

test("every relative link to a lesson page names a published page", () => {
  const broken = [];
  for (const { file, text } of readable()) {
    for (const [, slug] of text.matchAll(/href=\\?["'](?:\.\.\/)+([a-z0-9]+)\/index\.html/g)) {
      if (!slugs.has(slug)) broken.push(`${file}: ${slug}`);
    }
  }
  assert.deepEqual(broken, []);
});

// Links into a section of another page ("../week5/index.html#zero", "../lab/#pipeline") land on an element with that
// id in the target page's HTML; links within a page ("#train") on one of its own.
const idsOf = (() => {
  const cache = new Map();
  return (slug) => {
    if (!cache.has(slug)) {
      const html = readFileSync(`${ROOT}lessons/${slug}/index.html`, "utf8").replace(/<!--[\s\S]*?-->/g, "");
      cache.set(slug, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
    }
    return cache.get(slug);
  };
})();
const ANCHORED = /href=\\?["']((?:\.\.\/)+([a-z0-9]+)\/(?:index\.html)?)?#([^"'\\]+)\\?["']/g;

test("every link to a section names an id that exists on the target page", () => {
  const broken = [];
  let checked = 0;
  for (const { file, text } of readable()) {
    const own = file.match(/^lessons\/([a-z0-9]+)\/index\.html$/)?.[1];
    for (const [, path, slug, id] of text.matchAll(ANCHORED)) {
      const target = path ? slug : own;
      if (!target || GUIDES.some((g) => g.slug === target)) continue;   // guides are rendered from Markdown at build time
      checked += 1;
      if (!idsOf(target).has(id)) broken.push(`${file}: ${path ?? ""}#${id}`);
    }
  }
  assert.ok(checked >= 30, `only ${checked} section links found`);
  assert.deepEqual(broken, []);
});

// The lab is the playground of Weeks 3 and 5: each of its strategy sections opens with a "taught in" note linking to
// the section of the week that teaches it, and each of those weeks links back into the lab.
const LAB_TAUGHT_IN = { "data-parallel": "week3", zero: "week5", "tensor-parallel": "week5", pipeline: "week5", together: "week5", experts: "week5" };

test("each of the lab's strategy sections links to the week that teaches it, and that week links back", () => {
  const lab = readFileSync(`${ROOT}lessons/lab/index.html`, "utf8").replace(/<!--[\s\S]*?-->/g, "");
  for (const [section, week] of Object.entries(LAB_TAUGHT_IN)) {
    const body = lab.match(new RegExp(`<section id="${section}"[^>]*>([\\s\\S]*?)</section>`))?.[1];
    assert.ok(body, `the lab has a section #${section}`);
    const note = body.match(/<p class="taught-in">([\s\S]*?)<\/p>/)?.[1] ?? "";
    const targets = [...note.matchAll(/href="\.\.\/(week\d)\/index\.html#([^"]+)"/g)].map((m) => m[1]);
    assert.ok(targets.includes(week), `#${section}'s taught-in note links to a section of ${week}: ${note.trim().slice(0, 80)}`);
  }
  for (const week of new Set(Object.values(LAB_TAUGHT_IN))) {
    const html = readFileSync(`${ROOT}lessons/${week}/index.html`, "utf8");
    assert.match(html, /href="\.\.\/lab\/index\.html#[a-z-]+"/, `${week} links into a section of the lab`);
  }
});
