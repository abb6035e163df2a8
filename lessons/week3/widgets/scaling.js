// scaling.js — widget "scaling": speed-up of data parallelism against P for a fixed global batch (strong
// scaling) and a fixed batch per device (weak scaling), against ideal, priced by the core's step model
// (core.dpScaling) on the lab's hardware — NVLink inside a node of 8, the network beyond; and the per-device batch
// below which DP is communication-bound.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatCount, formatPercent, formatRatio } from "../../../web/units.js";
import { DEVICES, NETWORK_CHOICES, STRONG_BATCH, WEAK_BATCH, commBound, linkAt, scaling } from "../scaling_setup.js";

export function mountScaling(figure, core) {
  const network = select({ label: "Network", options: NETWORK_CHOICES, value: "nodes", onChange: draw });
  const overlap = select({ label: "Overlap", options: [["on", "bucketed, overlapped"], ["off", "after backward"]], value: "on", onChange: draw });
  const accumulate = select({ label: "Accumulation k", options: [1, 2, 4, 8].map((k) => [String(k), String(k)]), value: "1", onChange: draw });
  const strongBatch = slider({ label: "Strong: global batch", min: 1024, max: 262144, value: STRONG_BATCH, log: true,
    format: (v) => formatCount(pow2(v)), onInput: draw });
  const weakBatch = slider({ label: "Weak: rows per device", min: 64, max: 16384, value: WEAK_BATCH, log: true,
    format: (v) => formatCount(pow2(v)), onInput: draw });
  controlRow(figure, network, overlap, accumulate, strongBatch, weakBatch);
  const out = readout(figure);
  const canvas = chartBox(figure, "Speed-up of data parallelism against the number of devices: ideal, weak and strong scaling");
  const chart = createLineChart(canvas, { xLabel: "devices P", yLabel: "speed-up (rows/s ÷ one device's)", logX: true, logY: true, datasets: [] });

  function draw() {
    const net = network.value, on = overlap.value === "on", k = Number(accumulate.value);
    const B = pow2(strongBatch.value), b = pow2(weakBatch.value);
    const ranks = DEVICES.filter((p) => B % (p * k) === 0 && b % k === 0);
    const strong = scaling(core, { mode: "strong", network: net, batch: B, overlap: on, microBatches: k, ranks });
    const weak = scaling(core, { mode: "weak", network: net, batch: b, overlap: on, microBatches: k, ranks });
    const last = (pts) => pts[pts.length - 1];
    const top = last(ranks), star = commBound(core, { link: linkAt(net, top), ranks: top, overlap: on, microBatches: k });
    chart.update({ datasets: [
      { label: "ideal", dashed: true, data: ranks.map((p) => ({ x: p, y: p })) },
      { label: `weak (${formatCount(b)} rows per device)`, data: weak.map((s) => ({ x: s.ranks, y: s.speedup })) },
      { label: `strong (${formatCount(B)} rows in all)`, data: strong.map((s) => ({ x: s.ranks, y: s.speedup })) },
    ] });
    const s64 = last(strong), w64 = last(weak), perDevice = B / s64.ranks;
    out.innerHTML = `At P = ${s64.ranks}: weak scaling ${formatRatio(w64.speedup, { decimals: 1 })} ` +
      `(${formatPercent(w64.efficiency, { decimals: 0 })} of ideal), strong ${formatRatio(s64.speedup, { decimals: 1 })} ` +
      `(${formatPercent(s64.efficiency, { decimals: 0 })}), with ${formatCount(perDevice)} rows per device. ` +
      `There DP is communication-bound below <strong>${formatCount(Math.round(star))} rows per device</strong> ` +
      `(${on ? "the all-reduce no longer hides behind backward" : "the all-reduce takes longer than the compute"}).`;
    describeChart(figure, `Weak scaling keeps each device's compute and stays near ideal while the batch per device is above ` +
      `the comm-bound threshold; strong scaling shrinks the compute per device as 1/P while the all-reduce does not shrink, ` +
      `so its speed-up flattens.`,
    [["P", "ideal", "weak", "strong", "strong rows/device"], ...ranks.map((p, i) => [String(p), String(p),
      formatRatio(weak[i].speedup, { decimals: 2 }), formatRatio(strong[i].speedup, { decimals: 2 }), formatCount(B / p)])]);
  }
  draw();
}

// Batches move in powers of two, so every P of the chart divides them.
const pow2 = (v) => 2 ** Math.round(Math.log2(v));
