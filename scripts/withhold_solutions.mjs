// withhold_solutions.mjs — a site for a graded term: the reference solutions left out of an assembled site/
// (scripts/assemble_site.mjs { solutions: false }; bash scripts/build.sh --site-only --no-solutions, or
// DSML_NO_SOLUTIONS=1). In the site's copy of every exercise module (lessons/*/exercises/*.js):
//   - every `solutionText` (the worked explanation "Show solution" reveals) becomes "";
//   - every string or template literal that holds a line of a code exercise's reference solution, or a piece of one —
//     its `solution`, the constants it is assembled from, the wrong programs CI derives from it — becomes "" (a line:
//     one of at least MIN_LINE characters that its starter does not have; a piece: as long, and in no starter;
//     hints, prompts and starters are kept);
// and web/exercise/solution_policy.js says "withheld", so the page says so instead of offering "Show solution".
// Not withheld, because the page itself runs them (listed by solutionsKept): a reference that is a function of the
// course's own program (sourceOf: the learner rewrites a function the page's trainer runs), and one a widget runs
// (the exercise's `pageRunsReference` says which). Numeric answers are computed in the page, as its Check needs.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "acorn";
import { WEEKS } from "../web/lesson/course.js";

export const MIN_LINE = 12;
const KEEP = new Set(["hints", "prompt", "starter"]);   // properties whose text a learner is meant to see

/** The lines of `exercise`'s reference a learner sees in no starter (`starters`: every code exercise's), trimmed. */
export function solutionLines(exercise, starters) {
  const given = new Set(starters.flatMap((s) => s.split("\n").map((l) => l.trim())));
  return [...new Set(exercise.solution.split("\n").map((l) => l.trim()))].filter((l) => l.length >= MIN_LINE && !given.has(l));
}

/** Every exercise of the published pages, from the source tree: [{ exercise, folder }]. */
export async function courseExercises(root) {
  const out = [];
  for (const week of WEEKS.filter((w) => w.available)) {
    const mod = await import(pathToFileURL(join(root, "lessons", week.slug, "exercises.js")).href);
    for (const exercise of mod.default) out.push({ exercise, folder: week.slug });
  }
  return out;
}

/** The code exercises whose reference stays in the site, with why: { id: reason }. */
export function solutionsKept(exercises, root) {
  // The rank programs: each page's own (lessons/<slug>/programs/) and those pages share (web/programs/).
  const programs = [...WEEKS.filter((w) => w.available).map((w) => join(root, "lessons", w.slug, "programs")),
    join(root, "web", "programs")].flatMap(listJs).map((f) => readFileSync(f, "utf8"));
  const kept = {};
  for (const { exercise: e } of exercises.filter(({ exercise }) => exercise.kind === "code")) {
    if (e.pageRunsReference) kept[e.id] = e.pageRunsReference;
    else if (programs.some((text) => text.includes(e.solution.trim()))) kept[e.id] = "it is a function of the course's own program, which the page runs";
  }
  return kept;
}

export async function withholdSolutions(siteDir, root) {
  const exercises = await courseExercises(root);
  const kept = solutionsKept(exercises, root);
  const withheld = exercises.map(({ exercise }) => exercise).filter((e) => e.kind === "code" && !(e.id in kept));
  const starters = exercises.flatMap(({ exercise }) => (exercise.kind === "code" ? [exercise.starter] : []));
  // A string is the reference's when it holds one of its lines (within a longer line too: another exercise's wrong
  // program may write the same loop on one line), or when it is a piece of one that CI's wrong programs
  // replace (solution.replace(piece, …)) and no starter has.
  const lines = new Set(withheld.flatMap((e) => solutionLines(e, starters)).filter((l) => !starters.some((s) => s.includes(l))));
  const isSecret = (text, replaced) => [...lines].some((l) => text.includes(l)) || (replaced && text.trim().length >= MIN_LINE
    && withheld.some((e) => e.solution.includes(text.trim())) && !starters.some((s) => s.includes(text.trim())));
  for (const week of WEEKS.filter((w) => w.available)) {
    for (const file of listJs(join(siteDir, "lessons", week.slug, "exercises"))) {
      writeFileSync(file, blank(readFileSync(file, "utf8"), isSecret));
    }
  }
  const policy = join(siteDir, "web/exercise/solution_policy.js");
  const line = 'export const SOLUTIONS = "shipped";';
  const text = readFileSync(policy, "utf8");
  if (!text.includes(line)) throw new Error(`web/exercise/solution_policy.js must contain the line ${line}`);
  writeFileSync(policy, text.replace(line, 'export const SOLUTIONS = "withheld";'));
  return { kept };
}

// The module's source with every solutionText value and every string that isSecret replaced by "".
function blank(source, isSecret) {
  const ranges = [];
  const replaced = new Set();   // the arguments of a call to .replace / .replaceAll
  const visit = (node, keep) => {
    if (!node || typeof node.type !== "string") return;
    if (node.type === "CallExpression" && node.callee.type === "MemberExpression"
      && ["replace", "replaceAll"].includes(node.callee.property?.name)) node.arguments.forEach((a) => replaced.add(a));
    if (node.type === "Property" && !node.computed && node.key.type === "Identifier") {
      if (node.key.name === "solutionText" && !node.shorthand) { ranges.push([node.value.start, node.value.end]); return; }
      if (KEEP.has(node.key.name)) keep = true;
    }
    if (!keep && (node.type === "TemplateLiteral" || (node.type === "Literal" && typeof node.value === "string"))) {
      const text = node.type === "Literal" ? node.value : node.quasis.map((q) => q.value.cooked ?? q.value.raw).join("");
      if (isSecret(text, replaced.has(node))) { ranges.push([node.start, node.end]); return; }
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((v) => visit(v, keep));
      else if (value && typeof value === "object" && value.type) visit(value, keep);
    }
  };
  visit(parse(source, { ecmaVersion: "latest", sourceType: "module" }), false);
  let out = source;
  for (const [start, end] of ranges.sort((a, b) => b[0] - a[0])) out = `${out.slice(0, start)}""${out.slice(end)}`;
  return out;
}

function listJs(dir) {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(".js")).map((f) => join(dir, f));
  } catch {
    return [];   // a page without that folder
  }
}
