// run_in_order.mjs — runs test files with Node's test runner, `--concurrency` at a time, the longest first.
// `node --test a b c` sorts its files by name (Node 20); with two cores, a long file started last leaves one core
// idle while it runs. So the files are handed to the runner's API in an order computed from the last run's
// timings: each file's seconds (the sum of its top-level tests' durations) are written to the --timings file after
// every run and read before the next. A file with no timing yet (a fresh clone, a new file) is placed by its size in
// bytes among the others, at the rate of seconds per byte of the files that have one (or by size alone when none
// has). Prints TAP (the spec reporter on a terminal), as `node --test` does, and exits 1 if any test failed or a
// file could not run.
//   node scripts/run_in_order.mjs [--concurrency N] [--timings build/page_test_seconds.json] file...
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { longestFirst } from "./test_order.mjs";

const args = process.argv.slice(2);
let concurrency = 1, timingsPath = null;
while (args[0]?.startsWith("--")) {
  const [flag, value] = args.splice(0, 2);
  if (flag === "--concurrency") concurrency = Number(value);
  else if (flag === "--timings") timingsPath = value;
  else args.length = 0;
}
if (!Number.isInteger(concurrency) || concurrency < 1 || args.length === 0) {
  console.error("usage: node scripts/run_in_order.mjs [--concurrency N] [--timings FILE] file...");
  process.exit(2);
}

function readTimings(path) {
  if (!path || !existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8"));
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};   // a damaged timings file only costs the order, never the run
  }
}

const files = args.map((file) => resolve(file));
const timings = readTimings(timingsPath);
const measured = {};
const stream = run({ files: longestFirst(files, timings), concurrency });
stream.on("test:fail", () => { process.exitCode = 1; });
for (const event of ["test:pass", "test:fail"]) {
  stream.on(event, (data) => {
    if (data.nesting !== 0 || !data.file) return;
    const name = basename(data.file);
    measured[name] = (measured[name] ?? 0) + (data.details?.duration_ms ?? 0) / 1000;
  });
}
stream.on("close", () => {
  if (!timingsPath || Object.keys(measured).length === 0) return;
  const next = { ...timings };
  for (const [name, seconds] of Object.entries(measured)) next[name] = Number(seconds.toFixed(1));
  writeFileSync(timingsPath, JSON.stringify(next, null, 1) + "\n");
});
stream.compose(process.stdout.isTTY ? spec : tap).pipe(process.stdout);
