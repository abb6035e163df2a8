// scaling_laws.js — widget "scaling-laws": Amdahl's fixed-size speed-up against Gustafson's scaled
// speed-up for N = 1 … 1024 processors and a chosen serial fraction s.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { button, chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { formatPercent as pct, formatRatio as x } from "../../../web/units.js";

const NS = Array.from({ length: 41 }, (_, i) => 2 ** (i / 4));  // 1 … 1024

export function mountScalingLaws(figure, core) {
  const serial = slider({ label: "Serial fraction s", min: 0, max: 0.5, step: 0.001, value: 0.05, format: pct, onInput: draw });
  const procs = slider({ label: "Processors N", min: 1, max: 1024, value: 64, log: true, integer: true, format: (v) => String(Math.round(v)), onInput: draw });
  const presets = [0.01, 0.05, 0.1, 0.25].map((s) => button(`s = ${pct(s)}`, () => { serial.value = s; draw(); }, { secondary: true }));
  controlRow(figure, serial, procs, ...presets);
  const out = readout(figure);
  const canvas = chartBox(figure, "Speed-up against number of processors: Amdahl and Gustafson");
  const chart = createLineChart(canvas, { xLabel: "processors N", yLabel: "speed-up S(N)", logX: true, logY: true, datasets: [] });

  function draw() {
    const s = serial.value, n = Math.round(procs.value);
    const amdahl = core.amdahlSpeedup(s, n), gustafson = core.gustafsonSpeedup(s, n);
    const limit = s > 0 ? x(core.amdahlLimit(s)) : "unbounded";
    out.innerHTML = `With s = ${pct(s)} on N = ${n}: Amdahl <strong>${x(amdahl)}</strong> (limit 1/s = ${limit}), ` +
      `Gustafson <strong>${x(gustafson)}</strong>. Amdahl keeps the problem fixed; Gustafson grows it with N.`;
    chart.update({
      datasets: [
        { label: "ideal S = N", data: NS.map((v) => ({ x: v, y: v })), dashed: true },
        { label: `Amdahl, s = ${pct(s)}`, data: NS.map((v) => ({ x: v, y: core.amdahlSpeedup(s, v) })) },
        { label: `Gustafson, s = ${pct(s)}`, data: NS.map((v) => ({ x: v, y: core.gustafsonSpeedup(s, v) })) },
      ],
      verticalLines: [{ x: n, label: `N = ${n}` }],
    });
    const amdahlShape = s > 0 ? `Amdahl's speed-up flattens towards its ceiling 1/s = ${limit}`
      : "Amdahl's speed-up is the ideal S = N (nothing is serial, so there is no ceiling)";
    describeChart(figure, `With serial fraction ${pct(s)}, ${amdahlShape}, while ` +
      `Gustafson's keeps growing almost linearly (${x(core.gustafsonSpeedup(s, 1024))} at N = 1024).`,
    [["N", "Amdahl", "Gustafson"], ...[1, 4, 16, 64, 256, 1024].map((v) =>
      [String(v), x(core.amdahlSpeedup(s, v)), x(core.gustafsonSpeedup(s, v))])]);
  }
  draw();
}
