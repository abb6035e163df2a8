// pingpong.js — widget "ping-pong": measure α and β of this browser. Two real Workers bounce messages
// of 8 B … 4 MB (the reference solution of the ping-pong exercise, so what runs here is what CI tests);
// the core fits T(n) = α + β·n to the medians by least squares.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { button, chartBox, controlRow, readout } from "../../../web/ui/controls.js";
import { formatBytes, formatNumber, formatRate, formatSeconds, plural } from "../../../web/units.js";

const SIZES = [8, 64, 512, 4096, 32768, 262144, 1048576, 4194304];

export function mountPingPong(figure, core, clusters, program) {
  const start = button("Measure my browser", measure);
  controlRow(figure, start);
  const out = readout(figure);
  out.textContent = "Press the button: two Workers exchange 20 round trips per size (about a second).";
  const canvas = chartBox(figure, "Measured one-way message time against size, with the fitted α–β line");
  const chart = createLineChart(canvas, { xLabel: "message size n (bytes)", yLabel: "one-way time (s)", logX: true, logY: true,
    datasets: [], empty: "Press “Measure my browser”: your browser's one-way times and the fitted line α + β·n appear here." });

  async function measure() {
    start.disabled = true;
    out.textContent = "Measuring…";
    try {
      const run = await clusters.run(2, program, { inputs: [{ sizes: SIZES, repeats: 20 }, { sizes: SIZES, repeats: 20 }], timeoutMs: 20000 });
      if (run.status !== "ok") throw new Error(run.error?.message ?? run.deadlock?.message ?? run.timeout?.message ?? run.status);
      const points = run.results[0];
      const fit = core.fitAlphaBeta(points.map((p) => p.bytes), points.map((p) => p.seconds));
      const model = SIZES.map((n) => ({ x: n, y: Math.max(fit.alpha + fit.beta * n, 1e-9) }));
      chart.update({
        datasets: [
          { label: "measured (median one-way)", data: points.map((p) => ({ x: p.bytes, y: p.seconds })), points: true },
          { label: "fit α + β·n", data: model },
        ],
        verticalLines: fit.beta > 0 && fit.alpha > 0 ? [{ x: fit.alpha / fit.beta, label: "n*" }] : [],
      });
      const nStar = fit.beta > 0 && fit.alpha > 0 ? formatBytes(fit.alpha / fit.beta) : "—";
      out.innerHTML = `Your browser: α ≈ <strong>${formatSeconds(fit.alpha)}</strong>, bandwidth 1/β ≈ ` +
        `<strong>${fit.beta > 0 ? formatRate(1 / fit.beta) : "—"}</strong>, n* ≈ ${nStar} (R² = ${formatNumber(fit.rSquared)}, ` +
        `${plural(fit.points, "size")}). Compare a datacentre link: α ≈ 1–10 µs, 25–400 GB/s.`;
      describeChart(figure, `Measured one-way times from ${formatSeconds(points[0].seconds)} at 8 B to ` +
        `${formatSeconds(points.at(-1).seconds)} at 4 MB; fitted α ${formatSeconds(fit.alpha)}.`,
      [["size", "one-way time"], ...points.map((p) => [formatBytes(p.bytes), formatSeconds(p.seconds)])]);
    } catch (err) {
      out.textContent = `The measurement failed: ${err.message}`;
    } finally {
      start.disabled = false;
    }
  }
}
