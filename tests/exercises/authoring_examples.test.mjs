// authoring_examples.test.mjs — what lessons/AUTHORING.md shows a lecturer as real is real: every id in a command
// (`test.sh --exercise ID`, `reference_times.mjs --only ID`, `judge_seeds.mjs ID`) is an exercise of the course (a code
// one for the last two), every prefix of `grade.mjs … --only` starts an exercise's id, and every "`ID` in
// `lessons/….js`" names the file that defines that exercise.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { EXERCISES, sourceOf } from "./course.mjs";

const guide = readFileSync(new URL("../../lessons/AUTHORING.md", import.meta.url), "utf8");
const byId = new Map(EXERCISES.map((e) => [e.id, e]));

test("the ids in the guide's commands are exercises of the course", () => {
  const commands = [...guide.matchAll(/(--exercise|reference_times\.mjs --only|judge_seeds\.mjs) ([a-z0-9-]+)/g)];
  assert.ok(commands.length >= 2, "the guide shows --exercise and --only");
  for (const [, command, id] of commands) {
    if (id === "ID") continue;   // the placeholder of a usage line
    assert.ok(byId.has(id), `lessons/AUTHORING.md: ${command} ${id} — no exercise ${id} in any lessons/*/exercises.js`);
    if (command !== "--exercise") assert.equal(byId.get(id).kind, "code", `${command} ${id}: not a code exercise`);
  }
  for (const [, list] of guide.matchAll(/grade\.mjs [^\n]*--only ([a-z0-9,-]+)/g)) {
    for (const prefix of list.split(",")) {
      assert.ok(EXERCISES.some((e) => e.id.startsWith(prefix)), `grade.mjs --only ${prefix}: no exercise id starts so`);
    }
  }
});

test("an exercise the guide places in a file is defined there", () => {
  const placed = [...guide.matchAll(/`([a-z0-9]+-[a-z0-9-]+)` in\s+`(lessons\/[^`]+\.js)`/g)];
  assert.ok(placed.length >= 3, `${placed.length} exercises placed in files`);
  for (const [, id, file] of placed) {
    assert.ok(byId.has(id), `lessons/AUTHORING.md names ${id} in ${file}: no such exercise`);
    assert.equal(sourceOf(byId.get(id)), file, `lessons/AUTHORING.md: ${id} is defined in ${sourceOf(byId.get(id))}`);
  }
});
