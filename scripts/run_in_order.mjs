// run_in_order.mjs — runs test files with Node's test runner in the order given, `--concurrency` at a time.
// `node --test a b c` sorts its files by name (Node 20), so an order chosen to balance the cores (the longest files
// first, scripts/test.sh) has to be handed to the runner's API instead. Prints TAP (the spec reporter on a
// terminal), as `node --test` does, and exits 1 if any test failed or a file could not run.
//   node scripts/run_in_order.mjs --concurrency 2 tests/e2e/lessons.test.mjs tests/e2e/reading.test.mjs …
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";
import { resolve } from "node:path";

const args = process.argv.slice(2);
let concurrency = 1;
if (args[0] === "--concurrency") {
  concurrency = Number(args[1]);
  args.splice(0, 2);
}
if (!Number.isInteger(concurrency) || concurrency < 1 || args.length === 0) {
  console.error("usage: node scripts/run_in_order.mjs [--concurrency N] file...");
  process.exit(2);
}

const stream = run({ files: args.map((file) => resolve(file)), concurrency });
stream.on("test:fail", () => { process.exitCode = 1; });
stream.compose(process.stdout.isTTY ? spec : tap).pipe(process.stdout);
