// step_timeline.js — widget "timeline": one training step of the running model (presets.js) priced by
// core.stepCost for a strategy, a number of GPUs and a kind of link, drawn phase by phase (phase_timeline.js).
// Closed form, no overlap of compute and communication (step_cost.h): every phase waits for the one before.
import { controlRow, readout, select, slider } from "../../web/ui/controls.js";
import { formatBytes, formatPercent, formatRate, formatRatio, formatSeconds } from "../../web/units.js";
import { renderPhases } from "./phase_timeline.js";
import { FLOPS, LINKS, MODEL, BATCH, STRATEGIES, gridFor, priceStep, strategyName } from "./presets.js";

const pct = (x) => formatPercent(x, { decimals: 0 });

export function mountStepTimeline(figure, core, { strategy = "dp-bucketed", gpus = 8, link = "nvlink", microBatches = 32 } = {}) {
  const strat = select({ label: "Strategy", value: strategy, options: STRATEGIES.filter(([k]) => k !== "single"), onChange: draw });
  const n = slider({ label: "GPUs", min: 1, max: 6, step: 1, value: Math.log2(gpus), format: (k) => String(2 ** k), onInput: draw });
  const net = select({ label: "Link", value: link, options: Object.entries(LINKS).map(([k, l]) => [k, l.name]), onChange: draw });
  const m = slider({ label: "Micro-batches m (pipelines)", min: 0, max: 7, step: 1, value: Math.log2(microBatches), format: (k) => String(2 ** k), onInput: draw });
  const tpWidth = slider({ label: "TP group size (FSDP + TP)", min: 1, max: 3, step: 1, value: 3, format: (k) => String(2 ** k), onInput: draw });
  controlRow(figure, strat, n, net, m, tpWidth);
  const out = readout(figure);
  const box = document.createElement("div");
  box.className = "timeline";
  out.after(box);

  function draw() {
    const s = strat.value, gpuCount = 2 ** Math.round(n.value), l = LINKS[net.value];
    const micro = 2 ** Math.round(m.value), t = 2 ** Math.round(tpWidth.value);
    m.input.disabled = !s.startsWith("pp-");
    tpWidth.input.disabled = s !== "fsdp-tp";
    try {
      const r = priceStep(core, { strategy: s, n: gpuCount, link: l, microBatches: micro, tp: t });
      const one = priceStep(core, { strategy: "single", n: 1 });
      const grid = gridFor(s, gpuCount, t);
      const comm = Object.values(r.comm).reduce((a, b) => a + b, 0);
      const pipeline = s.startsWith("pp-");
      // Every rank of a non-pipeline strategy runs the same timeline: draw two, say so.
      const rows = pipeline ? gpuCount : Math.min(gpuCount, 2);
      const mem = Math.max(...r.memoryPerRank.map((x) => x.total));
      out.innerHTML = `${strategyName(s)} on ${gpuCount} GPUs (dp ${grid.dp} × tp ${grid.tp} × pp ${grid.pp}) over ${l.name} (α = ${formatSeconds(l.alpha)}, ${formatRate(1 / l.beta)} per GPU, ${FLOPS / 1e12} TFLOP/s): ` +
        `step <strong>${formatSeconds(r.total)}</strong> — compute ${formatSeconds(r.compute)} (${pct(r.compute / r.total)}), ` +
        `communication ${formatSeconds(comm)} (${pct(comm / r.total)})${pipeline ? `, bubble ${formatSeconds(r.bubble)} (${pct(r.bubble / r.total)})` : ""}. ` +
        // Two significant figures: the price assumes the hardware and no overlap, so more would be false precision.
        `Speed-up over one GPU: about ${formatRatio(one.total / r.total, 2)}. Most memory on a rank: ${formatBytes(mem)}.`;
      renderPhases(box, r.spans, { ranks: rows, rowLabel: (row) => (pipeline ? `stage ${row}` : `rank ${row}`),
        title: `${strategyName(s)}, ${gpuCount} GPUs: one step`,
        note: pipeline ? "" : `All ${gpuCount} ranks run the same timeline; ${rows === 1 ? "one is" : "two are"} drawn.` });
    } catch (err) {
      out.textContent = `${err.message}. (The running model has L = ${MODEL.layers} blocks and F = ${MODEL.hidden}; ` +
        `B = ${BATCH} rows must divide by dp and by m; at ${FLOPS / 1e12} TFLOP/s.)`;
      box.replaceChildren();
    }
  }
  draw();
}
