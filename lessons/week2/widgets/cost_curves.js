// cost_curves.js — widgets "time-vs-size" and "time-vs-p": the closed-form time of every all-reduce
// algorithm (core.collectiveCost) against message size or rank count, with the lower bound.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { costSliders } from "../../../web/ui/cost_sliders.js";
import { formatBytes, formatRatio, formatSeconds } from "../../../web/units.js";

const ALGORITHMS = ["naive", "ring", "recursive-doubling", "rabenseifner"];

function winners(core, costs) {
  return ALGORITHMS.reduce((best, a) => (costs[a] < costs[best] ? a : best), ALGORITHMS[0]);
}

export function mountTimeVsSize(figure, core) {
  const { alpha, bandwidth } = costSliders({ alpha: [1e-7, 1e-4, 5e-6], bandwidth: [1e9, 1e12, 25e9] }, draw);
  const ranks = slider({ label: "Ranks p (power of two)", min: 1, max: 10, step: 1, value: 6, format: (k) => String(2 ** k), onInput: draw });
  controlRow(figure, alpha, bandwidth, ranks);
  const out = readout(figure);
  const canvas = chartBox(figure, "All-reduce time against message size for four algorithms, log–log");
  const chart = createLineChart(canvas, { xLabel: "message size n (bytes)", yLabel: "time (s)", logX: true, logY: true, datasets: [] });
  const sizes = Array.from({ length: 57 }, (_, i) => 10 ** (2 + i / 8));  // 100 B … 1 GB

  function draw() {
    const p = 2 ** Math.round(ranks.value), a = alpha.value, b = 1 / bandwidth.value;
    const model = (n) => ({ ranks: p, bytes: n, alpha: a, beta: b, gamma: 0 });
    const datasets = ALGORITHMS.map((alg) => ({ label: alg, data: sizes.map((n) => ({ x: n, y: core.collectiveCost("all-reduce", alg, model(n)) })) }));
    datasets.push({ label: "lower bound", dashed: true, data: sizes.map((n) => ({ x: n, y: core.lowerBound("all-reduce", model(n)) })) });
    // Where the ring overtakes recursive doubling: the first size at which it is faster.
    const cross = sizes.find((n) => core.collectiveCost("all-reduce", "ring", model(n)) < core.collectiveCost("all-reduce", "recursive-doubling", model(n)));
    chart.update({ datasets, verticalLines: cross ? [{ x: cross, label: "ring wins" }] : [] });
    const at = (n) => Object.fromEntries(ALGORITHMS.map((alg) => [alg, core.collectiveCost("all-reduce", alg, model(n))]));
    out.innerHTML = `p = ${p}: at 1 kB the fastest is <strong>${winners(core, at(1e3))}</strong>, at 1 GB ` +
      `<strong>${winners(core, at(1e9))}</strong>. ${cross ? `The ring beats recursive doubling from about ${formatBytes(cross)}.` : ""}`;
    describeChart(figure, `Small messages are latency-bound and favour few rounds (recursive doubling); large ones are ` +
      `bandwidth-bound and favour the ring and Rabenseifner, which move 2(p−1)/p·n bytes per rank.`,
    [["n", ...ALGORITHMS, "lower bound"], ...[1e3, 1e5, 1e7, 1e9].map((n) => [formatBytes(n),
      ...ALGORITHMS.map((alg) => formatSeconds(core.collectiveCost("all-reduce", alg, model(n)))), formatSeconds(core.lowerBound("all-reduce", model(n)))])]);
  }
  draw();
}

export function mountTimeVsP(figure, core) {
  const { alpha, bandwidth, size } = costSliders({
    alpha: [1e-7, 1e-4, 5e-6], bandwidth: [1e9, 1e12, 25e9], size: [1e3, 1e9, 256e6],
  }, draw);
  controlRow(figure, alpha, bandwidth, size);
  const out = readout(figure);
  const canvas = chartBox(figure, "All-reduce time against number of ranks for four algorithms");
  const chart = createLineChart(canvas, { xLabel: "ranks p", yLabel: "time (s)", logX: true, logY: true, datasets: [] });
  const ps = Array.from({ length: 8 }, (_, i) => 2 ** (i + 1));  // 2 … 256

  function draw() {
    const n = size.value, a = alpha.value, b = 1 / bandwidth.value;
    const model = (p) => ({ ranks: p, bytes: n, alpha: a, beta: b, gamma: 0 });
    chart.update({ datasets: [
      ...ALGORITHMS.map((alg) => ({ label: alg, data: ps.map((p) => ({ x: p, y: core.collectiveCost("all-reduce", alg, model(p)) })) })),
      { label: "lower bound", dashed: true, data: ps.map((p) => ({ x: p, y: core.lowerBound("all-reduce", model(p)) })) }] });
    const naive = core.collectiveCost("all-reduce", "naive", model(256)), ring = core.collectiveCost("all-reduce", "ring", model(256));
    out.innerHTML = `n = ${formatBytes(n)} on 256 ranks: naive ${formatSeconds(naive)}, ring ${formatSeconds(ring)} ` +
      `(${formatRatio(naive / ring, 2)} faster). The naive root moves 2(p−1)·n bytes; a ring rank moves 2(p−1)/p·n, almost independent of p.`;
    describeChart(figure, `As p grows the naive all-reduce slows linearly while the ring's time approaches 2·n·β.`,
      [["p", ...ALGORITHMS], ...ps.map((p) => [String(p), ...ALGORITHMS.map((alg) => formatSeconds(core.collectiveCost("all-reduce", alg, model(p))))])]);
  }
  draw();
}
