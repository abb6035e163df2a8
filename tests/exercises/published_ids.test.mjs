// Published exercise ids are kept: a learner's progress is stored under an exercise's id, so every id the course has
// published (lessons/published_ids.json, with its page) is an exercise today or an alias of one
// (web/lesson/exercise_aliases.js, whose progress is then read as the new id's), and every exercise is registered.
//   node --test tests/exercises/published_ids.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { COURSE } from "./course.mjs";
import { ALIASES } from "../../web/lesson/exercise_aliases.js";

const REGISTRY = "lessons/published_ids.json";
const published = JSON.parse(readFileSync(new URL(`../../${REGISTRY}`, import.meta.url), "utf8")).ids;
const current = new Map(COURSE.flatMap(({ week, exercises }) => exercises.map((e) => [e.id, week.slug])));

/** What is wrong with a registry ({ id: page }), the course's exercises (Map id → page) and an alias table, in words. */
function problems(registry, exercises, aliases) {
  const found = [];
  for (const [id, page] of Object.entries(registry)) {
    if (exercises.has(id)) {
      if (exercises.get(id) !== page) {
        found.push(`"${id}" is registered on ${page} but is an exercise of ${exercises.get(id)} now: write "${id}": `
          + `"${exercises.get(id)}" in ${REGISTRY} (its progress moves with it)`);
      }
    } else if (!Object.hasOwn(aliases, id)) {
      found.push(`"${id}" (published on ${page}) is no longer an exercise and has no alias, so learners' progress saved `
        + `under it would be lost: if the exercise was renamed, add "${id}": "<its new id>" to ALIASES in `
        + `web/lesson/exercise_aliases.js; if it was removed from the course on purpose, delete its line from ${REGISTRY}`);
    }
  }
  for (const [id, page] of exercises) {
    if (!Object.hasOwn(registry, id)) {
      found.push(`"${id}" (an exercise of ${page}) is not in ${REGISTRY}: add "${id}": "${page}" (its id is published `
        + "with the page and must not change afterwards)");
    }
  }
  for (const [old, to] of Object.entries(aliases)) {
    if (exercises.has(old)) found.push(`the alias "${old}" is an exercise's id today: remove it from web/lesson/exercise_aliases.js`);
    else if (!exercises.has(to)) {
      found.push(`the alias "${old}" → "${to}" leads to no exercise: point it at the exercise's id today `
        + `(${Object.hasOwn(aliases, to) ? `"${aliases[to]}"` : "a renamed exercise's new id"})`);
    }
    if (!Object.hasOwn(registry, old)) found.push(`the alias "${old}" was never published: add it to ${REGISTRY} with its page, or remove it`);
  }
  return found;
}

test("every published exercise id is an exercise today or an alias of one, and every exercise is published", () => {
  assert.ok(current.size >= 70, `${current.size} exercises`);
  assert.deepEqual(problems(published, current, ALIASES), []);
});

test("renaming an exercise without an alias fails, naming the id and what to do; with an alias it passes", () => {
  const registry = { "w2-ring": "week2", "w2-tree": "week2" };
  const renamed = new Map([["w2-ring-time", "week2"], ["w2-tree", "week2"]]);
  const [lost, unregistered] = problems(registry, renamed, {});
  assert.match(lost, /^"w2-ring" \(published on week2\) is no longer an exercise and has no alias/);
  assert.match(lost, /add "w2-ring": "<its new id>" to ALIASES in web\/lesson\/exercise_aliases\.js/);
  assert.match(unregistered, /^"w2-ring-time" \(an exercise of week2\) is not in lessons\/published_ids\.json: add "w2-ring-time": "week2"/);
  assert.deepEqual(problems({ ...registry, "w2-ring-time": "week2" }, renamed, { "w2-ring": "w2-ring-time" }), []);
  // An alias to an id that is itself an alias, or to nothing, is refused; so is an alias that shadows an exercise.
  assert.match(problems({ a: "week2", b: "week2", c: "week2" }, new Map([["c", "week2"]]), { a: "b", b: "c" })[0],
    /the alias "a" → "b" leads to no exercise: point it at the exercise's id today \("c"\)/);
  assert.match(problems({ c: "week2" }, new Map([["c", "week2"]]), { c: "d" })[0], /the alias "c" is an exercise's id today/);
});
