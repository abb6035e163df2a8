// bucketing.js — widget "bucketing": sending G bytes as G/b buckets of b bytes costs
// T(b) = (G/b)·(α + β·b) = (G/b)·α + β·G; a bucket achieves b/(b + n*) of the bandwidth.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { costSliders } from "../../../web/ui/cost_sliders.js";
import { formatBytes, formatCount, formatPercent as pct, formatSeconds, plural } from "../../../web/units.js";

const MIB25 = 25 * 2 ** 20;  // PyTorch DDP's default bucket_cap_mb = 25

export function mountBucketing(figure, core) {
  const total = slider({ label: "Gradient size G", min: 1e6, max: 1e9, value: 4e8, log: true, format: formatBytes, onInput: draw });
  const bucket = slider({ label: "Bucket size b", min: 1e3, max: 1e9, value: 1e5, log: true, format: formatBytes, onInput: draw });
  const { alpha, bandwidth } = costSliders({ alpha: [1e-7, 1e-3, 5e-6], bandwidth: [1e8, 1e12, 12.5e9] }, draw);
  controlRow(figure, total, bucket, alpha, bandwidth);
  const out = readout(figure);
  const canvas = chartBox(figure, "Total time to send G bytes in buckets of size b, against b");
  const chart = createLineChart(canvas, { xLabel: "bucket size b (bytes)", yLabel: "total time (s)", logX: true, logY: true, datasets: [] });

  function draw() {
    const n = total.value, a = alpha.value, beta = 1 / bandwidth.value;
    const b = Math.min(bucket.value, n);
    const count = Math.ceil(n / b);
    const time = (size) => core.messagesTime(a, beta, n / size, size);
    const sizes = Array.from({ length: 49 }, (_, i) => 1e3 * 10 ** (i / 8)).filter((s) => s <= n);
    const nStar = core.crossoverSize(a, beta);
    out.innerHTML = `${plural(count, "message")} of ${formatBytes(b)}: <strong>${formatSeconds(time(b))}</strong>, ` +
      `of which latency (G/b)·α = ${formatSeconds((n / b) * a)}; floor β·G = ${formatSeconds(beta * n)}. ` +
      `Each bucket reaches ${pct(core.effectiveBandwidth(a, beta, b) * beta)} of the bandwidth (n* = ${formatBytes(nStar)}).`;
    chart.update({
      datasets: [
        { label: "T(b) = (G/b)·α + β·G", data: sizes.map((s) => ({ x: s, y: time(s) })) },
        { label: "floor β·G", data: [{ x: 1e3, y: beta * n }, { x: n, y: beta * n }], dashed: true },
        { label: "your bucket", data: [{ x: b, y: time(b) }], points: true },
      ],
      verticalLines: [{ x: nStar, label: "n*" }, ...(MIB25 <= n ? [{ x: MIB25, label: "25 MiB (DDP)" }] : [])],
    });
    describeChart(figure, `Sending ${formatBytes(n)} in buckets: tiny buckets pay α per bucket, buckets much larger than ` +
      `n* = ${formatBytes(nStar)} approach the floor ${formatSeconds(beta * n)}.`,
    [["bucket", "messages", "total time"], ...[1e3, 1e4, 1e5, 1e6, MIB25, 1e8].filter((s) => s <= n)
      .map((s) => [formatBytes(s), formatCount(Math.ceil(n / s)), formatSeconds(time(s))])]);
  }
  draw();
}
