// alpha_beta.js — widget "alpha-beta": T(n) = α + β·n on log–log axes, with the latency floor α,
// the bandwidth line β·n, and the crossover n* = α/β where they meet. Every number comes from the core.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout } from "../../../web/ui/controls.js";
import { costSliders } from "../../../web/ui/cost_sliders.js";
import { formatBytes, formatRate, formatSeconds } from "../../../web/units.js";

const SIZES = Array.from({ length: 73 }, (_, i) => 10 ** (i / 8));  // 1 B … 1 GB, 8 points per decade

export function mountAlphaBeta(figure, core) {
  const { alpha, bandwidth, size } = costSliders({
    alpha: [1e-7, 1e-3, 1e-6], bandwidth: [1e8, 1e12, 1e11], size: [1, 1e9, 1e6],
  }, draw);
  controlRow(figure, alpha, bandwidth, size);
  const out = readout(figure);
  const canvas = chartBox(figure, "Message time T(n) against message size n, log–log");
  const chart = createLineChart(canvas, { xLabel: "message size n (bytes)", yLabel: "time (s)", logX: true, logY: true, datasets: [] });

  function draw() {
    const a = alpha.value, b = 1 / bandwidth.value, n = size.value;
    const nStar = core.crossoverSize(a, b);
    const t = core.messageTime(a, b, n);
    const regime = n < nStar / 10 ? "latency-bound: α dominates, sending more bytes is almost free"
      : n > nStar * 10 ? "bandwidth-bound: β·n dominates, latency is noise"
        : "near the crossover: latency and bandwidth both matter";
    out.innerHTML = `T(${formatBytes(n)}) = <strong>${formatSeconds(t)}</strong>; ` +
      `n* = α/β = <strong>${formatBytes(nStar)}</strong>; achieved bandwidth ` +
      `${formatRate(core.effectiveBandwidth(a, b, n))} of ${formatRate(1 / b)} — ${regime}.`;
    chart.update({
      datasets: [
        { label: "T(n) = α + β·n", data: SIZES.map((x) => ({ x, y: core.messageTime(a, b, x) })) },
        { label: "latency floor α", data: [{ x: 1, y: a }, { x: 1e9, y: a }], dashed: true },
        { label: "bandwidth term β·n", data: SIZES.map((x) => ({ x, y: b * x })).filter((p) => p.y >= 1e-9), dashed: true },
        { label: "your message", data: [{ x: n, y: t }], points: true },
      ],
      verticalLines: [{ x: nStar, label: `n* = ${formatBytes(nStar)}` }],
    });
    describeChart(figure, `For α = ${formatSeconds(a)} and ${formatRate(1 / b)}, messages below n* = ${formatBytes(nStar)} ` +
      `cost about α; above it time grows linearly with n. A ${formatBytes(n)} message takes ${formatSeconds(t)}.`,
    [["n", "T(n)"], ...[1, 1e3, 1e6, 1e9].map((x) => [formatBytes(x), formatSeconds(core.messageTime(a, b, x))])]);
  }
  draw();
}
