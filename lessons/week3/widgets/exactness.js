// exactness.js — widgets "exactness" (section #exactness) and "unequal" (section #unequal-shards): the teacher task's full-batch gradient
// against the mean, the sum and the row-weighted mean of its shards' gradients (programs/shard_gradients.js: the
// trainer's own forward and backward, fp64), and what a forgotten 1/P does to one SGD and one Adam step.
import { controlRow, readout, select, slider, tableScroll } from "../../../web/ui/controls.js";
import { formatNumber, formatPercent, formatRatio, plural } from "../../../web/units.js";
import { EXACT_BATCH, shardExperiment, sumVersusMean } from "../programs/shard_gradients.js";

const num = (x) => formatNumber(x, { digits: 2 });

function table(rows) {
  const t = document.createElement("table");
  t.className = "compact";
  const [head, ...body] = rows;
  t.innerHTML = `<thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead>` +
    `<tbody>${body.map((r) => `<tr><th scope="row">${r[0]}</th>${r.slice(1).map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody>`;
  return t;
}

export function mountExactness(figure, core) {
  const P = slider({ label: "Shards P", min: 1, max: 8, step: 1, value: 8, onInput: draw });
  controlRow(figure, P);
  const out = readout(figure);
  const box = tableScroll(out);
  function draw() {
    const p = Math.round(P.value), rows = EXACT_BATCH / p;
    const r = shardExperiment(core, Array.from({ length: p }, () => rows));
    const sgd = sumVersusMean(core, { kind: "sgd", lr: 0.1 }, r.full, p);
    const adam = sumVersusMean(core, { kind: "adam", lr: 1e-3 }, r.full, p);
    out.textContent = `${plural(p, "shard")} of ${rows} rows: the mean of their gradients differs from the full-batch ` +
      `gradient by at most ${num(r.mean.max)} in any of its values (fp64 rounding). Summed instead of averaged, the ` +
      `gradient is ${formatRatio(1 + r.sum.relative, { decimals: 0 })} too large; one SGD step from the same weights is ` +
      `${formatRatio(sgd.ratio, { decimals: 2 })} as long, one Adam step differs by ${formatPercent(adam.relative, { digits: 2 })}.`;
    box.replaceChildren(table([
      ["Combined as", "max |Δ|", "‖Δ‖ / ‖full‖"],
      ["mean (÷ P)", num(r.mean.max), num(r.mean.relative)],
      ["sum (no ÷ P)", num(r.sum.max), num(r.sum.relative)],
    ]));
  }
  draw();
}

const SPLITS = [
  ["8,8,8,8", "equal: 8, 8, 8, 8"], ["2,6,10,14", "2, 6, 10, 14"], ["1,1,1,29", "1, 1, 1, 29"],
  ["20,4,4,4", "20, 4, 4, 4"], ["3,5,7,9,11,13,15,17", "8 shards: 3, 5, … 17"],
];

export function mountUnequal(figure, core) {
  const split = select({ label: "Rows per shard", value: "2,6,10,14", options: SPLITS, onChange: draw });
  controlRow(figure, split);
  const out = readout(figure);
  const box = tableScroll(out);
  function draw() {
    const shards = split.value.split(",").map(Number);
    const r = shardExperiment(core, shards);
    const B = shards.reduce((a, b) => a + b, 0);
    out.textContent = `${plural(shards.length, "shard")}, ${B} rows in all. The plain mean of the shards' gradients ` +
      `misses the full-batch gradient by ${formatPercent(r.mean.relative, { digits: 2 })} (relative); weighted by rows, ` +
      `by ${num(r.weighted.relative)} — rounding.` + (new Set(shards).size === 1 ? " With equal shards the two are the same." : "");
    box.replaceChildren(table([
      ["Combined as", "max |Δ|", "‖Δ‖ / ‖full‖"],
      ["plain mean (1/P)·Σ g_d", num(r.mean.max), num(r.mean.relative)],
      ["weighted Σ b_d·g_d / Σ b_d", num(r.weighted.max), num(r.weighted.relative)],
    ]));
  }
  draw();
}
