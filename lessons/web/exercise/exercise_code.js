// exercise_code.js — the body of a code exercise: the learner's SPMD program runs on real Workers.
//
// Run executes it once on a sample case and shows each rank's output and the timeline. Check draws fresh
// cases (other rank counts and inputs), runs each, and hands the RunResult to the exercise's checker,
// which inspects the recorded trace and results — never the program's own claims.
import { createEditor } from "../ui/editor.js";
import { hashString } from "../storage/progress.js";
import { saveSoon } from "../storage/save_soon.js";
import { mountSolutionView } from "./solution_view.js";
import { exerciseRng } from "./random.js";
import { renderTimeline } from "../ui/timeline.js";

const make = (tag, attrs = {}, text = "") => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
};
const escapeHtml = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// What went wrong in a run that did not finish, in words (the checker only sees finished runs).
export function describeFailure(run) {
  if (run.status === "timeout") return escapeHtml(run.timeout.message);
  if (run.status === "deadlock") return `Deadlock: ${escapeHtml(run.deadlock.message)}. Nothing is in flight, so no rank can continue.`;
  if (run.status === "error") {
    const where = run.error.line ? ` at line ${run.error.line}` : "";
    return `Rank ${run.error.rank} threw${where}: <code>${escapeHtml(run.error.message)}</code>`;
  }
  return "";
}

export function mountCode(ctx) {
  const { exercise, progress, clusters, body } = ctx;
  const starterHash = hashString(exercise.starter);
  const saved = ctx.record();
  const editorBox = make("div", { class: "editor" });
  const notice = make("div", { class: "notice info", hidden: "" });
  const buttons = make("div", { class: "button-row" });
  const run = make("button", { type: "button" }, "Run");
  const check = make("button", { type: "button" }, "Check");
  const reset = make("button", { type: "button", class: "secondary" }, "Reset to starter");
  buttons.append(run, check, reset, make("span", { class: "kbd-hint" }, "Ctrl/⌘-Enter runs · Esc then Tab leaves the editor"));
  const status = make("p", { class: "run-status", role: "status", "aria-live": "polite" });
  const output = make("div", { class: "run-output" });
  body.append(notice, editorBox, buttons, status, output);

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

  let busy = false;
  async function execute(testCase) {
    const cluster = await clusters.get(testCase.ranks);
    const timeoutMs = exercise.timeoutMs ?? 5000;
    const started = performance.now();
    const tick = () => {
      const left = Math.max(0, (timeoutMs - (performance.now() - started)) / 1000);
      status.textContent = `Running on ${testCase.ranks} Workers… the watchdog stops it in ${left.toFixed(1)} s.`;
    };
    tick();
    const timer = setInterval(tick, 100);
    try {
      // An exercise that has the learner write one piece of a larger program (the lab's trainer) composes it.
      const code = exercise.program ? exercise.program(editor.value) : editor.value;
      return await cluster.run(code, { inputs: testCase.inputs, timeoutMs });
    } finally {
      clearInterval(timer);
    }
  }

  function show(result, testCase) {
    output.replaceChildren();
    const logs = make("div", { class: "rank-logs" });
    result.logs.forEach((lines, rank) => {
      const pane = make("section", { class: "rank-log", "aria-label": `Rank ${rank} output` });
      pane.append(make("h4", {}, `rank ${rank}`));
      const ret = result.results?.[rank];
      const shown = [...lines, ...(ret !== undefined ? [`→ returned ${JSON.stringify(ret)?.slice(0, 200)}`] : [])];
      pane.append(make("pre", {}, shown.join("\n") || "(no output)"));
      logs.append(pane);
    });
    output.append(logs);
    if (result.spans?.length) {
      const timeline = make("div", { class: "timeline" });
      output.append(timeline);
      renderTimeline(timeline, result.spans, { ranks: testCase.ranks, title: "What each Worker did (measured)" });
    }
  }

  async function guarded(action) {
    if (busy) return;
    busy = true;
    run.disabled = check.disabled = true;
    try { await action(); } catch (err) {
      ctx.setVerdict(false, `The runtime failed: ${escapeHtml(err.message)}`);
    } finally {
      busy = false;
      run.disabled = check.disabled = false;
    }
  }

  const runOnce = () => guarded(async () => {
    const [testCase] = exercise.cases(exerciseRng(progress.seed, exercise.id, 0));
    const result = await execute(testCase);
    status.textContent = `Finished (${result.status}) in ${result.elapsedMs.toFixed(0)} ms on ${testCase.ranks} Workers.`;
    show(result, testCase);
    if (result.status !== "ok") ctx.setVerdict(false, describeFailure(result));
    else ctx.setVerdict(null, "Ran to completion. Press <strong>Check</strong> to test it on fresh inputs.");
    if (result.error?.line) highlightLine(editor, result.error.line);
  });

  const checkAll = () => guarded(async () => {
    const attempt = (ctx.record().attempts ?? 0) + 1;
    const cases = exercise.cases(exerciseRng(progress.seed, exercise.id, attempt));
    let last = null;
    for (const [i, testCase] of cases.entries()) {
      const result = await execute(testCase);
      show(result, testCase);
      const where = `Case ${i + 1} of ${cases.length} (${testCase.ranks} ranks): `;
      const verdict = result.status === "ok" ? exercise.check(result, testCase, ctx.core)
        : { pass: false, message: describeFailure(result) };
      if (!verdict.pass) {
        status.textContent = `Case ${i + 1} of ${cases.length} failed.`;
        ctx.attempt(false, { code: editor.value, starterHash });
        ctx.setVerdict(false, where + verdict.message);
        if (result.error?.line) highlightLine(editor, result.error.line);
        return;
      }
      last = verdict;
    }
    status.textContent = `All ${cases.length} cases passed.`;
    ctx.attempt(true, { code: editor.value, starterHash });
    ctx.setVerdict(true, `All ${cases.length} cases passed (ranks: ${cases.map((c) => c.ranks).join(", ")}). ${last?.message ?? ""}`);
  });

  run.addEventListener("click", runOnce);
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

function highlightLine(editor, line) {
  const doc = editor.view.state.doc;
  if (line < 1 || line > doc.lines) return;
  const { from, to } = doc.line(line);
  editor.view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
}
