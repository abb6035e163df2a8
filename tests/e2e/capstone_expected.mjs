// capstone_expected.mjs — what Week 6's capstone report must show for given settings, computed by the Node build of
// the core (capstone_setup.report, as the page's Worker runs it) in a worker thread, so that it runs while the page
// computes the same report instead of after it (tests/e2e/week6_capstone.test.mjs).
//   const want = expectedReports([settingsA, settingsB]);   // starts at once; await want[0] when needed
import { createRequire } from "node:module";
import { formatCount } from "../../web/units.js";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { FORMAT, findings, report, targetReport } from "../../lessons/week6/capstone_setup.js";
import { targetSummary } from "../../lessons/week6/widgets/capstone_target.js";

// The report's cells as the page formats them, its findings, and the report itself.
function expected(core, settings) {
  const r = report(core, settings), f = FORMAT;
  return {
    cells: { wall: f.time(r.wall), efficiency: f.percent(r.efficiency), failures: String(r.failures), fleetMtbf: f.time(r.fleetMtbf),
      bytesPerStep: f.bytes(r.bytesPerStep), bytesPerWorker: f.bytes(r.bytesPerWorker), stepCompute: f.time(r.stepCompute),
      stepComm: f.time(r.stepComm), finalLoss: f.number(r.losses.at(-1)), expectedWall: f.time(r.expectedWall) },
    findings: findings(r),
    r,
    target: targetCells(targetReport(core, settings), r),
  };
}

// The time-to-target block's rows as the page writes them (widgets/capstone_target.js), its sentence and best P.
function targetCells(t, job) {
  const rows = t.points.map((p, i) => ({ workers: String(p.workers) + (i === t.best ? " (best)" : ""),
    steps: p.reached ? formatCount(p.steps) : `cap (${formatCount(p.steps)})`, wall: p.reached ? FORMAT.time(p.wall) : "not reached" }));
  return { rows, summary: targetSummary(t, FORMAT, job), best: t.best < 0 ? null : t.points[t.best].workers, t };
}

// One promise per settings object, resolved in order by one worker thread.
export function expectedReports(settingsList) {
  const worker = new Worker(new URL(import.meta.url), { workerData: settingsList });
  const waiting = settingsList.map(() => { let ok, fail; const p = new Promise((a, b) => { ok = a; fail = b; }); return { p, ok, fail }; });
  let next = 0;
  worker.on("message", (value) => waiting[next++].ok(value));
  worker.on("error", (err) => waiting.slice(next).forEach((w) => w.fail(err)));
  worker.unref();
  for (const w of waiting) w.p.catch(() => {});   // a failure is reported where the test awaits it
  return waiting.map((w) => w.p);
}

if (!isMainThread) {
  const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
  for (const settings of workerData) parentPort.postMessage(expected(core, settings));
}
