// comm_wall.js — widget "comm-wall": the time to all-reduce a 50 MB gradient against P (ring, closed form,
// core.collectiveCost) on nodes of 8 (NVLink inside one node, InfiniBand once the ring leaves it) or on InfiniBand alone, and what is left of it once a bucketed DDP overlaps it with
// backward (core.ddpVariants on a model of exactly 50 MB of fp32 gradients).
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatCount, formatPercent, formatSeconds } from "../../../web/units.js";
import { NETWORK_CHOICES, WALL_DEVICES, WALL_ROWS, allReduceTime, ddpStep, linkAt } from "../scaling_setup.js";

const STEP_DEVICES = WALL_DEVICES.filter((p) => p <= 64);  // the step model builds every rank's schedule

export function mountCommWall(figure, core) {
  const network = select({ label: "Network", options: NETWORK_CHOICES, value: "infiniband", onChange: draw });
  const rows = slider({ label: "Rows per device", min: 64, max: 65536, value: WALL_ROWS, log: true,
    format: (v) => formatCount(pow2(v)), onInput: draw });
  controlRow(figure, network, rows);
  const out = readout(figure);
  const canvas = chartBox(figure, "Time to all-reduce a 50 MB gradient against the number of devices, and the part overlap cannot hide");
  const chart = createLineChart(canvas, { xLabel: "devices P", yLabel: "time (s)", logX: true, logY: false, datasets: [] });

  function draw() {
    const l = (p) => linkAt(network.value, p), b = pow2(rows.value);
    const steps = STEP_DEVICES.map((p) => ({ p, ...ddpStep(core, { ranks: p, link: l(p), rowsPerDevice: b }) }));
    const exposed = (cost) => Math.max(0, cost.total - cost.compute);
    chart.update({ datasets: [
      // Flat DDP all-reduces the whole 50 MB after backward, so its exposed time is this line itself up to P = 64. The
      // first dataset is drawn on top: dashed, it lets the flat DDP's line show between its dashes.
      { label: "all-reduce of 50 MB (ring)", dashed: true, data: WALL_DEVICES.map((p) => ({ x: p, y: allReduceTime(core, p, l(p)) })) },
      { label: "exposed, flat DDP = all-reduce", data: steps.map((s) => ({ x: s.p, y: exposed(s.flat) })) },
      { label: "exposed, bucketed DDP with overlap", data: steps.map((s) => ({ x: s.p, y: exposed(s.bucketed) })) },
      { label: "backward compute", dashed: true, data: steps.map((s) => ({ x: s.p, y: (s.flat.compute * 2) / 3 })) },
    ] });
    const at = steps[steps.length - 1], ar = allReduceTime(core, at.p, l(at.p));
    const hidden = 1 - exposed(at.bucketed) / exposed(at.flat);
    out.innerHTML = `50 MB over ${at.p} devices: the ring all-reduce takes <strong>${formatSeconds(ar)}</strong> ` +
      `(${formatSeconds(allReduceTime(core, 2, l(2)))} on 2: each rank moves 2(P−1)/P of the gradient, which stops growing, ` +
      `but pays 2(P−1) latencies, ${formatSeconds(allReduceTime(core, at.p, l(at.p), 0))} of it). ` +
      `Backward of ${formatCount(b)} rows takes ${formatSeconds((at.flat.compute * 2) / 3)}; ` +
      (hidden >= 0 ? `bucketing with overlap hides ${formatPercent(hidden, { decimals: 0 })} of what the flat DDP leaves exposed.`
        : `bucketing with overlap exposes ${formatPercent(-hidden, { decimals: 0 })} <em>more</em> than the flat DDP: each ` +
          `bucket pays the ring's 2(P − 1) latencies again, more than backward can hide.`);
    describeChart(figure, `The all-reduce's bandwidth part approaches 2·n·β as P grows (a wall), its latency part 2(P−1)α keeps ` +
      `growing; overlapping it with backward ` +
      `hides at most the backward's length, so with few rows per device the exposed part stays.`,
    [["P", "all-reduce", "exposed (flat)", "exposed (bucketed, overlap)"], ...steps.map((s) => [String(s.p),
      formatSeconds(allReduceTime(core, s.p, l(s.p))), formatSeconds(exposed(s.flat)), formatSeconds(exposed(s.bucketed))])]);
  }
  draw();
}

const pow2 = (v) => 2 ** Math.round(Math.log2(v));
