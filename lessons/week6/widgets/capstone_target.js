// capstone_target.js — the capstone report's time-to-target block (capstone_setup.targetReport → core.jobTargetScaling):
// the wall-clock to the loss target against P and the steps it took, the fastest P marked on both charts and in the
// table, printed with the rest of the report. A point whose run hit the step cap first is said, not drawn as reached.
import { formatCount, formatNumber } from "../../../web/units.js";
import { FORMAT, taskName } from "../capstone_setup.js";
import { lineChart } from "./report_svg.js";

const h = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
};

// The sentence above the block: what was trained, how, and what came out.
export function targetSummary(t, fmt = FORMAT) {
  const s = t.settings, best = t.points[t.best];
  const how = s.mode === "ssp"
    ? `asynchronously, SSP with staleness bound s = ${s.staleness} through P parameter-server shards (whole gradients, no compression)`
    : "synchronously (the job above: ring all-reduce, its compressor)";
  const head = `Trained to a held-out loss of ${fmt.number(s.targetLoss)} on the ${taskName(s.task)} teacher task (${s.taskRows} rows per GPU), ${how}, at most ${formatCount(s.steps)} steps.`;
  if (!best) return `${head} No P reached the target within the cap.`;
  const missed = t.points.filter((p) => !p.reached).map((p) => p.workers);
  return `${head} Soonest on P = ${best.workers}: ${formatCount(best.steps)} steps, ${fmt.time(best.wall)} expected with failures and checkpoints.` +
    (missed.length ? ` P = ${missed.join(", ")} hit the cap first.` : "");
}

export function targetBlock(t) {
  const pts = t.points, best = pts[t.best];
  const reached = pts.filter((p) => p.reached);
  const bestSeries = (y) => (best ? [{ label: `best: P = ${best.workers}`, dots: true, points: [[best.workers, y(best)]] }] : []);
  const axis = { xLabel: "GPUs P", logX: true, xTicks: pts.map((p) => p.workers), xFormat: (v) => String(v) };
  const wallChart = lineChart({ title: "Wall-clock to the target against P", yLabel: "seconds", ...axis, yMin: 0,
    series: [{ label: "wall-clock", dots: true, points: reached.map((p) => [p.workers, p.wall]) }, ...bestSeries((p) => p.wall)] });
  const stepsChart = lineChart({ title: "Steps to the target against P", yLabel: "steps", ...axis, yMin: 0,
    series: [{ label: "steps", dots: true, points: reached.map((p) => [p.workers, p.steps]) }, ...bestSeries((p) => p.steps)] });
  const f = FORMAT;
  const rows = pts.map((p, i) => h("tr", { class: i === t.best ? "is-best" : "", "data-workers": String(p.workers) },
    h("td", {}, i === t.best ? `${p.workers} (best)` : String(p.workers)),
    h("td", { "data-col": "steps" }, p.reached ? formatCount(p.steps) : `cap (${formatCount(p.steps)})`),
    h("td", { "data-col": "loss" }, formatNumber(p.loss)),
    h("td", { "data-col": "work" }, f.time(p.work)),
    h("td", { "data-col": "wall" }, p.reached ? f.time(p.wall) : "not reached"),
    h("td", { "data-col": "maxStaleness" }, String(p.maxStaleness))));
  const table = h("table", { class: "report-numbers report-target-table" },
    h("thead", {}, h("tr", {}, ...["P", "steps to target", "loss there", "time, no failures", "wall-clock to target", "stalest update"]
      .map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, ...rows));
  return h("div", { class: "report-target" },
    h("h4", {}, "Time to the target"),
    h("p", { class: "report-settings report-target-summary" }, targetSummary(t)),
    h("div", { class: "report-charts" }, wallChart, stepsChart),
    table);
}
