// exercise_code.js — the body of a code exercise: the learner's SPMD program runs on real Workers.
//
// Run executes it once on a sample case and shows each rank's output and the timeline. Check draws fresh
// cases (other rank counts and inputs), runs each, and hands the RunResult to the exercise's checker,
// which inspects the recorded trace and results — never the program's own claims. A run can be stopped; its
// Workers are its own (cluster_pool.js), so a widget or the lab running meanwhile is not disturbed.
import { createEditor } from "../ui/editor.js";
import { hashString } from "../storage/progress.js";
import { saveSoon } from "../storage/save_soon.js";
import { mountSolutionView } from "./solution_view.js";
import { exerciseRng } from "./random.js";
import { describeEntry, describePass, judgePlan } from "./judge_plan.js";
import { renderTimeline } from "../ui/timeline.js";
import { describeFailure, renderRankLogs } from "../ui/run_output.js";
import { stepLines } from "../ui/step_lines.js";
import { stoppedLines } from "../cluster/rank_lines.js";
import { formatSeconds, plural } from "../units.js";
import { watchdogBudget } from "./watchdog_budget.js";

const make = (tag, attrs = {}, text = "") => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
};
// What ended a run that did not finish, for its timeline's summary: { what, waiting } (null: it finished).
function stoppedRun(result) {
  if (result.status === "timeout" && result.timeout) {
    return { what: `the watchdog stopped it after ${formatSeconds(result.timeout.ms / 1000)}`, waiting: result.timeout.blocked ?? [] };
  }
  if (result.status === "deadlock" && result.deadlock) {
    return { what: "a deadlock", waiting: (result.deadlock.waits ?? []).map((w) => w.rank).sort((a, b) => a - b) };
  }
  if (result.status === "ok") return null;
  return { what: result.status === "stopped" ? "it was stopped" : "a rank failed", waiting: [] };
}

export function mountCode(ctx) {
  const { exercise, progress, clusters, body } = ctx;
  const starterHash = hashString(exercise.starter);
  const saved = ctx.record();
  const editorBox = make("div", { class: "editor" });
  const notice = make("div", { class: "notice info", hidden: "" });
  const buttons = make("div", { class: "button-row" });
  const run = make("button", { type: "button" }, "Run");
  const step = make("button", { type: "button", class: "secondary" }, "Step");   // step_through.js
  const check = make("button", { type: "button" }, "Check");
  const stop = make("button", { type: "button", class: "secondary", hidden: "" }, "Stop");
  const reset = make("button", { type: "button", class: "secondary" }, "Reset to starter");
  buttons.append(run, step, check, stop, reset, make("span", { class: "kbd-hint" }, "Ctrl/⌘-Enter runs · Esc then Tab leaves the editor"));
  const status = make("p", { class: "run-status", role: "status", "aria-live": "polite" });
  const output = make("div", { class: "run-output" });
  const stepBox = make("div");
  body.append(notice, editorBox, buttons, status, stepBox, output);

  const saveCode = saveSoon((code) => progress.update(exercise.id, { code, starterHash }));
  const editor = createEditor(editorBox, {
    doc: saved.code ?? exercise.starter,
    label: `Code for exercise: ${exercise.title}`,
    onRun: () => run.click(),
    onChange: saveCode,
  });
  const solution = mountSolutionView({ exercise, progress, editor, before: editorBox, after: buttons });

  // A new version of the course changed this starter: keep the learner's code, offer the new starter.
  if (saved.code !== undefined && saved.starterHash && saved.starterHash !== starterHash && saved.code !== exercise.starter) {
    notice.innerHTML = "The starter code of this exercise changed since you last worked on it. Your code is kept. ";
    const load = make("button", { type: "button", class: "secondary" }, "Load the new starter (undo with Ctrl-Z)");
    load.addEventListener("click", () => { editor.value = exercise.starter; notice.hidden = true; });
    notice.append(load);
    notice.hidden = false;
  }

  // Where a deadlocked or stopped run's ranks waited, marked as Step marks its ranks' lines (cleared by the next run).
  const stopMarks = stepLines(editor);
  const markStopped = (result) => {
    const lines = stoppedLines(result);
    if (lines.length) stopMarks.show(lines, lines[0].rank);
  };

  // The step-through, loaded when first wanted (it brings a JavaScript parser).
  let stepping = null;
  const stepThrough = () => (stepping ??= import("./step_through.js")
    .then((m) => m.mountStepThrough({ exercise, editor, clusters, box: stepBox })));

  let busy = false;
  let stopper = null;   // AbortController of the run in progress
  // Runs the learner's program on a cluster of its own (runs on this page never share Workers).
  // `how`: { delivery, sendMode } — the judge's interleaving and send semantics for this case.
  async function execute(testCase, label, how = {}) {
    const timeoutMs = watchdogBudget(exercise);   // from the reference's own run time, not a fixed 30 s
    let started = null;
    const tick = () => {
      if (started === null) { status.textContent = `${label}Starting ${testCase.ranks} Workers…`; return; }
      const left = Math.max(0, (timeoutMs - (performance.now() - started)) / 1000);
      status.textContent = `${label}Running on ${testCase.ranks} Workers… the watchdog stops it in ${left.toFixed(1)} s.`;
    };
    tick();
    const timer = setInterval(tick, 100);
    try {
      // An exercise that has the learner write one piece of a larger program (the lab's trainer) composes it; the
      // learner's code comes first, so errors are reported at the editor's lines (learnerLines).
      const code = exercise.program ? exercise.program(editor.value) : editor.value;
      return await clusters.run(testCase.ranks, code, {
        inputs: testCase.inputs, timeoutMs, signal: stopper.signal, ...how, marks: true,
        learnerLines: exercise.program ? editor.value.split("\n").length : null,
        onStart: () => { started = performance.now(); tick(); },
      });
    } finally {
      clearInterval(timer);
    }
  }

  function show(result, testCase) {
    const logs = make("div", { class: "rank-logs" });
    renderRankLogs(logs, result, { summarize: exercise.summarizeResult ?? null });
    output.replaceChildren(logs);
    // (code that does not parse ran on no rank: what the Workers recorded is their start, not the learner's run)
    if (result.spans?.length && !result.error?.syntax) {
      const timeline = make("div", { class: "timeline" });
      output.append(timeline);
      renderTimeline(timeline, result.spans, { ranks: testCase.ranks, title: "What each Worker did (measured)",
        stopped: stoppedRun(result) });
    }
  }

  async function guarded(action) {
    if (busy) return;
    busy = true;
    stopper = new AbortController();
    run.disabled = check.disabled = true;
    stop.hidden = false;
    output.replaceChildren();   // the previous run's output and timeline describe another run
    stepping?.then((s) => s.close());
    stopMarks.clear();
    ctx.setVerdict(null, "");
    try { await action(); } catch (err) {
      ctx.setVerdict(false, `The runtime failed: ${escapeHtml(err.message)}`);
    } finally {
      busy = false;
      stopper = null;
      run.disabled = check.disabled = false;
      stop.hidden = true;
    }
  }

  const runOnce = () => guarded(async () => {
    const [{ testCase }] = judgePlan(exercise, exerciseRng(progress.seed, exercise.id, 0), 0);
    const result = await execute(testCase, "");
    status.textContent = `Finished (${result.status}) in ${formatSeconds(result.elapsedMs / 1000)} on ${plural(testCase.ranks, "Worker")}.`;
    show(result, testCase);
    if (result.status !== "ok") ctx.setVerdict(false, describeFailure(result));
    else ctx.setVerdict(null, "Ran to completion. Press <strong>Check</strong> to test it on fresh inputs.");
    if (result.error?.line) highlightLine(editor, result.error.line);
    markStopped(result);
  });

  // A Check is the judge's plan (judge_plan.js): every case under seeded delivery orders, once with synchronous
  // sends, then hidden edge cases. The checker sees every run, finished or not: it names mistakes a bare
  // "deadlock" or "error" would hide (a ring running backwards before it deadlocked, an await on a sync send).
  const checkAll = () => guarded(async () => {
    const attempt = (ctx.record().attempts ?? 0) + 1;
    const plan = judgePlan(exercise, exerciseRng(progress.seed, exercise.id, attempt), attempt);
    const verdicts = [];
    for (const [i, entry] of plan.entries()) {
      const where = describeEntry(entry, i, plan.length);
      const result = await execute(entry.testCase, where, { delivery: entry.delivery, sendMode: entry.sendMode });
      if (entry.hidden) output.replaceChildren();   // a hidden case shows its verdict, not its inputs
      else show(result, entry.testCase);
      if (result.status === "stopped") {
        status.textContent = "Stopped.";
        ctx.setVerdict(null, "Check stopped. Press <strong>Check</strong> to start again.");
        return;
      }
      const verdict = exercise.check(result, entry.testCase, ctx.core);
      if (!verdict.pass) {
        status.textContent = `Case ${i + 1} of ${plan.length} failed.`;
        ctx.attempt(false, { code: editor.value, starterHash });
        ctx.setVerdict(false, where + verdict.message);
        if (!entry.hidden) stepThrough().then((s) => s.offer(entry, verdict.message));
        if (result.error?.line) highlightLine(editor, result.error.line);
        if (!entry.hidden) markStopped(result);
        return;
      }
      verdicts.push(verdict);
    }
    status.textContent = `All ${plural(plan.length, "run")} passed.`;
    ctx.attempt(true, { code: editor.value, starterHash });
    ctx.setVerdict(true, describePass(plan, verdicts));
  });

  run.addEventListener("click", runOnce);
  step.addEventListener("click", () => {
    if (busy) return;
    const [{ testCase }] = judgePlan(exercise, exerciseRng(progress.seed, exercise.id, 0), 0);
    stepThrough().then((s) => s.start(testCase));
  });
  stop.addEventListener("click", () => stopper?.abort());
  check.addEventListener("click", checkAll);
  reset.addEventListener("click", () => {
    editor.value = exercise.starter;
    ctx.setVerdict(null, "Starter code restored. Your previous code is one Ctrl-Z away.");
  });

  return {
    kind: "code",
    get code() { return editor.value; },
    setCode(text) { editor.value = text; },
    run: runOnce,
    check: checkAll,
    showSolution() { solution.show(); },
  };
}

const escapeHtml = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

function highlightLine(editor, line) {
  const doc = editor.view.state.doc;
  if (line < 1 || line > doc.lines) return;
  const { from, to } = doc.line(line);
  editor.view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
}
