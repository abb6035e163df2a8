// solution_view.js — a code exercise's reference solution, shown without touching the learner's code.
//
// "Show solution" (exercise.js) opens a read-only view of the solution beside the editor; the editor keeps what
// the learner wrote. If they choose to try the solution in the editor, their own code is first set aside in
// their saved progress (the record's `ownCode`), and a bar above the editor — there again after a reload —
// brings it back. The solution's text enters the page only when show() is called (after the learner confirms).
//   const solution = mountSolutionView({ exercise, progress, editor, before: editorBox, after: buttonRow });
//   solution.show();

const make = (tag, attrs = {}, text = "") => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
};

/**
 * `editor` is the exercise's editor ({ value, focus() }); the bar about the learner's own code goes before the
 * element `before`, the solution view after the element `after`.
 */
export function mountSolutionView({ exercise, progress, editor, before, after }) {
  const ownBar = make("div", { class: "notice info own-code", hidden: "" });
  const ownText = make("span", {}, "The reference solution is in the editor; your own code is kept. ");
  const bringBack = make("button", { type: "button", class: "secondary" }, "Bring back my code");
  ownBar.append(ownText, bringBack);
  before.before(ownBar);

  const view = make("section", { class: "solution-view", "aria-label": `Reference solution: ${exercise.title}`, hidden: "" });
  const heading = make("h4", {}, "Reference solution (read-only — your code above is unchanged)");
  const code = make("code");   // filled by show(): the solution is not in the page until the learner confirms
  const pre = make("pre", { class: "solution-code" });
  pre.append(code);
  const tryIt = make("button", { type: "button", class: "secondary" }, "Try the solution in the editor");
  view.append(heading, pre, tryIt);
  after.after(view);

  const ownCode = () => progress.get(exercise.id)?.ownCode ?? null;
  const syncBar = () => { ownBar.hidden = ownCode() === null; };

  tryIt.addEventListener("click", () => {
    // Set aside the learner's code once: trying the solution twice must not set aside the solution itself.
    if (ownCode() === null) progress.update(exercise.id, { ownCode: editor.value });
    editor.value = exercise.solution;
    syncBar();
    bringBack.focus();
  });
  bringBack.addEventListener("click", () => {
    const mine = ownCode();
    if (mine === null) return;
    editor.value = mine;
    progress.update(exercise.id, { ownCode: null, code: mine });
    syncBar();
    editor.focus();
  });
  syncBar();

  return {
    show() {
      code.textContent = exercise.solution;
      view.hidden = false;
    },
  };
}
