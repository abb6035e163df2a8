// exercise_answer.js — the body of numeric, predict-then-run and choice exercises.
import { judgeAnswer, judgeChoice } from "./answer_check.js";
import { answerLabel } from "./answer_terms.js";
import { renderTimeline } from "../ui/timeline.js";
import { formatBytes, formatSeconds, plural } from "../units.js";

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

function mountNumeric(ctx) {
  const { exercise, params, core, body } = ctx;
  const id = `answer-${exercise.id}-${uid++}`;
  const form = make("form", { class: "answer-form" });
  const label = make("label", { for: id }, answerLabel(exercise));
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
        `(${plural(result.messages.length, "message")}, ${formatBytes(result.totalBytes)}).`));
      const chart = make("div", { class: "timeline" });
      runOut.append(chart);
      renderTimeline(chart, result.spans, { ranks: scenario.ranks, title: "Simulated per-rank timeline" });
    });
    body.append(runButton, runOut);
  }

  const expected = () => exercise.answer(params, core);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const { pass, value, message } = judgeAnswer(input.value, expected(), exercise, { params, core });
    // Text that is not a quantity this box accepts is not an attempt: say what to type instead.
    if (!Number.isFinite(value)) { ctx.setVerdict(false, message); return; }
    ctx.attempt(pass, { answer: input.value });
    ctx.setVerdict(pass, message);
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
    const { pass, missed } = judgeChoice(exercise.options, chosen);
    inputs.forEach(({ input, why, option }) => {
      why.hidden = !input.checked && !(pass && option.correct);
      why.innerHTML = option.why ?? "";
    });
    ctx.attempt(pass, { answer: chosen });
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
