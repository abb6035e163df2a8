// compression_wire.js — widget "compression-wire": what one worker sends per step for a 134 MB gradient
// (compression_setup.BIG_MODEL), for each compressor on the collective it needs — ring all-reduce for the linear
// codes, all-gather for the rest — against the number of workers, and the closed-form time on the chosen network
// (compression_setup.wire → core.compressionWire; closed forms, fast enough for the page).
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatBytes, formatCount, formatSeconds } from "../../../web/units.js";
import { NETWORKS, WIRE_WORKERS, wire } from "../compression_setup.js";

export function mountCompressionWire(figure, core) {
  const network = select({ label: "Network", options: Object.entries(NETWORKS).map(([k, n]) => [k, n.label]), value: "infiniband", onChange: draw });
  const measure = select({ label: "Show", options: [["bytes", "bytes per worker"], ["seconds", "time per step"]], value: "bytes", onChange: draw });
  const workers = slider({ label: "Workers P", min: 2, max: 256, value: 64, log: true, integer: true, format: (p) => String(Math.round(p)), onInput: draw });
  controlRow(figure, network, measure, workers);
  const out = readout(figure);
  const canvas = chartBox(figure, "Bytes or seconds per step against the number of workers, for each compressor on its collective");
  const chart = createLineChart(canvas, { xLabel: "workers P", yLabel: "bytes sent per step", logX: true, logY: true, datasets: [] });
  const decade = (v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;

  function draw() {
    const P = Math.round(workers.value);
    const sizes = [...new Set([...WIRE_WORKERS, P])].sort((a, b) => a - b);
    const w = wire(core, { network: network.value, workers: sizes });
    const value = (row) => (measure.value === "bytes" ? row.bytes : row.seconds);
    const fmt = measure.value === "bytes" ? formatBytes : formatSeconds;
    chart.chart.options.scales.y.title.text = measure.value === "bytes" ? "bytes sent per step" : "communication time per step";
    chart.chart.options.scales.y.ticks.callback = (v) => (decade(v) ? fmt(v) : "");
    chart.update({
      datasets: [
        { label: "full (ring all-reduce)", dashed: true, data: w.none.map((r) => ({ x: r.workers, y: value(r) })) },
        ...w.series.map((s) => ({ label: s.label, data: s.rows.map((r) => ({ x: r.workers, y: value(r) })) })),
      ],
      verticalLines: [{ x: P, label: `P = ${P}` }],
    });
    const at = (rows) => rows.find((r) => r.workers === P);
    const none = at(w.none);
    const items = w.series.map((s) => { const r = at(s.rows); return `${s.label} ${fmt(value(r))} (${r.composes ? "all-reduce" : "all-gather"})`; });
    out.innerHTML = `At P = ${formatCount(P)} the full gradient's ring all-reduce takes <strong>${fmt(value(none))}</strong> per worker and step;
      ${items.join("; ")}.`;
    describeChart(figure, `The all-gathered compressors grow with P; the all-reduced ones stay flat.`,
      [["P", "full", ...w.series.map((s) => s.label)], ...sizes.map((p, i) => [String(p), fmt(value(w.none[i])), ...w.series.map((s) => fmt(value(s.rows[i])))])]);
  }
  draw();
}
