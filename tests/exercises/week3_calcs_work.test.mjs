// Week 3's prose numbers are recomputed by the core in the calc Worker before the page is ready (web/lesson/calc.js):
// that work must not repeat itself. Not a timing test (speed lives in bench/): it counts the core's costly calls
// while every number of the page is computed, and asserts that no training run, shard experiment or priced step is
// made twice — repeating the same shard experiment and the same priced steps for each number once held the page's
// ready time at ≈ 4 s. The numbers themselves must still equal the ones written in the HTML.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { CALCS } from "../../lessons/week3/calcs.js";
import { computeCalcs } from "../../web/lesson/calc.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const COSTLY = ["teacherBatch", "trainCompare", "stepCost", "ddpVariants", "dpScaling"];

// The core with its costly functions counted, by the request each was given.
function countingCore() {
  const calls = Object.fromEntries(COSTLY.map((name) => [name, []]));
  const counted = new Proxy(core, {
    get(target, name) {
      const value = target[name];
      if (!COSTLY.includes(name)) return typeof value === "function" ? value.bind(target) : value;
      return (...args) => { calls[name].push(JSON.stringify(args)); return value.apply(target, args); };
    },
  });
  return { counted, calls };
}

const html = readFileSync(new URL("../../lessons/week3/index.html", import.meta.url), "utf8").replace(/<!--[\s\S]*?-->/g, "");
const written = Object.fromEntries([...html.matchAll(/<span data-calc="([^"]+)">([^<]*)</g)].map((m) => [m[1], m[2]]));

test("week 3: every prose number computed once over, no costly core call repeated, values as in the HTML", () => {
  const { counted, calls } = countingCore();
  const values = computeCalcs(CALCS, Object.keys(written), counted);
  assert.deepEqual(values, written);
  for (const [name, requests] of Object.entries(calls)) {
    const repeated = requests.filter((r, i) => requests.indexOf(r) !== i);
    assert.equal(repeated.length, 0, `core.${name} called ${requests.length}× with ${repeated.length} repeats, e.g. ${repeated[0]?.slice(0, 200)}`);
  }
  // One teacher batch per shard experiment (equal shards of section 1, unequal ones of section 5), not one per shard.
  assert.equal(calls.teacherBatch.length, 2, `teacherBatch called ${calls.teacherBatch.length}×`);
});
