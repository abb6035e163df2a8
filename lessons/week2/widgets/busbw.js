// busbw.js — widget "busbw": NCCL's algorithm bandwidth algbw = n / t and bus bandwidth busbw = algbw × factor
// (2(p−1)/p for all-reduce) of a simulated ring all-reduce, against message size: busbw climbs towards the
// link speed once n is well above the latency-bound regime.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { costSliders } from "../../../web/ui/cost_sliders.js";
import { formatBytes, formatRate, formatSeconds } from "../../../web/units.js";

export function mountBusBandwidth(figure, core) {
  const ranks = slider({ label: "Ranks p", min: 2, max: 16, step: 1, value: 8, format: String, onInput: draw });
  const { alpha, bandwidth } = costSliders({
    alpha: [1e-7, 1e-4, 5e-6], bandwidth: [1e9, 1e12, 25e9],
  }, draw, { bandwidth: "Link bandwidth 1/β" });
  controlRow(figure, ranks, alpha, bandwidth);
  const out = readout(figure);
  const canvas = chartBox(figure, "Algorithm and bus bandwidth of a simulated ring all-reduce against message size");
  const chart = createLineChart(canvas, { xLabel: "message size n (bytes)", yLabel: "bandwidth (B/s)", logX: true, logY: true, datasets: [] });

  function draw() {
    const p = Math.round(ranks.value), link = bandwidth.value;
    const sizes = Array.from({ length: 25 }, (_, i) => Math.round(10 ** (3 + i / 4) / (4 * p)) * 4 * p);  // ~1 kB … 1 GB
    const points = sizes.map((n) => {
      const t = core.simulateCollective({ collective: "all-reduce", algorithm: "ring", ranks: p, bytes: n,
        topology: { kind: "fully-connected", alpha: alpha.value, beta: 1 / link } }).makespan;
      return { n, t, ...core.busBandwidth("all-reduce", p, n, t) };
    });
    chart.update({ datasets: [
      { label: "algbw = n / t", data: points.map((q) => ({ x: q.n, y: q.algbw })) },
      { label: "busbw = algbw · 2(p−1)/p", data: points.map((q) => ({ x: q.n, y: q.busbw })) },
      { label: "link bandwidth", dashed: true, data: [{ x: sizes[0], y: link }, { x: sizes.at(-1), y: link }] }] });
    const last = points.at(-1);
    out.innerHTML = `At ${formatBytes(last.n)} on ${p} ranks: algbw ${formatRate(last.algbw)}, busbw <strong>${formatRate(last.busbw)}</strong> ` +
      `of a ${formatRate(link)} link. busbw, not algbw, is what compares with the wire.`;
    describeChart(figure, `Bus bandwidth rises with message size and levels off at the link bandwidth ${formatRate(link)}.`,
      [["n", "time", "algbw", "busbw"], ...points.filter((_, i) => i % 4 === 0).map((q) =>
        [formatBytes(q.n), formatSeconds(q.t), formatRate(q.algbw), formatRate(q.busbw)])]);
  }
  draw();
}
