// judge_seeds_cli.test.mjs — the lecturer's command `node scripts/judge_seeds.mjs ID`: one code exercise judged for
// the learners who between them meet every size it draws; a program of one's own with --code; bad input refused.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EXERCISES } from "./course.mjs";
import { coveringSeeds } from "../../web/exercise/learner_seeds.js";
import { LEARNER_SEED } from "./judge.mjs";

const SCRIPT = fileURLToPath(new URL("../../scripts/judge_seeds.mjs", import.meta.url));
const run = (...args) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8" });
const ring = EXERCISES.find((e) => e.id === "w1-token-ring");

test("w1-token-ring: the reference passes for each covering learner, a line each", () => {
  const r = run("w1-token-ring");
  assert.equal(r.status, 0, r.stderr);
  const learners = coveringSeeds(ring, { first: LEARNER_SEED }).length;
  assert.equal(r.stdout.split("\n").filter((line) => /^ {2}seed /.test(line)).length, learners);
  assert.match(r.stdout, new RegExp(`${learners} of ${learners} learners passed`));
});

test("w1-token-ring --code: a wrong program fails for every learner, with the checker's message", () => {
  const dir = mkdtempSync(join(tmpdir(), "dsml-seeds-"));
  try {
    writeFileSync(join(dir, "wrong.js"), ring.wrongs[0].code);
    const r = run("w1-token-ring", "--seeds", "2", "--code", join(dir, "wrong.js"));
    assert.equal(r.status, 0, "--code reports, it does not judge the exercise");
    assert.equal((r.stdout.match(/FAILED run/g) ?? []).length, 2);
    assert.match(r.stdout, ring.wrongs[0].expect);
    assert.match(r.stdout, /0 of 2 learners passed/);
  } finally { rmSync(dir, { recursive: true }); }
});

test("bad input is refused with what to do", () => {
  for (const [args, message] of [[["no-such-id"], /no exercise "no-such-id"/], [["w1-crossover"], /numeric exercise/],
    [["w1-token-ring", "--seeds", "0"], /whole number/], [[], /name a code exercise/]]) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(" "));
    assert.match(r.stderr, message);
    assert.match(r.stderr, /usage: node scripts\/judge_seeds\.mjs/);
  }
});
