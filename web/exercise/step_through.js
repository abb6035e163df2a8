// step_through.js — Step beside Run on a code exercise: the learner's program runs on the Workers with every rank
// pausing before each statement (cluster/step_session.js); the learner steps one rank or all, runs to the next
// send/recv or barrier, continues or stops, and scrubs back and forth over every recorded pause without running
// anything again. The editor marks each rank's line (ui/step_lines.js); the panel shows a moment (ui/step_panel.js).
// After a failed Check, a link steps through the failing run and jumps to the moment the checker's message names.
//   const steps = mountStepThrough({ exercise, editor, clusters, box });
//   steps.start(testCase, { sendMode, delivery }, target?)   steps.offer(entry, message)   steps.close()
import { StepSession } from "../cluster/step_session.js";
import { renderStepFrame } from "../ui/step_panel.js";
import { stepLines } from "../ui/step_lines.js";
import { describeFailure } from "../ui/run_output.js";

const make = (tag, attrs = {}, text = "") => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
};

let lastUsed = null;   // the step-through box the learner used last (a page has one per code exercise)

// The moves, their keys (shown beside them, and pressed anywhere in the step-through's box).
const MOVES = [
  { key: "s", label: "Step rank", run: (s, r) => s.stepRank(r) },
  { key: "a", label: "Step all", run: (s) => s.stepAll() },
  { key: "n", label: "To send/recv", run: (s) => s.runTo("comm") },
  { key: "b", label: "To barrier", run: (s) => s.runTo("barrier") },
  { key: "c", label: "Continue", run: (s) => s.runTo(null) },
];

// freeContinue: Continue runs to the end without recording each statement (session.runFree) — for a program too
// long to record, the lab's training step; the frames up to that point stay.
export function mountStepThrough({ exercise, editor, clusters, box, freeContinue = false }) {
  const moveOf = (m) => (freeContinue && m.key === "c" ? { ...m, run: (s) => s.runFree() } : m);
  box.classList.add("step-through");
  box.hidden = true;
  const offerRow = make("p", { class: "step-offer", hidden: "" });
  const controls = make("div", { class: "button-row step-controls", role: "toolbar", "aria-label": "Step-through controls" });
  const rankPick = make("select", { "aria-label": "Rank to step and follow" });
  const buttons = MOVES.map((m) => {
    const b = make("button", { type: "button", "aria-keyshortcuts": m.key }, m.label);
    b.append(" ", make("kbd", {}, m.key));
    b.addEventListener("click", () => move(moveOf(m)));
    return b;
  });
  const stop = make("button", { type: "button", class: "secondary", "aria-keyshortcuts": "x" }, "Stop");
  stop.append(" ", make("kbd", {}, "x"));
  const close = make("button", { type: "button", class: "secondary" }, "Close");
  controls.append(make("label", { class: "step-pick" }, "Rank "), ...buttons, stop, close);
  controls.firstChild.append(rankPick);
  const scrub = make("div", { class: "step-scrub" });
  const back = make("button", { type: "button", class: "secondary", "aria-label": "Previous pause", "aria-keyshortcuts": "," }, "◀");
  const slider = make("input", { type: "range", min: "0", max: "0", value: "0", "aria-label": "Recorded pauses" });
  const fwd = make("button", { type: "button", class: "secondary", "aria-label": "Next pause", "aria-keyshortcuts": "." }, "▶");
  const where = make("span", { class: "step-where" });
  scrub.append(back, slider, fwd, where);
  const status = make("p", { class: "run-status", role: "status", "aria-live": "polite" });
  const panel = make("div", { class: "step-panel" });
  box.append(offerRow, controls, scrub, status, panel);

  const marks = stepLines(editor);
  let session = null;
  let viewing = null;      // the frame shown; null: the latest
  let selected = 0;
  let highlight = null;
  let said = null;         // { frame, text }: what a jump to that frame explains
  let drawing = 0;

  function draw() {
    if (drawing) return;
    drawing = requestAnimationFrame(() => { drawing = 0; render(); });
  }

  function render() {
    if (!session) return;
    const last = session.last;
    const f = viewing === null ? last : Math.min(viewing, last);
    slider.max = String(Math.max(0, last));
    slider.value = String(Math.max(0, f));
    const frame = session.frames[f];
    where.textContent = frame ? `Pause ${f + 1} of ${last + 1}${f < last ? " (recorded)" : ""} · ${frame.note}` : "Starting…";
    const live = f === last && !session.ended;
    for (const b of buttons) b.disabled = session.busy || !live || !session.paused.length;
    buttons[0].disabled ||= !session.paused.includes(selected);
    buttons[4].disabled = !live || (!session.busy && !session.paused.length);
    buttons[4].firstChild.textContent = session.busy ? "Pause " : "Continue ";
    stop.disabled = session.ended;
    back.disabled = f <= 0;
    fwd.disabled = f >= last;
    if (said?.frame === f) status.textContent = said.text;
    else if (!session.sites.length) status.textContent = "Your code has no statement inside an async function, so there is nowhere to pause: it runs in one step.";
    else if (session.ended && f === last) status.innerHTML = session.result.status === "ok"
      ? "The run ended: every rank returned. Scrub back to see any moment again." : describeFailure(session.result);
    else if (!frame) status.textContent = `Starting ${session.size} Workers…`;
    else status.textContent = session.busy ? "Running…" : f < last ? "A recorded moment: the ranks are not moved by scrubbing." : "Paused.";
    renderStepFrame(panel, session, f, { selected, highlight, onSelect: select });
    if (frame) marks.show(frame.ranks.flatMap((x, r) => (x.line && x.state !== "done" ? [{ rank: r, line: x.line }] : [])), selected);
  }

  function select(r) {
    selected = r;
    rankPick.value = String(r);
    draw();
  }

  async function move(m) {
    if (!session) return;
    if (session.busy) { session.interrupt(); return; }   // Continue while continuing: pause
    viewing = null;
    highlight = null;
    said = null;
    await m.run(session, selected);
    draw();
  }

  // Starts a step-through of `testCase` (the learner's sample case, or a Check's failing run) and, if `target` is
  // given (a checker's message), continues to the end and shows the moment it names.
  async function start(testCase, { sendMode = "buffered", delivery = null } = {}, target = null) {
    stopSession();
    box.hidden = false;
    offerRow.hidden = true;
    rankPick.replaceChildren(...Array.from({ length: testCase.ranks }, (_, r) => make("option", { value: String(r) }, `rank ${r}`)));
    select(0);
    viewing = null;
    highlight = null;
    said = null;
    const code = exercise.program ? exercise.program(editor.value) : editor.value;
    try {
      session = new StepSession({ clusters, ranks: testCase.ranks, code, inputs: testCase.inputs, sendMode,
        seed: delivery?.seed ?? null, learnerLines: exercise.program ? editor.value.split("\n").length : null, onChange: draw });
    } catch (err) {
      session = null;
      panel.replaceChildren();
      status.textContent = `Your code does not parse${err.loc ? ` (line ${err.loc.line})` : ""}: ${err.message.replace(/ \(\d+:\d+\)$/, "")}`;
      return;
    }
    draw();
    await session.start();
    if (target) {
      await session.runTo(null);
      const jump = findMoment(session, target);
      viewing = jump.frame;
      highlight = jump.highlight;
      said = { frame: jump.frame, text: jump.say };
      select(jump.rank ?? 0);
    }
    draw();
    controls.querySelector("button:not(:disabled)")?.focus();
  }

  function stopSession() {
    if (!session) return;
    session.stop();
    session = null;
    marks.clear();
  }

  // After a failed Check: a link to step through that run, to the moment the message names.
  function offer(entry, message) {
    const target = parseMessage(message);
    const link = make("button", { type: "button", class: "secondary" },
      `Step through this failing run${target.rank !== null ? ` to ${target.describe}` : ""}`);
    link.addEventListener("click", () => start(entry.testCase, entry, target));
    offerRow.replaceChildren(link);
    offerRow.hidden = false;
    box.hidden = false;
  }

  rankPick.addEventListener("change", () => select(Number(rankPick.value)));
  slider.addEventListener("input", () => { viewing = Number(slider.value); draw(); });
  back.addEventListener("click", () => { viewing = Math.max(0, (viewing ?? session.last) - 1); draw(); });
  fwd.addEventListener("click", () => { viewing = Math.min(session.last, (viewing ?? session.last) + 1); draw(); });
  stop.addEventListener("click", () => { session?.stop(); draw(); });
  close.addEventListener("click", () => { stopSession(); box.hidden = true; panel.replaceChildren(); });
  // Keys work while the focus is in this step-through, or nowhere (a button that was pressed is disabled while
  // the ranks move, and the focus falls back to the page) after this one was last used.
  const mark = () => { lastUsed = box; };
  box.addEventListener("focusin", mark);
  box.addEventListener("pointerdown", mark);
  document.addEventListener("keydown", (e) => {
    const focus = document.activeElement;
    const here = box.contains(focus) || ((!focus || focus === document.body) && lastUsed === box);
    if (!here || box.hidden || e.ctrlKey || e.metaKey || e.altKey || e.target.tagName === "SELECT") return;
    const m = MOVES.find((x) => x.key === e.key);
    if (m) { e.preventDefault(); move(moveOf(m)); }
    else if (e.key === "x") { e.preventDefault(); stop.click(); }
    else if (e.key === ",") { e.preventDefault(); back.click(); }
    else if (e.key === ".") { e.preventDefault(); fwd.click(); }
  });

  return {
    start,
    offer,
    close() { stopSession(); offerRow.hidden = true; box.hidden = true; },
    get session() { return session; },
  };
}

// What a checker's message names (its words are the only data a checker returns): rank R's message K, rank R
// sending to rank D, rank D never receiving rank S's message, rank R throwing, or just rank R.
export function parseMessage(message) {
  const text = String(message).replace(/<[^>]+>/g, "");
  let m;
  if ((m = /Rank (\d+)'s message (\d+)/.exec(text))) return { rank: +m[1], nth: +m[2], describe: `rank ${m[1]}'s message ${m[2]}` };
  if ((m = /Rank (\d+)'s (\d+)(?:st|nd|rd|th) message to rank (\d+)/.exec(text))) {
    return { rank: +m[1], to: +m[3], nthTo: +m[2], describe: `rank ${m[1]}'s message ${m[2]} to rank ${m[3]}` };
  }
  if ((m = /[Rr]ank (\d+) sent (?:[\d.,]+ \S*B )?to rank (\d+)/.exec(text))) return { rank: +m[1], to: +m[2], describe: `rank ${m[1]}'s send to rank ${m[2]}` };
  if ((m = /Rank (\d+) never received (?:a|the) message rank (\d+) sent/.exec(text))) return { rank: +m[1], lostFrom: +m[2], describe: `the message rank ${m[2]} sent to rank ${m[1]}` };
  if ((m = /\b[Rr]ank (\d+)\b/.exec(text))) return { rank: +m[1], describe: `rank ${m[1]}` };
  return { rank: null, describe: "" };
}

// → { frame, rank, highlight, say }: the recorded moment a parsed message points at.
export function findMoment(session, target) {
  const end = session.last;
  const mine = (src) => session.messages.filter((x) => x.src === src);
  let msg = null;
  if (target.nth) msg = mine(target.rank)[target.nth - 1];
  else if (target.to !== undefined) msg = mine(target.rank).filter((x) => x.dst === target.to)[(target.nthTo ?? 1) - 1];
  else if (target.lostFrom !== undefined) msg = session.messages.find((x) => x.src === target.lostFrom && x.dst === target.rank && x.taken === null);
  if (msg && target.lostFrom === undefined) {
    const n = mine(msg.src).indexOf(msg) + 1;
    return { frame: Math.max(0, msg.sent - 1), rank: msg.src, highlight: { src: msg.src, n },
             say: `Rank ${msg.src} is about to send its message ${n} (to rank ${msg.dst}): the line marked in the editor. Press ▶ to see it in flight.` };
  }
  if (msg) {
    return { frame: end, rank: target.rank, highlight: { src: msg.src, n: mine(msg.src).indexOf(msg) + 1 },
             say: `The run's end: rank ${msg.src}'s message to rank ${target.rank} is still in flight — nobody received it.` };
  }
  return { frame: end, rank: target.rank, highlight: null,
           say: target.rank === null ? "The run's end." : `The run's end, following rank ${target.rank}.` };
}
