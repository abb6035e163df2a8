// ddp_price.js — widget "ddp-price" (section #ddp): the worked example's three DDPs priced by core.stepCost — naive
// (per tensor, no overlap), flat (one bucket, no overlap), bucketed with and without overlap — against bucket
// size, on a link the learner picks; and one priced step of the bucketed DDP, compute (the GPU) and communication
// (the link) drawn on two lanes.
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatBytes, formatPercent, formatRate, formatSeconds } from "../../../web/units.js";
import { renderPhases } from "../../../web/ui/phase_timeline.js";
import { EXAMPLE, PSI, priceDdps } from "../ddp_setup.js";
import { LINKS as COURSE_LINKS } from "../../../web/hardware.js";

// The course's links (web/hardware.js).
export const LINKS = { nvlink: COURSE_LINKS.nvlink, ib: COURSE_LINKS.infiniband, ethernet: COURSE_LINKS.ethernet };
// Bucket sizes from 2 MB (fewer than 10 000 buckets of the 1.6 GB gradient, the core's limit) to all of it.
const SIZES = Array.from({ length: 19 }, (_, i) => 2e6 * 2 ** (i / 2)).filter((b) => b <= 4 * PSI(EXAMPLE.model));

export function mountDdpPrice(figure, core) {
  const link = select({ label: "Link", value: "nvlink", options: Object.entries(LINKS).map(([k, l]) => [k, l.label]), onChange: draw });
  const bucket = slider({ label: "Bucket size", min: 2e6, max: 1e9, log: true, value: 25 * 2 ** 20, snap: [25 * 2 ** 20, 4e8], format: formatBytes, onInput: draw });
  controlRow(figure, link, bucket);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "Priced step time against bucket size for the three DDPs"),
    { xLabel: "bucket size (bytes)", yLabel: "step time (s)", logX: true, datasets: [] });
  const lanes = document.createElement("div");
  chart.chart.canvas.parentElement.after(lanes);

  function draw() {
    const l = LINKS[link.value], net = { alpha: l.alpha, beta: l.beta };
    const at = (bytes) => priceDdps(core, { ...net, bucketBytes: bytes });
    const curve = SIZES.map((x) => ({ x, r: at(x) }));
    const now = at(bucket.value);
    const flat = now.flat.total, naive = now.naive.total;
    chart.update({ datasets: [
      { label: "bucketed, overlapped", data: curve.map(({ x, r }) => ({ x, y: r.bucketed.total })) },
      { label: "bucketed, after backward", data: curve.map(({ x, r }) => ({ x, y: r.serial.total })), dashed: true },
      { label: "flat", data: SIZES.map((x) => ({ x, y: flat })), dashed: true },
      { label: "naive", data: SIZES.map((x) => ({ x, y: naive })), dashed: true },
    ], verticalLines: [{ x: bucket.value, label: formatBytes(bucket.value) }] });
    const best = curve.reduce((a, b) => (b.r.bucketed.total < a.r.bucketed.total ? b : a));
    const exposed = now.bucketed.total - now.bucketed.compute;
    out.textContent = `${l.name} (α = ${formatSeconds(l.alpha)}, ${formatRate(1 / l.beta)}): naive ${formatSeconds(naive)}, ` +
      `flat ${formatSeconds(flat)}, bucketed ${formatBytes(bucket.value)} overlapped ${formatSeconds(now.bucketed.total)} a step ` +
      `(compute ${formatSeconds(now.bucketed.compute)}; ${formatSeconds(exposed)} = ${formatPercent(exposed / now.bucketed.total, { decimals: 0 })} ` +
      `of the step is communication left over). Best bucket on this curve: ${formatBytes(best.x)}, ${formatSeconds(best.r.bucketed.total)}.`;
    describeChart(figure, `Overlapped bucketed DDP takes ${formatSeconds(best.r.bucketed.total)} at its best bucket size ` +
      `(${formatBytes(best.x)}), against ${formatSeconds(flat)} flat and ${formatSeconds(naive)} naive.`,
      [["bucket", "overlapped", "after backward"], ...curve.map(({ x, r }) => [formatBytes(x), formatSeconds(r.bucketed.total), formatSeconds(r.serial.total)])]);
    const spans = now.bucketed.spans.filter((s) => s.rank === 0)
      .map((s) => ({ ...s, rank: s.stream === "comm" ? 1 : 0, kind: s.stream === "comm" ? "all-reduce" : "compute",
        label: s.label ?? s.kind }));
    // Lanes named after what they occupy, not the kind of work: the timeline's summary reads "GPU: compute 49.5 ms".
    renderPhases(lanes, spans, { ranks: 2, fillIdle: false, rowLabel: (r) => (r ? "link" : "GPU"),
      title: `One priced step, ${formatBytes(bucket.value)} buckets, overlapped`,
      note: "Rank 0 of 8 (all run the same timeline)." });
  }
  draw();
}
