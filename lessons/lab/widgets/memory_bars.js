// memory_bars.js — widget "memory": the bytes one rank holds — parameters, gradients, optimizer state,
// activations — under every strategy, as stacked bars with the 80 GB of one GPU (core.stepCost's
// memoryPerRank, the busiest rank; step_cost_memory.cpp has the conventions).
//
// Real model sizes: the binding prices lab-sized models only (layers·width·hidden ≤ 1e8), so a larger model
// (L, D, F) is priced as (L, D/k, F/k) and scaled back — exactly, because step_cost_memory.cpp counts model
// states as multiples of D·F (× k²) and activations as multiples of D + F (× k).
import { Chart } from "../../web/vendor/chart.js";
import { describeChart } from "../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../web/ui/controls.js";
import { cssVar } from "../../web/ui/theme.js";
import { formatBytes } from "../../web/units.js";
import { BATCH, GPU_MEMORY, gridFor, MIXED, FLOPS, NVLINK, strategyName } from "./presets.js";

// [key, label, model, k]: ~Ψ = 2·L·D·F in the label.
const MODELS = [
  ["small", "134 M: the running example", { layers: 16, width: 1024, hidden: 4096 }, 1],
  ["2b", "1.7 B: L 32, D 2560, F 10240", { layers: 32, width: 2560, hidden: 10240 }, 4],
  ["8b", "8.4 B: L 40, D 5120, F 20480", { layers: 40, width: 5120, hidden: 20480 }, 8],
  ["38b", "37.6 B: L 80, D 8192, F 28672", { layers: 80, width: 8192, hidden: 28672 }, 16],
];
const SHOWN = ["single", "dp", "zero1", "zero2", "zero3", "tp", "pp-gpipe", "pp-1f1b", "fsdp-tp"];
const PARTS = [["params", "parameters"], ["grads", "gradients"], ["optimizer", "optimizer state"], ["activations", "activations"]];

/** The busiest rank's memory for `strategy` on n GPUs, or null if the grid does not fit the model. */
export function rankMemory(core, strategy, n, [, , model, k], recompute = false) {
  const grid = gridFor(strategy, strategy === "single" ? 1 : n, 8);
  const small = { layers: model.layers, width: model.width / k, hidden: model.hidden / k };
  try {
    const r = core.stepCost({ strategy, grid, model: small, batch: BATCH, microBatches: strategy.startsWith("pp-") ? Math.min(BATCH, 4 * grid.pp) : 1,
      flops: FLOPS, ...NVLINK, ...MIXED, recompute });
    const worst = r.memoryPerRank.reduce((a, b) => (b.total > a.total ? b : a));
    return { params: worst.params * k * k, grads: worst.grads * k * k, optimizer: worst.optimizer * k * k, activations: worst.activations * k };
  } catch {
    return null;  // e.g. more pipeline stages than blocks
  }
}

export function mountMemoryBars(figure, core) {
  const size = select({ label: "Model", value: "8b", options: MODELS.map(([k, text]) => [k, text]), onChange: draw });
  const n = slider({ label: "GPUs", min: 1, max: 6, step: 1, value: 3, format: (k) => String(2 ** k), onInput: draw });
  const recompute = select({ label: "Activations", value: "keep", onChange: draw,
    options: [["keep", "keep x and H per block"], ["recompute", "recompute H (keep x only)"]] });
  controlRow(figure, size, n, recompute);
  const out = readout(figure);
  const canvas = chartBox(figure, "Stacked bars: memory per GPU for each strategy, split into parameters, gradients, optimizer state and activations, with the 80 GB line");
  const palette = () => ({ series: [1, 2, 3, 4].map((i) => cssVar(`--chart-${i}`)), fg: cssVar("--fg"), muted: cssVar("--muted"), grid: cssVar("--grid"), line: cssVar("--fail") });
  const p0 = palette();
  const chart = new Chart(canvas, {
    type: "bar",
    data: { labels: [], datasets: [] },
    options: {
      responsive: true, maintainAspectRatio: false, animation: { duration: 0 },
      scales: {
        x: { stacked: true, ticks: { color: p0.muted, font: { size: 11 }, autoSkip: false, maxRotation: 60 }, grid: { display: false }, border: { color: p0.muted } },
        y: { stacked: true, title: { display: true, text: "GB per GPU", color: p0.fg }, ticks: { color: p0.muted }, grid: { color: p0.grid }, border: { color: p0.muted } },
      },
      plugins: {
        legend: { labels: { color: p0.fg, boxWidth: 14, font: { size: 12 } } },
        tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${formatBytes(c.parsed.y * 1e9)}` } },
      },
    },
  });
  const style = (p) => {
    chart.data.datasets.forEach((d, i) => {
      const c = d.type === "line" ? p.line : p.series[i];
      Object.assign(d, { backgroundColor: c, borderColor: d.type === "line" ? c : p.fg, borderWidth: d.type === "line" ? 2 : 0.5 });
    });
    const o = chart.options;
    for (const s of [o.scales.x, o.scales.y]) { s.ticks.color = p.muted; s.border.color = p.muted; }
    o.scales.y.grid.color = p.grid; o.scales.y.title.color = p.fg; o.plugins.legend.labels.color = p.fg;
  };
  document.addEventListener("dsml-theme", () => { style(palette()); chart.update("none"); });

  function draw() {
    const preset = MODELS.find(([k]) => k === size.value), gpus = 2 ** Math.round(n.value);
    const rows = SHOWN.map((s) => [s, rankMemory(core, s, gpus, preset, recompute.value === "recompute")]);
    const ok = rows.filter(([, m]) => m);
    const labels = ok.map(([s]) => (s === "single" ? "1 GPU" : strategyName(s).replace(/ \(.*\)|, one all-reduce per tensor/, "")));
    chart.data.labels = labels;
    chart.data.datasets = [
      ...PARTS.map(([k, name]) => ({ label: name, data: ok.map(([, m]) => m[k] / 1e9), stack: "m" })),
      { type: "line", label: "80 GB (one GPU)", data: ok.map(() => GPU_MEMORY / 1e9), borderDash: [6, 4], pointRadius: 0, fill: false },
    ];
    style(palette());
    chart.update();
    const total = (m) => m.params + m.grads + m.optimizer + m.activations;
    const fits = ok.filter(([s, m]) => s !== "single" && total(m) <= GPU_MEMORY).map(([s]) => strategyName(s));
    const skipped = rows.filter(([, m]) => !m).map(([s]) => strategyName(s));
    out.innerHTML = `${preset[1]}, ${gpus} GPUs, B = ${BATCH} rows: one GPU alone would need <strong>${formatBytes(total(ok[0][1]))}</strong>. ` +
      (fits.length ? `Under 80 GB per GPU: ${fits.join(", ")}.` : "No strategy fits in 80 GB per GPU at this size.") +
      (skipped.length ? ` Not possible here: ${skipped.join(", ")} (the blocks or the batch do not divide evenly among the stages).` : "");
    describeChart(figure, `Memory of the busiest GPU per strategy. Data parallelism replicates everything; ZeRO shards optimizer state, then gradients, then parameters over ${gpus} GPUs; TP and PP split the model ${gpus} ways but also its activations differently.`,
      [["strategy", ...PARTS.map(([, name]) => `${name} (GB)`), "total (GB)"],
        ...ok.map(([s, m]) => [strategyName(s), ...PARTS.map(([k]) => m[k] / 1e9), total(m) / 1e9])]);
  }
  draw();
}
