// attention.js — widget "attention": one layer's attention core on one GPU, fused (FlashAttention: Dao et al. 2022,
// FlashAttention-2, Dao 2023) beside unfused (Megatron 2021: the s×s scores through HBM), for sequences of 512 to
// 131 072 tokens. Two log–log charts, both core.attentionCost (dsml/planner.h attention_cost) for the model, GPU,
// t and b the learner picks: the time of forward + backward for one micro-batch, and the bytes the kernel keeps for
// backward beside the GPU's memory. A readout at the model's own sequence; the data of both charts as one table.
import { formatBytes, formatCount, formatPercent, formatRatio, formatSeconds } from "../../../web/units.js";
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { attentionAt, presets } from "../planner_setup.js";

export const SEQUENCES = Array.from({ length: 9 }, (_, i) => 512 * 2 ** i);   // 512 … 131 072 tokens
const KERNELS = [["fused", "fused (FlashAttention)"], ["unfused", "unfused (scores in HBM)"]];

// Both kernels at every sequence: [{ s, fused, unfused }], each a core.attentionCost answer (null where refused).
export function attentionCurves(core, settings) {
  const at = (s, kernel) => {
    try {
      return attentionAt(core, { ...settings, s, kernel });
    } catch {
      return null;   // a shape the core refuses (heads not divisible by t): no point
    }
  };
  return SEQUENCES.map((s) => ({ s, fused: at(s, "fused"), unfused: at(s, "unfused") }));
}
const seconds = (r) => (r ? r.forwardSeconds + r.backwardSeconds : null);
// Log-axis ticks: the decades only, in the quantity's unit.
const decades = (format) => (v) => (Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9 ? format(v) : "");

export function mountAttention(figure, core) {
  const all = presets(core);
  const s = { model: "llama3-8b", gpu: "h100-sxm", t: 1, b: 1 };
  if (!all.models.some((m) => m.name === s.model)) s.model = all.models[0].name;
  const change = (key) => (value) => { s[key] = key === "t" || key === "b" ? Number(value) : value; draw(); };
  const controls = [
    select({ label: "Model", options: all.models.map((m) => [m.name, m.name]), value: s.model, onChange: change("model") }),
    select({ label: "GPU", options: all.gpus.map((g) => [g.name, g.name]), value: s.gpu, onChange: change("gpu") }),
    select({ label: "Tensor t", options: [1, 2, 4, 8].map((x) => [String(x), String(x)]), value: "1", onChange: change("t") }),
    select({ label: "Micro-batch b", options: [1, 2, 4, 8].map((x) => [String(x), String(x)]), value: "1", onChange: change("b") }),
  ];
  controlRow(figure, ...controls);
  const out = readout(figure);
  out.setAttribute("data-out", "attention");
  const timeChart = createLineChart(chartBox(figure, "Attention time per layer against the sequence length, fused and unfused, log–log"),
    { xLabel: "sequence s (tokens)", yLabel: "forward + backward per layer", logX: true, logY: true,
      yTicks: decades(formatSeconds), datasets: [] });
  const memoryChart = createLineChart(chartBox(figure, "Attention memory kept for backward per layer against the sequence length, fused and unfused, log–log"),
    { xLabel: "sequence s (tokens)", yLabel: "kept for backward per layer", logX: true, logY: true,
      yTicks: decades(formatBytes), datasets: [] });

  function draw() {
    const model = all.models.find((m) => m.name === s.model);
    const gpu = all.gpus.find((g) => g.name === s.gpu);
    const curves = attentionCurves(core, s);
    const series = (pick) => KERNELS.map(([k, label]) => ({ label,
      data: curves.filter((c) => c[k]).map((c) => ({ x: c.s, y: pick(c[k]) })), points: true }));
    const own = { x: model.sequence, label: `${s.model}: s = ${formatCount(model.sequence)}` };
    timeChart.update({ datasets: series(seconds), verticalLines: [own] });
    const capacity = { label: `${s.gpu} memory, ${formatBytes(gpu.hbmBytes)}`, dashed: true, colorIndex: 3,
      data: [{ x: SEQUENCES[0], y: gpu.hbmBytes }, { x: SEQUENCES.at(-1), y: gpu.hbmBytes }] };
    memoryChart.update({ datasets: [...series((r) => r.activationBytes), capacity], verticalLines: [own] });

    let here;
    try {
      here = { fused: attentionAt(core, { ...s, s: model.sequence, kernel: "fused" }),
        unfused: attentionAt(core, { ...s, s: model.sequence, kernel: "unfused" }) };
    } catch (e) {
      out.textContent = `Not a shape the core prices: ${e.message}.`;
      describeChart(figure, out.textContent);
      return;
    }
    const over = curves.find((c) => c.unfused && c.unfused.activationBytes > gpu.hbmBytes);
    out.textContent = `At ${s.model}'s own sequence of ${formatCount(model.sequence)} tokens on ${s.gpu} (t = ${s.t},
      b = ${s.b}), one layer's attention takes ${formatSeconds(seconds(here.fused))} fused and
      ${formatSeconds(seconds(here.unfused))} unfused (${formatRatio(seconds(here.unfused) / seconds(here.fused))}), and
      keeps ${formatBytes(here.fused.activationBytes)} fused against ${formatBytes(here.unfused.activationBytes)} unfused
      for backward. The fused kernel runs ${formatPercent(here.fused.forwardFlops / here.fused.countedFlops, { digits: 2 })}
      of the forward FLOPs MFU counts (the causal blocks above the diagonal skipped). ${over ? `Unfused, one layer's scores alone
      outgrow the GPU's ${formatBytes(gpu.hbmBytes)} from s = ${formatCount(over.s)}.` : ""}`.replace(/\s+/g, " ").trim();
    const last = curves.at(-1);
    const ratio = (k, f) => formatRatio(f(last[k]) / f(curves[0][k]));
    describeChart(figure, `From ${formatCount(curves[0].s)} to ${formatCount(last.s)} tokens (${formatRatio(last.s / curves[0].s)}
      the sequence), one layer's attention time grows ${ratio("fused", seconds)} fused and ${ratio("unfused", seconds)}
      unfused; what it keeps for backward grows ${ratio("fused", (r) => r.activationBytes)} fused (linear in s) and
      ${ratio("unfused", (r) => r.activationBytes)} unfused (as s²), to ${formatBytes(last.fused.activationBytes)}
      against ${formatBytes(last.unfused.activationBytes)}.`.replace(/\s+/g, " "), [
      ["sequence s", "fused time", "unfused time", "fused kept", "unfused kept"],
      ...curves.map((c) => [c.s, c.fused ? formatSeconds(seconds(c.fused)) : "—",
        c.unfused ? formatSeconds(seconds(c.unfused)) : "—",
        c.fused ? formatBytes(c.fused.activationBytes) : "—", c.unfused ? formatBytes(c.unfused.activationBytes) : "—"]),
    ]);
  }
  draw();
}
