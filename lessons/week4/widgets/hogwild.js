// hogwild.js — widget "hogwild": lock-free SGD by T ∈ {1, 4, 16} threads on sparse least squares (n = 1000 features,
// each example touching k = sparsity·n of them), as the core's Hogwild! simulation runs it (ps_setup.hogwildGrid →
// core.hogwild, three runs in a Worker): loss against updates, the measured collision rate against
// 1 − q^(T−1), q = C(n−k, k)/C(n, k), and the writes lost without atomic adds.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatCount, formatNumber, formatPercent } from "../../../web/units.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";

const tasks = coreTasks(new URL("../ps_setup.js", import.meta.url));   // its long runs, in a Worker

export function mountHogwild(figure) {
  const sparsity = slider({ label: "Sparsity k/n", min: 0.001, max: 0.1, value: 0.01, log: true,
    format: (v) => `${formatNumber(v, 2)} (k = ${Math.max(1, Math.round(v * 1000))})`, onInput: draw });
  const atomic = select({ label: "Writes", options: [["atomic", "atomic adds (Hogwild!)"], ["plain", "plain read-modify-write"]],
    value: "atomic", onChange: draw });
  controlRow(figure, sparsity, atomic);
  const out = readout(figure);
  const canvas = chartBox(figure, "Held-out loss against updates for 1, 4 and 16 threads");
  const chart = createLineChart(canvas, { xLabel: "updates (all threads)", yLabel: "held-out MSE", logY: true, datasets: [],
    empty: "Running three simulations…" });
  const table = document.createElement("div");
  table.className = "table-scroll";
  figure.append(table);

  async function draw() {
    const runs = await latestDraw(tasks, figure, out, {}, "hogwildGrid", { sparsity: sparsity.value, atomic: atomic.value === "atomic" });
    if (!runs) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    chart.update({ datasets: runs.map((r) => ({ label: `T = ${r.threads}`, data: [...r.loss].map((l, i) => ({ x: r.lossUpdates[i], y: l })) })) });
    const rows = [["threads T", "measured collisions", "predicted 1 − q^(T−1)", "lost writes", "final MSE"],
      ...runs.map((r) => [String(r.threads), formatPercent(r.collisionRate, { decimals: 1 }), formatPercent(r.predicted, { decimals: 1 }),
        formatCount(r.lostWrites), formatNumber(r.finalLoss)])];
    table.innerHTML = `<table><caption>Collisions, lost writes and final loss</caption><thead><tr>${rows[0].map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead>
      <tbody>${rows.slice(1).map((row) => `<tr>${row.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
    const t16 = runs[runs.length - 1];
    out.innerHTML = `k = ${t16.support} of 1000 features: with 16 threads ${formatPercent(t16.collisionRate, { decimals: 1 })} of
      updates overlap another's support (predicted ${formatPercent(t16.predicted, { decimals: 1 })}), and the final loss is
      ${formatNumber(t16.finalLoss)} against ${formatNumber(runs[0].finalLoss)} for one thread${atomic.value === "atomic" ? " — the curves lie on each other" : `, with ${formatCount(t16.lostWrites)} writes lost`}.`;
    describeChart(figure, `Loss curves of 1, 4 and 16 threads; the table gives collisions, lost writes and final losses.`);
  }
  draw();
}
