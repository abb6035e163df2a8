// partial_overlap.js — widget "partial-overlap" (section #partial-overlap): a step of compute C plus the communication M that
// is not hidden, T(o) = C + (1 − o)·M, against the overlap fraction o (overlap_setup.js, through core.stepTime), for
// the worked example on a link the learner picks — and the o that bucketed DDP achieves at a bucket size, read off
// the core's priced step (core.stepCost with overlap), marked on the same line. o cannot pass min(1, C/M): the line
// stops there.
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatBytes, formatNumber, formatSeconds } from "../../../web/units.js";
import { LINKS } from "./ddp_price.js";
import { maxOverlap, measuredOverlap, partialStep } from "../overlap_setup.js";

const STEPS = 40;   // points on the T(o) line

export function mountPartialOverlap(figure, core) {
  const link = select({ label: "Link", value: "nvlink", options: Object.entries(LINKS).map(([k, l]) => [k, l.label]), onChange: draw });
  const bucket = slider({ label: "Bucket size", min: 2e6, max: 1e9, log: true, value: 25 * 2 ** 20, snap: [25 * 2 ** 20, 4e8], format: formatBytes, onInput: draw });
  const overlap = slider({ label: "Overlap fraction o", min: 0, max: 1, step: 0.01, value: 0.5, format: (v) => formatNumber(v, 2), onInput: draw });
  controlRow(figure, link, bucket, overlap);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "Step time against the overlap fraction o"),
    { xLabel: "overlap fraction o", yLabel: "step time (s)", datasets: [] });

  function draw() {
    const l = LINKS[link.value];
    const m = measuredOverlap(core, { alpha: l.alpha, beta: l.beta, bucketBytes: bucket.value });
    const top = maxOverlap(m.compute, m.comm);
    const o = Math.min(overlap.value, top);
    const line = Array.from({ length: STEPS + 1 }, (_, i) => (top * i) / STEPS)
      .map((x) => ({ x, y: partialStep(core, m.compute, m.comm, x) }));
    chart.update({ datasets: [
      { label: "T(o) = C + (1 − o)·M", data: line },
      { label: `bucketed DDP, ${formatBytes(bucket.value)} buckets`, data: [{ x: m.o, y: m.total }], points: true, line: false },
    ], verticalLines: [{ x: o, label: `o = ${formatNumber(o, 2)}` }] });
    const capped = overlap.value > top ? ` (o is capped at C/M = ${formatNumber(top, 2)}: no more can hide than there is compute)` : "";
    out.textContent = `${l.name}: compute C = ${formatSeconds(m.compute)}, communication M = ${formatSeconds(m.comm)}. ` +
      `At o = ${formatNumber(o, 2)} a step takes ${formatSeconds(partialStep(core, m.compute, m.comm, o))}${capped}. ` +
      `Bucketed DDP with ${formatBytes(bucket.value)} buckets leaves ${formatSeconds(m.exposed)} exposed: it achieves ` +
      `o = ${formatNumber(m.o, 3)}, a step of ${formatSeconds(m.total)}.`;
    describeChart(figure, `Step time falls linearly from ${formatSeconds(m.compute + m.comm)} at o = 0 to ` +
      `${formatSeconds(line.at(-1).y)} at o = ${formatNumber(top, 2)}; bucketed DDP sits at o = ${formatNumber(m.o, 3)}.`,
      [["o", "step time"], ...line.filter((_, i) => i % 8 === 0).map(({ x, y }) => [formatNumber(x, 2), formatSeconds(y)])]);
  }
  draw();
}
