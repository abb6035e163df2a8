// fsdp_prefetch.js — widget "fsdp-prefetch" (section #zero): one ZeRO-3 / FSDP step priced by core.stepCost on N GPUs,
// with every block's parameter all-gather issued just before the block computes (no prefetch) and one block ahead
// on a second stream (prefetch, overlap: true) — the two timelines on one time axis, and step time against the
// tokens each GPU processes: prefetch hides the all-gathers once a block's compute outlasts its all-gather.
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatBytes, formatCount, formatPercent, formatSeconds } from "../../../web/units.js";
import { renderPhases } from "../../../web/ui/phase_timeline.js";
import { LINKS as COURSE_LINKS } from "../../../web/hardware.js";

// A 4.3B-parameter stack of MLP blocks (32 × 2·4096·16384), bf16, at 150 TFLOP/s sustained per GPU.
const MODEL = Object.freeze({ layers: 32, width: 4096, hidden: 16384, activation: "gelu" });
const FLOPS = 150e12;
// The course's links (web/hardware.js).
const LINKS = { nvlink: COURSE_LINKS.nvlink, ib: COURSE_LINKS.infiniband, ethernet: COURSE_LINKS.ethernet };
const TOKENS = Array.from({ length: 13 }, (_, i) => Math.round(256 * 2 ** (i / 2)));   // 256 … 16 384 per GPU

// One step of FSDP on `gpus` GPUs, `tokens` rows per GPU, without and with prefetch.
export function priceFsdpStep(core, { gpus, tokens, link }) {
  const request = { strategy: "zero3", grid: { dp: gpus }, model: MODEL, batch: tokens * gpus, flops: FLOPS,
    alpha: link.alpha, beta: link.beta, elementBytes: 2 };
  return { serial: core.stepCost({ ...request, overlap: false }), prefetch: core.stepCost({ ...request, overlap: true }) };
}

export function mountFsdpPrefetch(figure, core) {
  const link = select({ label: "Link", value: "ib", options: Object.entries(LINKS).map(([k, l]) => [k, l.label]), onChange: draw });
  const gpus = select({ label: "GPUs N", value: "64", options: [8, 64, 512].map((n) => [String(n), String(n)]), onChange: draw });
  const tokens = slider({ label: "Tokens per GPU", min: 0, max: TOKENS.length - 1, step: 1, value: 6,   // 2048
    format: (i) => formatCount(TOKENS[i]), onInput: draw });
  controlRow(figure, link, gpus, tokens);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "FSDP step time against tokens per GPU, with and without prefetch"),
    { xLabel: "tokens per GPU", yLabel: "step time (s)", logX: true, logY: true, datasets: [] });
  const lanes = document.createElement("div");
  chart.chart.canvas.parentElement.after(lanes);

  function draw() {
    const l = LINKS[link.value], n = Number(gpus.value);
    const curve = TOKENS.map((t) => ({ t, r: priceFsdpStep(core, { gpus: n, tokens: t, link: l }) }));
    chart.update({ datasets: [
      { label: "no prefetch", data: curve.map(({ t, r }) => ({ x: t, y: r.serial.total })) },
      { label: "prefetch one block ahead", data: curve.map(({ t, r }) => ({ x: t, y: r.prefetch.total })) },
      { label: "compute alone", dashed: true, data: curve.map(({ t, r }) => ({ x: t, y: r.prefetch.compute })) },
    ], verticalLines: [{ x: TOKENS[tokens.value], label: formatCount(TOKENS[tokens.value]) }] });

    const perGpu = TOKENS[tokens.value];
    const now = priceFsdpStep(core, { gpus: n, tokens: perGpu, link: l });
    const comm = Object.values(now.serial.comm).reduce((a, b) => a + b, 0);
    const exposed = now.prefetch.total - now.prefetch.compute;
    const hiddenFrom = curve.find(({ r }) => r.prefetch.total - r.prefetch.compute < 0.1 * r.prefetch.total);
    out.textContent = `${formatCount(perGpu)} tokens per GPU on ${n} GPUs over ${l.name}: compute ` +
      `${formatSeconds(now.serial.compute)}, all-gathers and reduce-scatters ${formatSeconds(comm)}. No prefetch: ` +
      `${formatSeconds(now.serial.total)} a step; prefetch: ${formatSeconds(now.prefetch.total)}, of which ` +
      `${formatSeconds(exposed)} (${formatPercent(exposed / now.prefetch.total, { decimals: 0 })}) is communication ` +
      `still exposed. ` + (hiddenFrom ? `Below 10% exposed from about ${formatCount(hiddenFrom.t)} tokens per GPU.`
        : `Even at ${formatCount(TOKENS.at(-1))} tokens per GPU more than 10% stays exposed on this link.`);
    describeChart(figure, `Prefetch brings the step from ${formatSeconds(now.serial.total)} to ${formatSeconds(now.prefetch.total)} ` +
      `at ${formatCount(perGpu)} tokens per GPU; compute alone is ${formatSeconds(now.prefetch.compute)}.`,
      [["tokens per GPU", "no prefetch", "prefetch", "compute"], ...curve.map(({ t, r }) =>
        [formatCount(t), formatSeconds(r.serial.total), formatSeconds(r.prefetch.total), formatSeconds(r.prefetch.compute)])]);

    const lane = (spans, offset) => spans.filter((s) => s.rank === 0).map((s) => ({ ...s, rank: offset + (s.stream === "comm" ? 1 : 0),
      kind: s.stream === "comm" ? s.kind : "compute", label: s.label ?? s.kind }));
    renderPhases(lanes, [...lane(now.serial.spans, 0), ...lane(now.prefetch.spans, 2)], { ranks: 4, fillIdle: false,
      rowLabel: (r) => ["serial", "  comm", "prefetch", "  comm"][r],
      title: `GPU 0's step, ${formatBytes(2 * 2 * MODEL.width * MODEL.hidden)} gathered a block`,
      note: "Top: each all-gather waits for the block before it. Bottom: the next block's all-gather runs during this block's compute." });
  }
  draw();
}
