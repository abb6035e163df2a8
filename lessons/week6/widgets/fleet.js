// fleet.js — widget "fleet": a synchronous job fails when its first node fails, so N nodes of MTBF m fail as one
// process of MTBF M = m/N (core.fleetMtbf, checkpointing.h). The curve over fleet sizes for the chosen m, the chosen N
// marked, and what M means for a 30-day run.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { formatCount, formatNumber } from "../../../web/units.js";
import { FLEET, FLEET_SIZES } from "../checkpoint_setup.js";
import { hours } from "../calcs.js";

const YEAR = 365 * 86400, DAY = 86400;
const years = (y) => `${formatNumber(y)} years`;

export function mountFleet(figure, core) {
  const node = slider({ label: "Node MTBF m", min: 0.5, max: 20, value: FLEET.nodeMtbf / YEAR, log: true, format: years, onInput: draw });
  const size = slider({ label: "Nodes N", min: 1, max: 100000, value: FLEET.nodes, log: true, integer: true, format: (n) => formatCount(Math.round(n)), onInput: draw });
  controlRow(figure, node, size);
  const out = readout(figure);
  const canvas = chartBox(figure, "The fleet's MTBF in hours against the number of nodes, log axes");
  const chart = createLineChart(canvas, { xLabel: "nodes N", yLabel: "fleet MTBF (h)", logX: true, logY: true, datasets: [] });

  function draw() {
    const m = node.value * YEAR, N = Math.round(size.value);
    const curve = FLEET_SIZES.map((n) => ({ x: n, y: core.fleetMtbf(m, n) / 3600 }));
    const M = core.fleetMtbf(m, N);
    chart.update({
      datasets: [{ label: `M = m/N, m = ${years(node.value)}`, data: curve },
        { label: "a 30-day run", dashed: true, data: FLEET_SIZES.map((n) => ({ x: n, y: 30 * 24 })) }],
      verticalLines: [{ x: N, label: `N = ${formatCount(N)}: ${hours(M)}` }],
    });
    out.innerHTML = `${formatCount(N)} nodes that each fail once in ${years(node.value)} fail, as a job, every
      <strong>${hours(M)}</strong> on average: about <strong>${formatCount(Math.round(30 * DAY / M))}</strong> interruptions
      in a 30-day run.`;
    describeChart(figure, `The fleet's MTBF falls as 1/N: ${hours(core.fleetMtbf(m, 1))} for one node, ${hours(M)} for ${formatCount(N)}.`,
      [["nodes", "fleet MTBF"], ...curve.map((p) => [formatCount(p.x), hours(p.y * 3600)])]);
  }
  draw();
}
