// Cross-references between pages never dangle: a page or exercise that mentions a week not yet published says
// "(Week N, in preparation)" and does not link to it; every relative link to a lesson page names a published one
// (or a guide, scripts/render_guide.mjs).
//   node --test tests/web/cross_references.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { WEEKS } from "../../lessons/web/lesson/course.js";
import { GUIDES } from "../../scripts/render_guide.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const published = new Set(WEEKS.filter((w) => w.available && w.number != null).map((w) => w.number));
const slugs = new Set([...WEEKS.filter((w) => w.available).map((w) => w.slug), ...GUIDES.map((g) => g.slug)]);

// What a learner reads: HTML without its comments, JS without its line comments (prompts, hints, messages).
const readable = () => execFileSync("git", ["ls-files", "lessons"], { cwd: ROOT, encoding: "utf8" }).split("\n")
  .filter((f) => /\.(html|js)$/.test(f) && !f.startsWith("lessons/web/vendor/") && f !== "lessons/web/lesson/course.js")
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
