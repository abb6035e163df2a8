// broadcast.js — widget "broadcast": time against message size for the linear, binomial-tree and
// scatter + all-gather broadcasts (core.collectiveCost), the pipelined chain and binary tree of K segments,
// (a·k + c)·(α + β·n/k) with a and c from the core's schedules (core.pipelinedBroadcast, core.messagesTime), the
// chain at its best K for every n (core.bestSegments), and the lower bound. The readout runs the chain's schedule
// at 100 MB: verified on buffers and timed by the simulator beside its formula.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { formatBytes, formatSeconds, plural } from "../../../web/units.js";

const ALGORITHMS = ["linear", "binomial-tree", "scatter-allgather"];

export function mountBroadcast(figure, core) {
  const ranks = slider({ label: "Ranks p", min: 2, max: 64, step: 1, value: 8, format: String, onInput: draw });
  const segments = slider({ label: "Pipeline segments K", min: 1, max: 1000, value: 100, log: true, integer: true, format: (k) => String(Math.round(k)), onInput: draw });
  controlRow(figure, ranks, segments);
  const out = readout(figure);
  const canvas = chartBox(figure, "Broadcast time against message size for six algorithms");
  const chart = createLineChart(canvas, { xLabel: "message size n (bytes)", yLabel: "time (s)", logX: true, logY: true, datasets: [] });
  const sizes = Array.from({ length: 49 }, (_, i) => 10 ** (3 + i / 8));  // 1 kB … 1 GB
  const alpha = 5e-6, beta = 1 / 25e9;

  function draw() {
    const p = Math.round(ranks.value), k = Math.round(segments.value), n = 1e8;
    const model = (bytes) => ({ ranks: p, bytes, alpha, beta, gamma: 0 });
    // One run of each pipelined schedule at 100 MB: its shape (a, c) draws the curves, its simulation the readout.
    const run = (algorithm) => core.pipelinedBroadcast({ algorithm, ranks: p, bytes: n, segments: k, alpha, beta });
    const chainRun = run("pipelined-chain"), treeRun = run("pipelined-tree");
    const pipelined = (r) => (bytes) => core.messagesTime(alpha, beta, r.perSegment * k + r.startup, bytes / k);
    const chain = pipelined(chainRun), tree = pipelined(treeRun);
    const bestChain = (bytes) => core.bestSegments("pipelined-chain", model(bytes)).seconds;
    chart.update({ datasets: [
      ...ALGORITHMS.map((alg) => ({ label: alg, data: sizes.map((x) => ({ x, y: core.collectiveCost("broadcast", alg, model(x)) })) })),
      { label: `pipelined chain, K = ${k}`, data: sizes.map((x) => ({ x, y: chain(x) })) },
      { label: `pipelined binary tree, K = ${k}`, data: sizes.map((x) => ({ x, y: tree(x) })) },
      { label: "pipelined chain, best K for each n", data: sizes.map((x) => ({ x, y: bestChain(x) })) },
      { label: "lower bound", dashed: true, data: sizes.map((x) => ({ x, y: core.lowerBound("broadcast", model(x)) })) }] });
    out.innerHTML = `p = ${p}, ${formatBytes(n)}: linear ${formatSeconds(core.collectiveCost("broadcast", "linear", model(n)))}, ` +
      `binomial ${formatSeconds(core.collectiveCost("broadcast", "binomial-tree", model(n)))}, scatter + all-gather ` +
      `${formatSeconds(core.collectiveCost("broadcast", "scatter-allgather", model(n)))}, chain of ${plural(k, "segment")} ` +
      `<strong>${formatSeconds(chainRun.closedForm.total)}</strong> (simulated ${formatSeconds(chainRun.simulated)}, ` +
      `${chainRun.messages} messages, ${chainRun.verified ? "every rank holds the root's data" : `wrong: ${chainRun.verifyMessage}`}), ` +
      `binary tree of ${plural(k, "segment")} ${formatSeconds(treeRun.closedForm.total)}. Best K for the chain: ` +
      `<strong>${chainRun.best.segments}</strong> (${formatSeconds(chainRun.best.seconds)}); for the tree ` +
      `${treeRun.best.segments} (${formatSeconds(treeRun.best.seconds)}). α = 5 µs, 25 GB/s.`;
    describeChart(figure, `Trees win for small messages (fewest rounds); for large ones the pipelined chain and scatter + ` +
      `all-gather approach the lower bound n·β; the pipelined binary tree approaches 2n·β.`,
      [["n", ...ALGORITHMS, "chain", "tree", "chain, best k"], ...[1e3, 1e6, 1e9].map((x) =>
        [formatBytes(x), ...ALGORITHMS.map((alg) => formatSeconds(core.collectiveCost("broadcast", alg, model(x)))),
          formatSeconds(chain(x)), formatSeconds(tree(x)), formatSeconds(bestChain(x))])]);
  }
  draw();
}
