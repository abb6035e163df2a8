// table1.js — widget "table1": Narayanan et al. 2021, Table 1, each published run beside the planner's prediction
// (core.planStep on the row's layout: A100s, b = 1, v = 1, full recomputation), and a button that loads the row
// into the "planner" widget.
import { formatNumber } from "../../../web/units.js";
import { plan, presets, publishedSettings } from "../planner_setup.js";

export function mountTable1(figure, core) {
  const table = document.createElement("table");
  table.innerHTML = `<thead><tr><th>row</th><th>model</th><th>t</th><th>p</th><th>GPUs</th><th>batch</th>
    <th>published TFLOP/s</th><th>planner</th><th>error</th><th></th></tr></thead>`;
  const body = document.createElement("tbody");
  presets(core).table1.forEach((row, i) => {
    const s = publishedSettings(row);
    const r = plan(core, s);
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${i + 1}</td><td><code>${row.model}</code></td><td>${row.t}</td><td>${row.p}</td>
      <td>${row.gpus}</td><td>${row.globalBatch}</td><td>${row.tflopsPerGpu}</td>
      <td>${formatNumber(r.tflopsPerGpu)}</td><td>${formatNumber(100 * (r.tflopsPerGpu / row.tflopsPerGpu - 1))} %</td>`;
    const load = document.createElement("button");
    load.type = "button";
    load.textContent = "Load";
    load.setAttribute("aria-label", `Load row ${i + 1} into the planner`);
    load.addEventListener("click", () => document.dispatchEvent(new CustomEvent("planner:load", { detail: s })));
    const td = document.createElement("td");
    td.append(load);
    tr.append(td);
    body.append(tr);
  });
  table.append(body);
  const box = document.createElement("div");
  box.className = "scroll-x";
  box.append(table);
  figure.prepend(box);
}
