// hardware.test.mjs — one hardware table for the course (web/hardware.js): its datasheet rows are the datasheets'
// numbers (typed here from NVIDIA's A100 and H100 datasheets, not read from the module), every page prices with its
// links, and no page writes an NVLink speed of its own or puts more GPUs on one NVLink domain than it spans.
//   node --test tests/web/hardware.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATASHEET, LINKS, NVLINK_DOMAIN } from "../../web/hardware.js";

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const sameLink = (a, b) => a.alpha === b.alpha && a.beta === b.beta;

test("the datasheet rows: A100 and H100 bf16 peaks, NVLink per direction, NIC per GPU, each with its source", () => {
  assert.deepEqual([DATASHEET.a100.bf16Flops, DATASHEET.a100.nvlinkBytesPerSecond, DATASHEET.a100.nicBytesPerSecond,
    DATASHEET.a100.hbmBytesPerSecond], [312e12, 600e9 / 2, 200e9 / 8, 2039e9]);
  assert.deepEqual([DATASHEET.h100.bf16Flops, DATASHEET.h100.nvlinkBytesPerSecond, DATASHEET.h100.nicBytesPerSecond,
    DATASHEET.h100.hbmBytesPerSecond], [989e12, 900e9 / 2, 400e9 / 8, 3.35e12]);
  for (const row of Object.values(DATASHEET)) {
    assert.match(row.source, /NVIDIA (A100|H100) Tensor Core GPU datasheet, 20\d\d/);
    assert.equal(row.nvlinkDomain, NVLINK_DOMAIN);
  }
  // The links priced with stay within what the datasheets allow.
  assert.ok(LINKS.nvlink.bandwidth <= DATASHEET.a100.nvlinkBytesPerSecond);
  assert.ok(LINKS.nvlinkH100.bandwidth <= DATASHEET.h100.nvlinkBytesPerSecond);
  assert.equal(LINKS.infiniband.bandwidth, DATASHEET.a100.nicBytesPerSecond);
  assert.equal(LINKS.infinibandNDR.bandwidth, DATASHEET.h100.nicBytesPerSecond);
  for (const l of Object.values(LINKS)) assert.equal(l.beta, 1 / l.bandwidth, l.name);
  // Each link says which kind of figure it is, in its field and in the name a page shows.
  assert.equal(LINKS.nvlink.figure, "sustained");
  assert.match(LINKS.nvlink.name, /200 GB\/s sustained/);
  assert.equal(LINKS.nvlinkH100.figure, "datasheet");
  assert.match(LINKS.nvlinkH100.name, /450 GB\/s datasheet/);
  for (const l of Object.values(LINKS)) assert.ok(["sustained", "datasheet"].includes(l.figure), l.name);
  // A control's option shows the shorter label (it must fit a 360 px screen: tests/e2e/reading.test.mjs).
  assert.equal(LINKS.nvlink.label, "NVLink (A100 node), 200 GB/s");
});

// The planner prices with the datasheet rows (its constants were fitted with them): its GPU presets, read from the
// core, are the datasheets' numbers typed above, and its page says so beside the weeks' sustained figure.
test("the planner's GPUs are the datasheet rows, and the planner page names the figure it uses", async () => {
  const { createRequire } = await import("node:module");
  const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
  const { presets } = await import("../../lessons/planner/planner_setup.js");
  const gpu = (name) => presets(core).gpus.find((g) => g.name === name);
  for (const [name, row] of [["a100-80gb", DATASHEET.a100], ["h100-sxm", DATASHEET.h100]]) {
    const g = gpu(name);
    assert.deepEqual([g.peakFlops, g.nvlinkBandwidth, g.networkBandwidth, g.hbmBandwidth],
      [row.bf16Flops, row.nvlinkBytesPerSecond, row.nicBytesPerSecond, row.hbmBytesPerSecond], name);
  }
  assert.deepEqual([gpu("a100-80gb").nvlinkBandwidth, gpu("h100-sxm").nvlinkBandwidth], [300e9, 450e9]);
  const text = read("lessons/planner/index.html").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  assert.match(text, /prices NVLink and the network at the datasheet figures .*NVLink 300 GB\/s per direction on an A100 and 450 GB\/s on an H100/);
  assert.match(text, /sustained 200 GB\/s/);
});

test("every week prices on the table's links", async () => {
  const lab = await import("../../web/lab_example.js");
  assert.ok(sameLink(lab.NVLINK, LINKS.nvlink) && sameLink(lab.INFINIBAND, LINKS.infiniband), "the lab and Week 3 §7–8");
  const week3 = await import("../../lessons/week3/ddp_setup.js");
  assert.ok(sameLink(week3.EXAMPLE, LINKS.nvlink), "Week 3's worked example");
  const overlap = await import("../../lessons/week3/overlap_setup.js");
  assert.ok(sameLink(overlap.LINK_CHOICES.nvlink, LINKS.nvlink) && sameLink(overlap.LINK_CHOICES.ib, LINKS.infiniband));
  const week5 = await import("../../lessons/week5/scale_setup.js");
  assert.ok(sameLink(week5.NVLINK, LINKS.nvlink) && sameLink(week5.NETWORK, LINKS.infiniband), "Week 5's TP and MoE");
  const week6 = await import("../../lessons/week6/compression_setup.js");
  assert.ok(sameLink(week6.NETWORKS.infiniband.network, LINKS.infiniband), "Week 6's compression pricing");
  const capstone = await import("../../lessons/week6/capstone_setup.js");
  assert.ok(sameLink(capstone.HARDWARE.network, LINKS.infiniband), "the capstone");
});

test("a ring past one NVLink domain runs at the network's pace (Week 3's pricing), and no page says otherwise", async () => {
  const { linkAt } = await import("../../lessons/week3/scaling_setup.js");
  assert.ok(sameLink(linkAt("nodes", 8), LINKS.nvlink));
  assert.ok(sameLink(linkAt("nodes", 16), LINKS.infiniband) && sameLink(linkAt("nodes", 64), LINKS.infiniband));
  assert.ok(sameLink(linkAt("nodes-ndr", 64), LINKS.infinibandNDR));
  const pages = ["week1", "week2", "week3", "week4", "week5", "week6", "lab"].map((w) => [w, read(`lessons/${w}/index.html`)
    .replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")]);
  const allowed = new Set([LINKS.nvlink.bandwidth, LINKS.nvlinkH100.bandwidth, DATASHEET.a100.nvlinkBytesPerSecond].map((b) => b / 1e9));
  for (const [week, text] of pages) {
    for (const m of text.matchAll(/NVLink[^.;]{0,60}?(\d[\d.]*) GB\/s/g)) {
      if (/InfiniBand/.test(m[0])) continue;   // "NVLink … and the nodes by InfiniBand at 25 GB/s"
      assert.ok(allowed.has(Number(m[1])), `${week}: "${m[0]}" — NVLink speeds come from web/hardware.js`);
    }
    assert.doesNotMatch(text, /(64|128|256) GPUs (are |all )?(linked|joined) by NVLink/, `${week}: an NVLink domain spans ${NVLINK_DOMAIN} GPUs`);
  }
  const { strong64 } = await import("../../lessons/week3/exercises/scaling_numeric.js");
  assert.match(strong64.prompt({ network: "nodes", batch: 8192 }), /The 64 GPUs are 8 nodes of 8/);
});
