// capstone_target.js — the capstone report's time-to-target block (capstone_setup.targetReport → core.jobTargetScaling):
// the wall-clock to the loss target against P and the steps it took, the fastest P marked on both charts and in the
// table, printed with the rest of the report. A point whose run hit the step cap first is said, not drawn as reached;
// when no P reaches the target, the loss each reached at the cap is drawn against the target instead.
import { formatCount, formatNumber } from "../../../web/units.js";
import { COMPRESSORS, FORMAT, taskName } from "../capstone_setup.js";
import { lineChart } from "./report_svg.js";

const h = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
};

// The sentence above the block: what was trained, how, and what came out. job: the job report above (its
// composesWithAllReduce says whether the compressed gradient still goes by all-reduce or, sparse, by all-gather).
export function targetSummary(t, fmt = FORMAT, job = null) {
  const s = t.settings, best = t.points[t.best];
  const how = s.mode === "ssp"
    ? `asynchronously, SSP with staleness bound s = ${s.staleness} through P parameter-server shards (whole gradients, no compression)`
    : `synchronously (the job above: ${syncExchange(s, job)})`;
  const head = `Trained to a held-out loss of ${fmt.number(s.targetLoss)} on the ${taskName(s.task)} teacher task (${s.taskRows} rows per GPU), ${how}, at most ${formatCount(s.steps)} steps.`;
  if (!best) {
    const losses = t.points.map((p) => p.loss).filter(Number.isFinite);
    const lowest = losses.length ? `the lowest loss after ${formatCount(s.steps)} steps was ${fmt.number(Math.min(...losses))}`
      : "every run diverged";
    return `${head} No P reached the target within the cap: ${lowest}. Allow more steps, or set a higher target.`;
  }
  const missed = t.points.filter((p) => !p.reached).map((p) => p.workers);
  return `${head} Soonest on P = ${best.workers}: ${formatCount(best.steps)} steps, ${fmt.time(best.wall)} expected with failures and checkpoints.` +
    (missed.length ? ` P = ${missed.join(", ")} hit the cap first.` : "");
}

// How the synchronous job exchanges its gradient: "ring all-reduce of the full gradient", "top-k by all-gather", …
function syncExchange(s, job) {
  if (s.compressor === "none") return "ring all-reduce of the full gradient";
  const name = COMPRESSORS[s.compressor];
  if (!job) return `the ${name} compressor`;
  return `${name}-compressed gradients by ${job.composesWithAllReduce ? "ring all-reduce" : "all-gather"}`;
}

export function targetBlock(t, job = null) {
  const pts = t.points, best = pts[t.best];
  const reached = pts.filter((p) => p.reached);
  if (!reached.length) return unreachedBlock(t, job);
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
    h("p", { class: "report-settings report-target-summary" }, targetSummary(t, FORMAT, job)),
    h("div", { class: "report-charts" }, wallChart, stepsChart),
    table);
}

// No P reached the target: what can be drawn is the loss each P reached at the cap, against the target's line.
function unreachedBlock(t, job) {
  const pts = t.points, target = t.settings.targetLoss;
  const chart = lineChart({ title: `Loss after ${formatCount(t.settings.steps)} steps against P`,
    yLabel: "held-out loss", xLabel: "GPUs P", logX: true, xTicks: pts.map((p) => p.workers), xFormat: (v) => String(v), yMin: 0,
    series: [{ label: "loss at the step cap", dots: true, points: pts.map((p) => [p.workers, p.loss]) },
      { label: `target ${formatNumber(target)}`, dashed: true, points: pts.map((p) => [p.workers, target]) }] });
  const rows = pts.map((p) => h("tr", { "data-workers": String(p.workers) },
    h("td", {}, String(p.workers)), h("td", { "data-col": "steps" }, `cap (${formatCount(p.steps)})`),
    h("td", { "data-col": "loss" }, formatNumber(p.loss)), h("td", { "data-col": "work" }, FORMAT.time(p.work)),
    h("td", { "data-col": "wall" }, "not reached"), h("td", { "data-col": "maxStaleness" }, String(p.maxStaleness))));
  const table = h("table", { class: "report-numbers report-target-table" },
    h("thead", {}, h("tr", {}, ...["P", "steps to target", "loss at the cap", "time, no failures", "wall-clock to target", "stalest update"]
      .map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, ...rows));
  return h("div", { class: "report-target report-target-unreached" },
    h("h4", {}, "Time to the target"),
    h("p", { class: "report-settings report-target-summary" }, targetSummary(t, FORMAT, job)),
    h("div", { class: "report-charts" }, chart),
    table);
}
