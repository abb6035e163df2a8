// broadcast.js — widget "broadcast": time against message size for the linear, binomial-tree and
// scatter + all-gather broadcasts (core.collectiveCost) and a pipelined chain of k segments,
// (p + k − 2)·(α + β·n/k) (core.messagesTime), with the lower bound.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { formatBytes, formatSeconds } from "../../../web/units.js";

const ALGORITHMS = ["linear", "binomial-tree", "scatter-allgather"];

export function mountBroadcast(figure, core) {
  const ranks = slider({ label: "Ranks p", min: 2, max: 64, step: 1, value: 8, format: String, onInput: draw });
  const segments = slider({ label: "Pipeline segments k", min: 1, max: 1000, value: 100, log: true, format: (k) => String(Math.round(k)), onInput: draw });
  controlRow(figure, ranks, segments);
  const out = readout(figure);
  const canvas = chartBox(figure, "Broadcast time against message size for four algorithms");
  const chart = createLineChart(canvas, { xLabel: "message size n (bytes)", yLabel: "time (s)", logX: true, logY: true, datasets: [] });
  const sizes = Array.from({ length: 49 }, (_, i) => 10 ** (3 + i / 8));  // 1 kB … 1 GB
  const alpha = 5e-6, beta = 1 / 25e9;

  function draw() {
    const p = Math.round(ranks.value), k = Math.round(segments.value);
    const model = (n) => ({ ranks: p, bytes: n, alpha, beta, gamma: 0 });
    const chain = (n) => core.messagesTime(alpha, beta, p + k - 2, n / k);
    chart.update({ datasets: [
      ...ALGORITHMS.map((alg) => ({ label: alg, data: sizes.map((n) => ({ x: n, y: core.collectiveCost("broadcast", alg, model(n)) })) })),
      { label: `pipelined chain, k = ${k}`, data: sizes.map((n) => ({ x: n, y: chain(n) })) },
      { label: "lower bound", dashed: true, data: sizes.map((n) => ({ x: n, y: core.lowerBound("broadcast", model(n)) })) }] });
    const n = 1e8;
    out.innerHTML = `p = ${p}, ${formatBytes(n)}: linear ${formatSeconds(core.collectiveCost("broadcast", "linear", model(n)))}, ` +
      `binomial ${formatSeconds(core.collectiveCost("broadcast", "binomial-tree", model(n)))}, scatter + all-gather ` +
      `${formatSeconds(core.collectiveCost("broadcast", "scatter-allgather", model(n)))}, chain of ${k} segments ` +
      `<strong>${formatSeconds(chain(n))}</strong> (α = 5 µs, 25 GB/s).`;
    describeChart(figure, `Trees win for small messages (fewest rounds); for large ones the pipelined chain and scatter + ` +
      `all-gather approach the lower bound n·β.`, [["n", ...ALGORITHMS, "chain"], ...[1e3, 1e6, 1e9].map((x) =>
      [formatBytes(x), ...ALGORITHMS.map((alg) => formatSeconds(core.collectiveCost("broadcast", alg, model(x)))), formatSeconds(chain(x))])]);
  }
  draw();
}
