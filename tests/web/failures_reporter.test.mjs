// failures_reporter.test.mjs — scripts/failures_reporter.mjs (the reporter of `scripts/test.sh --exercise ID`) prints
// each failure with its message and one line of summary, and nothing for a test that passed or was left out by the
// name pattern; a run in which no test's name matched fails.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPORTER = fileURLToPath(new URL("../../scripts/failures_reporter.mjs", import.meta.url));
const FIXTURE = `import { describe, test } from "node:test";
import assert from "node:assert/strict";
describe("suite of w9-demo", () => { test("first", () => {}); test("second", () => assert.ok(false, "the rule, and the file to change")); });
test("w9-demo: passes", () => {});
for (let i = 0; i < 5; i++) test("unrelated " + i, () => {});
`;

function run(id) {
  // Not as a child of this test run (NODE_TEST_CONTEXT makes node --test report to its parent instead).
  const { NODE_TEST_CONTEXT, ...env } = { ...process.env, DSML_REPORT_ID: id };
  const dir = mkdtempSync(join(tmpdir(), "dsml-reporter-"));
  try {
    writeFileSync(join(dir, "demo.test.mjs"), FIXTURE);
    return spawnSync(process.execPath, ["--test", `--test-name-pattern=(^|[^a-z0-9-])${id}([^a-z0-9-]|$)`,
      `--test-reporter=${REPORTER}`, "--test-reporter-destination=stdout", join(dir, "demo.test.mjs")],
      { encoding: "utf8", env });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a failure is printed with its message; passes and left-out tests are only counted", () => {
  const { status, stdout } = run("w9-demo");
  assert.equal(status, 1);
  assert.match(stdout, /✗ .*demo\.test\.mjs:3 — second\n {4}the rule, and the file to change/);
  assert.doesNotMatch(stdout, /unrelated|SKIP|w9-demo: passes|— first/);
  assert.match(stdout, /\nw9-demo: 2 passed, 1 failed — 3 tests in 1 of 1 test files ran, 5 others left out — in \d+ s\n/);
});

test("a run in which no test is named after the id fails and says so", () => {
  const { status, stdout } = run("w9-none");
  assert.equal(status, 1);
  assert.match(stdout, /w9-none: 0 passed, 0 failed .*\nno test ran/);
});
