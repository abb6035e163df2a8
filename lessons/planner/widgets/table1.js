// table1.js — widget "table1": Narayanan et al. 2021, Table 1, each published run beside the planner's prediction
// (core.planStep on the row's layout: A100s, b = 1, v = 1, full recomputation — planner_setup.js publishedSettings),
// the relative error of each and their mean and worst, and a button per row that loads it into the "planner" widget.
import { formatCount, formatNumber } from "../../../web/units.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { loadIntoPlanner, presets, publishedSettings, table1Errors } from "../planner_setup.js";

export function mountTable1(figure, core) {
  const rows = presets(core).table1;
  const { predicted, errors, mean, worst } = table1Errors(core);
  const table = document.createElement("table");
  table.className = "planner-table1";
  table.innerHTML = `<caption>Narayanan et al. 2021, Table 1: achieved TFLOP/s per A100, published and predicted</caption>
    <thead><tr><th scope="col">row</th><th scope="col">model</th><th scope="col">t</th><th scope="col">p</th>
    <th scope="col">GPUs</th><th scope="col">batch</th><th scope="col">published</th><th scope="col">planner</th>
    <th scope="col">error</th><th scope="col"><span class="visually-hidden">load</span></th></tr></thead>`;
  const body = document.createElement("tbody");
  rows.forEach((row, i) => {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${i + 1}</td><td><code>${row.model}</code></td><td>${row.t}</td><td>${row.p}</td>
      <td>${formatCount(row.gpus)}</td><td>${formatCount(row.globalBatch)}</td><td>${row.tflopsPerGpu}</td>
      <td data-out="predicted">${formatNumber(predicted[i])}</td>
      <td data-out="error">${errors[i] >= 0 ? "+" : "−"}${formatNumber(Math.abs(100 * errors[i]), { digits: 2 })}%</td>`;
    const load = document.createElement("button");
    load.type = "button";
    load.textContent = "Load";
    load.setAttribute("aria-label", `Load row ${i + 1}, ${row.model}, into the planner`);
    load.addEventListener("click", () => {
      loadIntoPlanner(publishedSettings(row));
      document.querySelector('[data-widget="planner"]')?.scrollIntoView({ block: "start" });
    });
    const td = document.createElement("td");
    td.append(load);
    tr.append(td);
    body.append(tr);
  });
  table.append(body);
  const box = document.createElement("div");
  box.className = "scroll-x";
  box.append(table);
  const summary = document.createElement("p");
  summary.className = "widget-output";
  summary.innerHTML = `Mean |error| <strong data-out="mean">${formatNumber(100 * mean, { digits: 2 })}%</strong>,
    worst <strong data-out="worst">${formatNumber(100 * worst, { digits: 2 })}%</strong> (row ${errors.findIndex((e) =>
    Math.abs(e) === worst) + 1}), with one pair of efficiencies for every row.`;
  const chartBox = document.createElement("div");
  chartBox.className = "chart";
  const canvas = document.createElement("canvas");
  chartBox.append(canvas);
  figure.prepend(box, summary, chartBox);
  // Published and predicted against model size: the rise from the small models to the large is what a constant
  // rate would miss.
  const billions = rows.map((r) => r.billions);
  createLineChart(canvas, { xLabel: "parameters (billions)", yLabel: "TFLOP/s per GPU", logX: true,
    ariaLabel: "Achieved TFLOP/s per A100 against model size, published and predicted", datasets: [
      { label: "published (Table 1)", data: rows.map((r, i) => ({ x: billions[i], y: r.tflopsPerGpu })), points: true, line: false },
      { label: "planner", data: rows.map((r, i) => ({ x: billions[i], y: predicted[i] })), points: true },
    ] });
  describeChart(figure, `Published TFLOP/s per GPU rise from ${rows[0].tflopsPerGpu} (${billions[0]}B) to
    ${rows.at(-1).tflopsPerGpu} (${billions.at(-1)}B); the planner predicts ${formatNumber(predicted[0])} and
    ${formatNumber(predicted.at(-1))}.`.replace(/\s+/g, " "),
  [["parameters (billions)", "published", "planner"], ...rows.map((r, i) => [billions[i], r.tflopsPerGpu, formatNumber(predicted[i])])]);
}
