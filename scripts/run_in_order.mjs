// run_in_order.mjs — runs test files with Node's test runner, `--concurrency` at a time, the longest first.
// `node --test a b c` sorts its files by name (Node 20); with two cores, a long file started last leaves one core
// idle while it runs. So the files are handed to the runner's API in an order computed from the last run's
// timings: each file's seconds (the sum of its top-level tests' durations) are written to the --timings file after
// every run and read before the next. A file with no timing yet (a fresh clone, a new file) is placed by its size in
// bytes among the others, at the rate of seconds per byte of the files that have one (or by size alone when none
// has). With --browser, one Chromium is started for all the files and its address handed to them in
// DSML_BROWSER_WS: each file opens fresh contexts in it (tests/e2e/harness.mjs) instead of starting its own.
// Prints TAP (the spec reporter on a terminal), as `node --test` does, and exits 1 if any test failed or a file
// could not run.
//   node scripts/run_in_order.mjs [--concurrency N] [--timings build/page_test_seconds.json] [--browser] file...
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { longestFirst } from "./test_order.mjs";

const args = process.argv.slice(2);
let concurrency = 1, timingsPath = null, oneBrowser = false;
while (args[0]?.startsWith("--")) {
  const flag = args.shift();
  if (flag === "--concurrency") concurrency = Number(args.shift());
  else if (flag === "--timings") timingsPath = args.shift();
  else if (flag === "--browser") oneBrowser = true;
  else args.length = 0;
}
if (!Number.isInteger(concurrency) || concurrency < 1 || args.length === 0) {
  console.error("usage: node scripts/run_in_order.mjs [--concurrency N] [--timings FILE] [--browser] file...");
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

let browserServer = null;
if (oneBrowser) {
  const { chromium } = await import("playwright-core");
  const { CHROMIUM, CHROMIUM_ARGS } = await import("./chromium.mjs");
  browserServer = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  process.env.DSML_BROWSER_WS = browserServer.wsEndpoint();
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
  browserServer?.close();
  if (!timingsPath || Object.keys(measured).length === 0) return;
  const next = { ...timings };
  for (const [name, seconds] of Object.entries(measured)) next[name] = Number(seconds.toFixed(1));
  writeFileSync(timingsPath, JSON.stringify(next, null, 1) + "\n");
});
stream.compose(process.stdout.isTTY ? spec : tap).pipe(process.stdout);
