// failures_reporter.mjs — a reporter for node --test (`--test-reporter=./scripts/failures_reporter.mjs`) that prints
// what failed and one line of summary: no line per passing or filtered-out test. `scripts/test.sh --exercise ID`
// uses it, where a name pattern leaves hundreds of tests out. Each failure: its file and line, its name, the
// assertion's message (which says the rule and the file to change) and, for a file that failed, what it wrote to
// stderr. Diagnostics that name DSML_REPORT_ID (a test's note, such as a missing reference time) are printed too.
import { relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const where = (file) => (file ? relative(ROOT, file) : "?");

// A failure's own message: the assertion (or error) the test threw, not the runner's wrapper around it.
function reason(error) {
  const cause = error?.cause ?? error;
  const text = (cause?.message ?? String(cause)).trim().replace(/\n\s*\n/g, "\n");
  return text.split("\n").map((line) => `    ${line}`).join("\n");
}

export default async function* failuresReporter(source) {
  const id = process.env.DSML_REPORT_ID ?? "";
  const started = Date.now();
  let passed = 0, failed = 0, skipped = 0;
  const files = new Set(), ranFiles = new Set(), stderr = new Map(), failedFiles = new Set();
  for await (const { type, data } of source) {
    if (data?.file) files.add(data.file);
    if (type === "test:stderr") {
      stderr.set(data.file, (stderr.get(data.file) ?? "") + data.message);
    } else if (type === "test:diagnostic" && id && data.message.includes(id)) {
      yield `  note (${where(data.file)}): ${data.message}\n`;
    } else if (type === "test:pass" && data.details?.type !== "suite") {
      if (data.skip || data.todo) skipped += 1; else { passed += 1; ranFiles.add(data.file); }
    } else if (type === "test:fail") {
      // A test or suite that failed only because a subtest did is said by that subtest (a suite whose hook failed is
      // printed: its tests are only "cancelled").
      if (data.details?.error?.failureType === "subtestsFailed") continue;
      failed += 1;
      failedFiles.add(data.file);
      ranFiles.add(data.file);
      const at = data.line ? `:${data.line}` : "";
      yield `\n✗ ${where(data.file)}${at} — ${data.name}\n${reason(data.details?.error)}\n`;
    }
  }
  for (const file of failedFiles) {
    const text = stderr.get(file)?.trim();
    if (text) yield `  stderr of ${where(file)}:\n${text.split("\n").slice(-20).map((l) => `    ${l}`).join("\n")}\n`;
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const ran = passed + failed;
  yield `\n${id ? `${id}: ` : ""}${passed} passed, ${failed} failed — ${ran} tests in ${ranFiles.size} of ${files.size} ` +
    `test files ran, ${skipped} others left out — in ${seconds} s\n`;
  if (ran === 0) {
    yield "no test ran: no test's name names this id\n";
    process.exitCode = 1;
  }
}
