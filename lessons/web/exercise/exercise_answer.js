// exercise_answer.js — the body of numeric, predict-then-run and choice exercises.
import { withinTolerance } from "./answer_check.js";
import { renderTimeline } from "../ui/timeline.js";
import { formatSI, formatSeconds, parseQuantity } from "../units.js";

let uid = 0;
const make = (tag, attrs = {}, text = "") => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
};

export function mountAnswer(ctx) {
  return ctx.exercise.kind === "choice" ? mountChoice(ctx) : mountNumeric(ctx);
}

// Explains a wrong number by the mistakes learners actually make: units off by 10^3, 2^10 or 8.
function diagnose(got, want) {
  const ratio = got / want;
  const near = (r) => Math.abs(ratio / r - 1) < 0.02;
  for (const [r, why] of [[1e3, "1000× too large"], [1e-3, "1000× too small"], [1e6, "10⁶× too large"],
    [1e-6, "10⁻⁶ of the answer"], [1024 / 1000, "off by 1024/1000 — this course uses SI units (1 KB = 1000 B)"],
    [1000 / 1024, "off by 1000/1024 — this course uses SI units (1 KB = 1000 B)"], [8, "8× too large (bits vs bytes?)"],
    [1 / 8, "8× too small (bits vs bytes?)"], [2, "2× too large"], [0.5, "half the answer"]]) {
    if (near(r)) return `Your answer is ${why}: check the units and the formula.`;
  }
  return `Your answer is ${ratio > 1 ? "too large" : "too small"} (off by ${formatSI(Math.abs(ratio - 1) * 100, "", 2)}%).`;
}

function mountNumeric(ctx) {
  const { exercise, params, core, body } = ctx;
  const id = `answer-${exercise.id}-${uid++}`;
  const form = make("form", { class: "answer-form" });
  const label = make("label", { for: id }, `Your answer${exercise.unit ? ` (${exercise.unit})` : ""}`);
  const input = make("input", { id, type: "text", inputmode: "decimal", autocomplete: "off", spellcheck: "false" });
  const check = make("button", { type: "submit" }, exercise.kind === "predict" ? "Lock in prediction" : "Check");
  form.append(label, input, check);
  body.append(form);
  input.value = ctx.record().answer ?? "";

  let runButton = null;
  const runOut = make("div", { class: "predict-run" });
  if (exercise.kind === "predict" && exercise.scenario) {
    runButton = make("button", { type: "button", class: "secondary", disabled: "" }, "Run the simulation");
    runButton.addEventListener("click", () => {
      const scenario = exercise.scenario(params, core);
      const result = core.simulate(scenario);
      runOut.replaceChildren(make("p", {}, `Simulated time: ${formatSeconds(result.makespan)} ` +
        `(${result.messages.length} messages, ${formatSI(result.totalBytes, "B")}).`));
      const chart = make("div", { class: "timeline" });
      runOut.append(chart);
      renderTimeline(chart, result.spans, { ranks: scenario.ranks, title: "Simulated per-rank timeline" });
    });
    body.append(runButton, runOut);
  }

  const expected = () => exercise.answer(params, core);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const got = parseQuantity(input.value);
    if (!Number.isFinite(got)) {
      ctx.setVerdict(false, "Enter a number, for example <code>62500</code>, <code>6.25e4</code> or <code>62.5k</code>.");
      return;
    }
    const want = expected();
    const pass = withinTolerance(got, want, exercise.tolerance ?? { rel: 0.01 });
    ctx.attempt(pass, { answer: input.value });
    ctx.setVerdict(pass, pass
      ? `${formatSI(got, exercise.unitSymbol ?? "")} matches the core's ${formatSI(want, exercise.unitSymbol ?? "")}.`
      : diagnose(got, want));
    if (runButton) runButton.disabled = false;
  });
  return {
    kind: "numeric",
    expected,
    setAnswer(text) { input.value = String(text); },
    submit() { form.requestSubmit(); },
    showSolution() { input.value = String(Number(expected().toPrecision(6))); },
  };
}

function mountChoice(ctx) {
  const { exercise, body } = ctx;
  const multiple = exercise.options.filter((o) => o.correct).length > 1;
  const form = make("form", { class: "choice-form" });
  const fieldset = make("fieldset");
  fieldset.append(make("legend", {}, multiple ? "Choose every correct option" : "Choose one option"));
  const name = `choice-${exercise.id}-${uid++}`;
  const inputs = exercise.options.map((option, i) => {
    const row = make("div", { class: "choice-option" });
    const input = make("input", { type: multiple ? "checkbox" : "radio", name, id: `${name}-${i}`, value: String(i) });
    const label = make("label", { for: `${name}-${i}` });
    label.innerHTML = option.text;
    const why = make("div", { class: "choice-why", hidden: "" });
    row.append(input, label, why);
    fieldset.append(row);
    return { input, why, option };
  });
  const saved = ctx.record().answer;
  if (Array.isArray(saved)) saved.forEach((i) => { if (inputs[i]) inputs[i].input.checked = true; });
  form.append(fieldset, make("button", { type: "submit" }, "Check"));
  body.append(form);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = inputs.flatMap(({ input }, i) => (input.checked ? [i] : []));
    if (!chosen.length) { ctx.setVerdict(false, "Choose an option first."); return; }
    const pass = inputs.every(({ input, option }) => input.checked === Boolean(option.correct));
    inputs.forEach(({ input, why, option }) => {
      why.hidden = !input.checked && !(pass && option.correct);
      why.innerHTML = option.why ?? "";
    });
    ctx.attempt(pass, { answer: chosen });
    const missed = inputs.filter(({ input, option }) => option.correct && !input.checked).length;
    ctx.setVerdict(pass, pass ? "See why each choice holds below."
      : missed ? "Read the explanation under each option you chose; at least one correct option is not selected."
        : "Read the explanation under each option you chose.");
  });
  return {
    kind: "choice",
    choose(indices) { inputs.forEach(({ input }, i) => { input.checked = indices.includes(i); }); },
    submit() { form.requestSubmit(); },
    showSolution() { inputs.forEach(({ input, option }) => { input.checked = Boolean(option.correct); }); },
  };
}
