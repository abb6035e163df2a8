// course.mjs — every exercise of the course, found as the pages find them: each available entry of WEEKS
// (web/lesson/course.js) whose folder has an exercises.js, whose default export lists that page's exercises in order.
// Tests iterate over these and keep no list of exercise ids of their own, so an exercise added to a week's
// exercises.js is checked by every test at once (lessons/AUTHORING.md).
//   import { COURSE, EXERCISES, weekOf } from "./course.mjs";
//   COURSE     [{ week, exercises }]  in reading order, one per page that has exercises
//   EXERCISES  every exercise of the course, in reading order
//   sourceOf(exercise)  the file that defines it ("lessons/week2/exercises/ring_allreduce.js"), for a failure message
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { WEEKS } from "../../web/lesson/course.js";

const LESSONS = new URL("../../lessons/", import.meta.url);

export const COURSE = [];
for (const week of WEEKS.filter((w) => w.available)) {
  const file = new URL(`${week.slug}/exercises.js`, LESSONS);
  if (!existsSync(file)) continue;   // a page without exercises (a guide, a planner)
  COURSE.push({ week, exercises: (await import(file)).default });
}

export const EXERCISES = COURSE.flatMap(({ exercises }) => exercises);

/** The WEEKS entry whose exercises.js lists `exercise`. */
export const weekOf = (exercise) => COURSE.find(({ exercises }) => exercises.includes(exercise))?.week;

/** The id prefix of a page's exercises: "w3-" for Week 3, "lab-" for the lab. */
export const idPrefix = (week) => (week.number != null ? `w${week.number}-` : `${week.slug}-`);

/** The file under lessons/<slug>/ that writes the exercise's id (its module), relative to the repository. */
export function sourceOf(exercise) {
  const week = weekOf(exercise);
  if (!week) return "lessons/*/exercises/";
  const files = readdirSync(new URL(`${week.slug}/`, LESSONS), { recursive: true }).filter((f) => f.endsWith(".js")).sort();
  const text = (f) => readFileSync(new URL(`${week.slug}/${f}`, LESSONS), "utf8");
  const defines = new RegExp(`id:\\s*["'\`]${exercise.id}["'\`]`), names = new RegExp(`["'\`]${exercise.id}["'\`]`);
  const file = files.find((f) => defines.test(text(f))) ?? files.find((f) => f !== "exercises.js" && names.test(text(f)));
  return `lessons/${week.slug}/${file ?? "exercises.js"}`;
}

/** The page's HTML file of a WEEKS entry. */
export const pageOf = (week) => new URL(`${week.slug}/index.html`, LESSONS);

// The rules an exercise may be exempted from, by name (a misspelt name in `exempt` fails).
export const EXEMPTIONS = {
  distinctParams: "numeric: more than 10 distinct parameter sets among 200 learners",
  oracle: "numeric: an oracle(params) that computes the answer without the core",
  variedRanks: "code: the visible cases draw more than one p",
  variedInputs: "code: more than 40 distinct (p, inputs) among 40 learners' visible cases",
  thirdAttempt: "code: judging.test.mjs judges every wrong program on attempts 1–3 (exempt: 1–2)",
};
