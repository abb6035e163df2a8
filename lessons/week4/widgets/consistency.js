// consistency.js — widget "consistency": one concrete interleaving (drawn by interleaving.js) — three workers (mean speeds 1, 1, 2.5) running
// five clocks with no waiting, as the core's parameter server simulates it (ps_setup.consistencyReads → core.
// simulateParamServer, under a millisecond) — and, for the consistency model the learner picks, which of worker 0's
// reads it allows, which it forbids and how long a forbidden one would have had to wait; below, what enforcing the
// model costs the whole run (the same workers under BSP, SSP(1), ASP). The models are clock bounds (ps_setup.MODELS).
import { drawInterleaving } from "./interleaving.js";
import { recordRun } from "../../../web/lesson/core_tasks.js";
import { controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatPercent, formatSeconds } from "../../../web/units.js";
import { MODELS, consistencyReads } from "../ps_setup.js";

const RULE = {
  bsp: "a read before clock c must see clock c − 1 of every worker: the barrier. (Sequential consistency alone would " +
    "allow every read here: it orders operations, and a read that misses a write can be ordered before it.)",
  bounded: "a read before clock c must see clocks up to c − 1 − s of every worker: no more than s clocks missing.",
  eventual: "any read is allowed; a write is only promised to reach everyone eventually (here: by the end).",
  ryw: "a worker must see its own writes: a read right after pushing clock c − 1 must already include it.",
};

export function mountConsistency(figure, core) {
  const model = select({ label: "Consistency model", options: Object.entries(MODELS).map(([k, m]) => [k, m.name]), value: "bsp", onChange: draw });
  controlRow(figure, model);
  const box = document.createElement("div");
  figure.append(box);
  const rule = document.createElement("p");
  figure.append(rule);
  const tableBox = document.createElement("div");
  tableBox.className = "table-scroll";
  figure.append(tableBox);
  const out = readout(figure);
  const started = performance.now();
  const { run, reads, writes, costs } = consistencyReads(core);
  recordRun(figure, started);

  function draw() {
    const key = model.value;
    drawInterleaving(box, { run, writes, reads, key });
    const head = ["worker 0's read", "clocks seen of workers 0, 1, 2", "verdict"];
    const rows = reads.map((r) => {
      const v = r.verdicts[key];
      return [`before clock ${r.clock} (${formatSeconds(r.time)})${key === "ryw" ? ", right after its push" : ""}`, v.seen.join(", "),
        v.allowed ? "allowed" : `<strong>forbidden</strong>: waits ${formatSeconds(v.wait)}`];
    });
    rule.innerHTML = `<strong>${MODELS[key].name}</strong>: ${RULE[key]}`;
    tableBox.innerHTML = `<table><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${
      rows.map((row) => `<tr>${row.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
    const cost = costs[key];
    const forbidden = reads.filter((r) => !r.verdicts[key].allowed).length;
    out.innerHTML = `${MODELS[key].name} forbids ${forbidden} of worker 0's ${reads.length} reads in this interleaving. ` +
      (key === "ryw" ? `Each costs one round trip to the server (${formatSeconds(reads[0].verdicts.ryw.wait)}), or nothing if the worker applies its own update to its copy.`
        : `Enforcing it on the whole run: the workers wait ${formatPercent(cost.stallFraction, { decimals: 0 })} of their time ` +
          `(fast workers ${formatSeconds(cost.waitSeconds[0])} each).`);
  }
  draw();
}
