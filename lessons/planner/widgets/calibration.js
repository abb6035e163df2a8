// calibration.js — widget "calibration": the planner against three published tables (core.plannerValidation,
// dsml/planner_validation.h): Narayanan et al. 2021 Table 1 (A100, Megatron-LM) and llm-foundry's H100 BF16 and
// A100 80GB tables (MPT under FSDP). One chart of predicted against published utilisation for every row — the line
// y = x and the ±15 % band around it, the rows of a table a constant was fitted on marked "in sample" — then each
// table's rows with their error and the largest term of their step besides compute (mainTerm), Table 1's rows
// loadable into the planner widget, and the constants the predictions rest on with where each comes from.
import { formatCount, formatNumber, formatPercent, formatSI } from "../../../web/units.js";
import { chartBox } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { TABLE1, loadIntoPlanner, presets, signedPercent, table1Settings, validation } from "../planner_setup.js";

const BAND = 0.15;   // the band drawn around y = x: ±15 % of the published value

// A row's published or predicted value as a utilisation in per cent of the GPU's peak: Table 1 gives achieved
// TFLOP/s per GPU (hardware FLOPs, recomputation counted), llm-foundry gives MFU.
export function utilisation(core, table, value) {
  if (table.metric === "mfu") return 100 * value;
  const gpu = presets(core).gpus.find((g) => g.name === table.gpu);
  return (100 * value * 1e12) / gpu.peakFlops;
}
const metricName = (t) => (t.metric === "mfu" ? "MFU" : "TFLOP/s per GPU");
const shown = (t, v) => (t.metric === "mfu" ? formatPercent(v, { digits: 3 }) : formatNumber(v));
// Short names for the legend and the summaries (each table's full title is its rows' caption).
const SHORT = { [TABLE1]: "Table 1 (2021), A100", "llm-foundry-h100-bf16": "llm-foundry, H100",
  "llm-foundry-a100-80gb": "llm-foundry, A100" };
const tableName = (t) => `${SHORT[t.id] ?? t.title}${t.inSample ? " (in sample)" : ""}`;

function rowsTable(core, t) {
  const table = document.createElement("table");
  table.className = "planner-calibration";
  const loadable = t.id === TABLE1;
  table.innerHTML = `<caption>${t.title}${t.inSample ? " (in sample)" : ""}: ${metricName(t)}, published and
    computed by the planner (${t.source})</caption>
    <thead><tr><th scope="col">row</th><th scope="col">published</th><th scope="col">planner</th>
    <th scope="col">error</th><th scope="col">fits</th><th scope="col">largest term besides the matmuls</th>
    ${loadable ? '<th scope="col"><span class="visually-hidden">load</span></th>' : ""}</tr></thead>`;
  const body = document.createElement("tbody");
  const published = presets(core).table1;
  t.rows.forEach((r, i) => {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${r.label}</td><td>${shown(t, r.published)}</td><td data-out="predicted">${shown(t, r.predicted)}</td>
      <td data-out="error">${signedPercent(r.relativeError)}</td><td>${r.fits ? "yes" : "no"}</td><td>${r.mainTerm}</td>`;
    if (loadable && published[i]) {
      const load = document.createElement("button");
      load.type = "button";
      load.textContent = "Load";
      load.setAttribute("aria-label", `Load row ${i + 1}, ${published[i].model}, into the planner`);
      load.addEventListener("click", () => {
        loadIntoPlanner(table1Settings(core, i));
        document.querySelector('[data-widget="planner"]')?.scrollIntoView({ block: "start" });
      });
      const td = document.createElement("td");
      td.append(load);
      tr.append(td);
    }
    body.append(tr);
  });
  table.append(body);
  return table;
}

function constantsTable(constants) {
  const table = document.createElement("table");
  table.className = "planner-constants";
  table.innerHTML = `<caption>The constants every prediction rests on</caption>
    <thead><tr><th scope="col">constant</th><th scope="col">value</th><th scope="col">from</th>
    <th scope="col">fitted on</th></tr></thead>`;
  const body = document.createElement("tbody");
  for (const c of constants) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${c.name}</td><td>${c.unit ? formatSI(c.value, c.unit) : formatNumber(c.value)}</td>
      <td>${c.source}</td><td>${c.fittedOn || "—"}</td>`;
    body.append(tr);
  }
  table.append(body);
  return table;
}

const scroll = (el) => {
  const box = document.createElement("div");
  box.className = "scroll-x";
  box.append(el);
  return box;
};

export function mountCalibration(figure, core) {
  const { constants, tables } = validation(core);
  const summary = document.createElement("ul");
  summary.className = "planner-calibration-summary";
  for (const t of tables) {
    const li = document.createElement("li");
    li.setAttribute("data-out", t.id);
    const worst = t.rows.reduce((a, b) => (Math.abs(b.relativeError) > Math.abs(a.relativeError) ? b : a));
    li.innerHTML = `${tableName(t)}: mean |error| <strong>${formatPercent(t.meanAbsError, { digits: 2 })}</strong>,
      worst <strong>${formatPercent(t.worstAbsError, { digits: 2 })}</strong> (${worst.label}, ${worst.mainTerm}) over
      ${formatCount(t.rows.length)} rows.`;
    summary.append(li);
  }
  const canvas = chartBox(figure, "Planner against published utilisation for every row of the three tables, with y = x and a ±15% band");
  canvas.parentElement.classList.add("planner-calibration-chart");
  const points = tables.map((t) => t.rows.map((r) => ({ x: utilisation(core, t, r.published), y: utilisation(core, t, r.predicted) })));
  const xs = points.flat().flatMap((p) => [p.x, p.y]);
  const lo = Math.floor(Math.min(...xs) / (1 + BAND)), hi = Math.ceil(Math.max(...xs) * (1 + BAND));
  const line = (f) => [{ x: lo, y: f * lo }, { x: hi, y: f * hi }];
  const band = [...line(1 + BAND), { x: hi, y: null }, ...line(1 - BAND)];   // both edges, one legend entry
  createLineChart(canvas, { xLabel: "published (% of peak)", yLabel: "planner (% of peak)", datasets: [
    ...tables.map((t, i) => ({ label: tableName(t), data: points[i], points: true, line: false, radius: t.inSample ? 5 : 3 })),
    { label: "y = x", data: line(1), colorIndex: 5 },
    { label: `±${formatPercent(BAND, { digits: 2 })}`, data: band, dashed: true, colorIndex: 4 },
  ] });
  const details = tables.map((t) => {
    const d = document.createElement("details");
    d.open = t.id === TABLE1;
    const s = document.createElement("summary");
    s.textContent = `${tableName(t)}: every row`;
    d.append(s, scroll(rowsTable(core, t)));
    return d;
  });
  const fitted = constants.filter((c) => c.fittedOn);
  const held = document.createElement("details");
  const heldSummary = document.createElement("summary");
  heldSummary.textContent = `The constants every prediction rests on: ${formatCount(constants.length)}, of which
    ${formatCount(fitted.length)} fitted (${fitted.map((c) => `${c.name} on ${c.fittedOn}`).join("; ")})`.replace(/\s+/g, " ");
  held.append(heldSummary, scroll(constantsTable(constants)));
  figure.querySelector("figcaption").before(summary, canvas.parentElement, ...details, held);
  const within = (t) => t.rows.filter((r) => Math.abs(r.relativeError) <= BAND).length;
  describeChart(figure, `Planner against published utilisation, one point per row: ${tables.map((t) =>
    `${tableName(t)}, ${formatCount(within(t))} of ${formatCount(t.rows.length)} rows within ±${formatPercent(BAND,
      { digits: 2 })} (${formatCount(t.rows.filter((r) => r.relativeError > BAND).length)} above the band,
    ${formatCount(t.rows.filter((r) => r.relativeError < -BAND).length)} below)`).join("; ")}.`.replace(/\s+/g, " "),
  [["table", "row", "published (% of peak)", "planner (% of peak)", "error"],
    ...tables.flatMap((t, i) => t.rows.map((r, j) => [t.title, r.label, formatNumber(points[i][j].x),
      formatNumber(points[i][j].y), signedPercent(r.relativeError)]))]);
}
