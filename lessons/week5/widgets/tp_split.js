// tp_split.js — widget "tp-split" (section #tensor): one MLP block's forward communication under tensor parallelism over t
// GPUs, priced by core.collectiveCost (ring): a bare column split that all-gathers H (tokens × F) against Megatron's
// pair, one all-reduce of Y (tokens × D); on the link the learner picks, for t = 2 … 64.
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatBytes, formatRatio, formatSeconds } from "../../../web/units.js";
import { NETWORK, NVLINK, TP_EXAMPLE, tpCollectives } from "../scale_setup.js";
import { LINKS as HARDWARE_LINKS } from "../../../web/hardware.js";

// The links by the labels web/hardware.js gives them (the sustained NVLink figure, the NIC's datasheet rate).
const LINKS = { nvlink: [HARDWARE_LINKS.nvlink.label, NVLINK], ib: [HARDWARE_LINKS.infiniband.label, NETWORK] };
const TS = [2, 4, 8, 16, 32, 64];

export function mountTpSplit(figure, core) {
  const link = select({ label: "Link", value: "nvlink", options: Object.entries(LINKS).map(([k, [name]]) => [k, name]), onChange: draw });
  const width = select({ label: "Width D", value: String(TP_EXAMPLE.width), options: [1024, 4096, 12288].map((d) => [String(d), String(d)]), onChange: draw });
  controlRow(figure, link, width);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "Communication per block forward against the tensor-parallel degree t"),
    { xLabel: "tensor-parallel GPUs t", yLabel: "time (s)", logX: true, datasets: [] });

  function draw() {
    const net = LINKS[link.value][1], D = Number(width.value);
    const at = (t) => tpCollectives(core, { ...TP_EXAMPLE, width: D, hidden: 4 * D, t }, net);
    const rows = TS.map((t) => ({ t, ...at(t) }));
    chart.update({ datasets: [
      { label: "column split: all-gather of H", data: rows.map((r) => ({ x: r.t, y: r.gather })) },
      { label: "Megatron: all-reduce of Y", data: rows.map((r) => ({ x: r.t, y: r.reduce })) },
    ], verticalLines: [{ x: 8, label: "one node" }] });
    const r8 = rows[2];
    out.innerHTML = `t = 8, D = ${D}, ${TP_EXAMPLE.tokens} tokens in bf16: all-gather of H (${formatBytes(r8.gatherBytes)}) ` +
      `<strong>${formatSeconds(r8.gather)}</strong>; all-reduce of Y (${formatBytes(r8.reduceBytes)}) <strong>${formatSeconds(r8.reduce)}</strong> — ` +
      `${formatRatio(r8.gather / r8.reduce, { digits: 2 })} less. A transformer layer has four such all-reduces per step (two forward, two backward).`;
    describeChart(figure, "Megatron's one all-reduce of the block's output beats gathering the hidden activations at every t.",
      [["t", "all-gather H", "all-reduce Y"], ...rows.map((r) => [r.t, formatSeconds(r.gather), formatSeconds(r.reduce)])]);
  }
  draw();
}
