// zero_memory.js — widget "zero-memory" (section #zero): model-state bytes per GPU against the data-parallel degree N
// for plain DP and ZeRO-1/2/3 (mixed-precision Adam, 16 bytes per parameter; core.stepCost's accountant scaled to
// the model's Ψ, scale_setup.js), with the 80 GB line. Activations are not included.
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatBytes } from "../../../web/units.js";
import { ZERO_SIZES, zeroStates } from "../scale_setup.js";

const NS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
const STAGES = [[0, "data parallel"], [1, "ZeRO-1"], [2, "ZeRO-2"], [3, "ZeRO-3 / FSDP"]];
const GB = (x) => formatBytes(x, { digits: 3 });

export function mountZeroMemory(figure, core) {
  const size = select({ label: "Model", value: "7B", options: Object.keys(ZERO_SIZES).map((k) => [k, `${k} parameters`]), onChange: draw });
  controlRow(figure, size);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "Model-state memory per GPU against the number of data-parallel GPUs"),
    { xLabel: "data-parallel GPUs N", yLabel: "bytes per GPU", logX: true, logY: true, datasets: [] });

  function draw() {
    const psi = ZERO_SIZES[size.value];
    const curves = STAGES.map(([stage, label], i) => ({ label, colorIndex: i, data: NS.map((N) => ({ x: N, y: zeroStates(core, psi, stage, N) })) }));
    chart.update({ datasets: [...curves, { label: "80 GB", dashed: true, colorIndex: 5, data: NS.map((N) => ({ x: N, y: 80e9 })) }] });
    const fitsAt = curves.map((c) => c.data.find((p) => p.y <= 80e9)?.x);
    out.innerHTML = `${size.value}: ${GB(curves[0].data[0].y)} of model states on one GPU. Fits in 80 GB from N = ` +
      STAGES.map(([, label], i) => `${label} <strong>${fitsAt[i] ?? "never"}</strong>`).join(", ") + ` (plus activations).`;
    describeChart(figure, `Data parallelism never shrinks the ${GB(curves[0].data[0].y)}; ZeRO-3 divides it by N.`,
      [["N", ...STAGES.map(([, l]) => l)], ...NS.map((N, j) => [N, ...curves.map((c) => GB(c.data[j].y))])]);
  }
  draw();
}
