// paper_statements.test.mjs — what the pages say about the papers and systems they cite, pinned to what those papers
// say: Zhang et al.'s rule as theirs, PyTorch's buckets in MiB, who wrote which checkpoint symbol and what Daly's model
// leaves out, Llama 3's failure causes in its Table 5's order, SSP's staleness bound in updates, what Mixtral does
// with capacity. Each test reads the source a learner sees (page prose, exercise text).
//   node --test tests/web/paper_statements.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
// What a learner reads on a page: the HTML without comments, scripts and tags, whitespace collapsed.
const prose = (week) => read(`lessons/${week}/index.html`).replace(/<!--[\s\S]*?-->/g, "")
  .replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&").replace(/\s+/g, " ");
const flat = (html) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const around = (text, anchor, span = 500) => {
  const i = text.search(anchor);
  assert.ok(i >= 0, `no ${anchor}`);
  return text.slice(Math.max(0, i - span), i + span);
};

test("w4-stale-lr's solution credits Zhang et al. with their own rule, η/τ, and calls η/(τ + 1) the course's shift", async () => {
  const { staleLr } = await import("../../lessons/week4/exercises/stale_lr.js");
  const text = flat(staleLr.solutionText);
  assert.doesNotMatch(text, /Zhang et al\. 2016 proved convergence for this rule/);
  assert.match(text, /Zhang et al\. \(2016\) proved convergence for their rule, η\/τ with the full η for a fresh gradient; the course's η\/\(τ \+ 1\) is that rule shifted by one/);
});

test("PyTorch DDP's default bucket is 25 MiB wherever the course names it; no author's note is left in Week 3", async () => {
  const { dpSync } = await import("../../lessons/lab/exercises/dp_sync.js");
  for (const [where, text] of [["lab-dp-sync's solution", dpSync.solutionText], ["data_parallel.h", read("core/include/dsml/data_parallel.h")]]) {
    assert.doesNotMatch(text, /25 MB\b/, where);
    assert.match(text, /25 MiB/, where);
  }
  assert.doesNotMatch(read("lessons/week3/index.html"), /written separately and merged|Further reading for the page's list/);
});

test("Week 6: Young's and Daly's symbols are theirs; Daly's model has no detection time, the course adds it; no fragment", () => {
  const page = prose("week6");
  assert.match(page, /Writing takes \\delta seconds \(Daly's symbol; Young wrote T s for it and T f for the MTBF;/);
  assert.doesNotMatch(page, /Young and Daly's symbol/);
  const daly = around(page, /What the first order leaves out/, 1200);
  assert.match(daly, /no time to notice the failure\. Daly \(2006\) solved the model without the first two/);
  assert.doesNotMatch(daly, /solved the model with all of these/);
  assert.match(daly, /which Daly's model leaves out — a detection delay D/);
  assert.match(daly, /is this course's extension; with D = 0 it is Daly's/);
  assert.match(daly, /Daly's higher-order optimum is/);
  assert.doesNotMatch(page, /\. and his higher-order optimum/);
});

test("Week 6: Llama 3's failure causes in its Table 5's order — GPUs and HBM, then software, network, host maintenance", () => {
  const page = prose("week6");
  assert.doesNotMatch(page, /then hosts, network and software/);
  const causes = around(page, /Its Table 5 gives their causes/, 400);
  const order = ["faulty GPUs (30.1%)", "HBM3 memory (17.2%)", "software bugs (12.9%)", "network switches and cables (8.4%)",
    "host maintenance (7.6%)"].map((c) => causes.indexOf(c));
  assert.ok(order.every((i) => i >= 0), `every cause named: ${order}`);
  assert.deepEqual([...order].sort((a, b) => a - b), order, "in the table's order, most frequent first");
});

test("Week 6: the capstone's SSP staleness bound is the general (2s + 1)(P − 1), with the run that reaches it", () => {
  const page = prose("week6");
  assert.doesNotMatch(page, /\(s\+1\)P - 1/);
  const bound = around(page, /How stale can one be\?/, 1200);
  assert.match(bound, /\(2s\+1\)\(P-1\) updates old, whatever the speeds/);
  assert.match(bound, /dsml ps --regime ssp --staleness 1 --workers 3 --round-speeds 1,1,1,1,1,20 --iterations 200 --alpha 5e-6 --bandwidth 1e10 --seed 1/);
  // The bound by hand for s = 1, P = 3: (2·1 + 1)(3 − 1) = 6, the number the page quotes (computed by calcs.js).
  assert.match(bound, new RegExp(`applies an update ${(2 * 1 + 1) * (3 - 1)} updates old`));
});

test("Week 5: the Mixtral-like all-to-all states its capacity factor, and that Mixtral itself drops no token", () => {
  const page = prose("week5");
  const real = around(page, /At real size — a Mixtral-like layer/, 900);
  assert.match(real, /a capacity factor c = 1\.25 — each rank's send buffer holds/);
  assert.match(real, /Mixtral \(Jiang et al\. 2024\) is dropless/);
  assert.match(page, /Mixtral of experts/, "the paper is in the further reading");
});
