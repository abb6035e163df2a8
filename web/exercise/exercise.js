// exercise.js — renders a lesson's exercises (data, see lessons/weekN/exercises.js) and checks them.
//
// Shared parts live here: title and status, prompt, hints revealed one at a time, the verdict box, the
// reference solution behind a confirm (in a graded term's site, a line saying it is withheld), and progress.
// Each kind adds its own body:
//   numeric / predict / choice → exercise_answer.js        code → exercise_code.js
import { mountAnswer } from "./exercise_answer.js";
import { mountCode } from "./exercise_code.js";
import { exerciseParams } from "./judge_record.js";
import { SOLUTIONS } from "./solution_policy.js";

const KIND_LABEL = { numeric: "Numeric answer", predict: "Predict, then run", choice: "Choice", code: "Code on Workers" };

function element(tag, attrs = {}, html = "") {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (html) el.innerHTML = html;
  return el;
}

// Mounts every exercise into `container`. Returns a Map id → controller (also used by the page tests).
export function mountExercises(container, exercises, { core, progress, clusters }) {
  const controllers = new Map();
  exercises.forEach((exercise, index) => {
    const controller = mountOne(exercise, index + 1, { core, progress, clusters });
    container.append(controller.root);
    controllers.set(exercise.id, controller);
  });
  return controllers;
}

/** One exercise, numbered `number`: returns its controller (its root element is `controller.root`). */
export function mountOne(exercise, number, { core, progress, clusters }) {
  const root = element("article", { class: "exercise", id: `ex-${exercise.id}`, "data-kind": exercise.kind,
                                    "aria-labelledby": `ex-${exercise.id}-title` });
  const status = element("span", { class: "exercise-status" });
  const title = element("h3", { id: `ex-${exercise.id}-title` });
  title.append(`Exercise ${number}. ${exercise.title} `, status);
  const kind = element("p", { class: "exercise-kind" }, KIND_LABEL[exercise.kind] ?? exercise.kind);
  const prompt = element("div", { class: "exercise-prompt" });
  const body = element("div", { class: "exercise-body" });
  const verdict = element("div", { class: "verdict", role: "status", "aria-live": "polite" });
  const extras = element("div", { class: "exercise-extras" });
  root.append(title, kind, prompt, body, verdict, extras);

  const record = () => progress.get(exercise.id) ?? {};
  const params = exerciseParams(exercise, progress.seed);
  prompt.innerHTML = typeof exercise.prompt === "function" ? exercise.prompt(params) : exercise.prompt;

  const refreshStatus = () => {
    const solved = record().solved;
    status.textContent = solved ? "✓ solved" : "";
    root.classList.toggle("solved", Boolean(solved));
  };
  const ctx = {
    exercise, params, core, progress, clusters, body, record,
    setVerdict(pass, html) {
      verdict.className = `verdict ${pass === null ? "info" : pass ? "pass" : "fail"}`;
      verdict.innerHTML = pass === null ? html : `<strong>${pass ? "Correct." : "Not yet."}</strong> ${html}`;
    },
    attempt(pass, patch = {}) {
      const prev = record();
      progress.update(exercise.id, {
        ...patch, attempts: (prev.attempts ?? 0) + 1,
        ...(pass && !prev.solved ? { solved: true, solvedAt: new Date().toISOString() } : {}),
      });
      refreshStatus();
    },
  };
  const kindController = exercise.kind === "code" ? mountCode(ctx) : mountAnswer(ctx);

  extras.append(hintsBlock(exercise, ctx), solutionBlock(exercise, ctx, kindController));
  refreshStatus();
  // Object.assign keeps the kind controller's getters (e.g. `code`) live.
  return Object.assign(kindController, { root, exercise, params });
}

function hintsBlock(exercise, { record, progress }) {
  const hints = exercise.hints ?? [];
  const wrap = element("div", { class: "hints" });
  const list = element("ol", { class: "hint-list" });
  const button = element("button", { type: "button", class: "secondary" });
  let shown = Math.min(record().hintsShown ?? 0, hints.length);
  const render = () => {
    list.replaceChildren(...hints.slice(0, shown).map((h) => element("li", {}, h)));
    button.textContent = shown < hints.length ? `Show hint ${shown + 1} of ${hints.length}` : "All hints shown";
    button.disabled = shown >= hints.length;
  };
  button.addEventListener("click", () => {
    shown += 1;
    progress.update(exercise.id, { hintsShown: shown });
    render();
    list.lastElementChild?.setAttribute("tabindex", "-1");
    list.lastElementChild?.focus();
  });
  render();
  if (hints.length) wrap.append(button, list);
  return wrap;
}

function solutionBlock(exercise, ctx, kindController) {
  const wrap = element("div", { class: "solution" });
  if (SOLUTIONS === "withheld") {   // a graded term's site (scripts/withhold_solutions.mjs)
    wrap.append(element("p", { class: "solution-withheld" }, "Reference solutions are withheld this term: your "
      + "lecturer grades these exercises. The hints above are all there is."));
    return wrap;
  }
  const button = element("button", { type: "button", class: "secondary" }, "Show solution");
  const text = element("div", { class: "solution-text", hidden: "" });
  button.addEventListener("click", () => {
    if (!window.confirm("Show the reference solution? Trying once more with a hint is usually worth it.")) return;
    text.innerHTML = `<h4>Solution</h4>${exercise.solutionText ?? ""}`;
    text.hidden = false;
    kindController.showSolution?.();
    button.disabled = true;
  });
  wrap.append(button, text);
  return wrap;
}
