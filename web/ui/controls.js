// controls.js — labelled inputs for widgets: real <input type=range>/<select>/<button> elements,
// keyboard operable, each with a visible label and a live readout of its value.
let uid = 0;

// A slider. With log: true it moves over log10(value), so "1 B … 1 GB" is usable.
//   slider({ label: "Message size n", min: 1, max: 1e9, value: 1e5, log: true, format: formatBytes })
// Its value is exactly the one it was given (or set to) until the learner moves it — a log slider's steps would
// turn 0.03 into 10^−1.52 = 0.0302 — and both ends are exactly min and max: a log slider's positions are the whole
// numbers 0 … N (N steps of about 0.01 decade, `step` decades if given), so no rounding of the browser's can stop it
// short of its end (10^3.01 = 1023 for a maximum of 1024). integer: true for a count (segments, workers, nodes): its
// value is a whole number, and an arrow key moves to the next whole number — on a log slider a position of 0.01
// decade is less than one at the low end (10^0.01 = 1.02), so an arrow press would otherwise change nothing.
// snap: values the prose names (a 25 MiB bucket, 400 MB), which the position nearest each gives exactly.
export function slider({ label, min, max, value, step, log = false, integer = false, snap = [], format = String, onInput }) {
  const id = `ctl-${uid++}`;
  const wrap = document.createElement("div");
  wrap.className = "control";
  const lab = document.createElement("label");
  lab.htmlFor = id;
  const name = document.createElement("span");
  name.textContent = label;
  const out = document.createElement("output");
  out.htmlFor = id;
  lab.append(name, " ", out);
  const input = document.createElement("input");
  input.type = "range";
  input.id = id;
  const { positions, to, from, stepFrom } = sliderScale({ min, max, step, log, snap });
  input.min = String(log ? 0 : min);
  input.max = String(log ? positions : max);
  input.step = String(log ? 1 : step ?? (max - min) / 100);
  let exact = value;   // the value given or set, until the learner moves the slider
  input.value = String(to(value));
  wrap.append(lab, input);
  const control = {
    el: wrap,
    input,
    get value() { return exact ?? (integer ? Math.round(from(Number(input.value))) : from(Number(input.value))); },
    set value(v) { exact = v; input.value = String(to(v)); refresh(); },
  };
  function refresh() {
    out.textContent = format(control.value);
    input.setAttribute("aria-valuetext", `${label}: ${out.textContent}`);
  }
  input.addEventListener("input", () => { exact = undefined; refresh(); onInput?.(control.value); });
  if (integer && log) {
    const ARROWS = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };
    input.addEventListener("keydown", (e) => {
      const dir = ARROWS[e.key];
      if (!dir) return;
      e.preventDefault();
      input.value = String(stepFrom(Number(input.value), dir, true));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }
  refresh();
  return control;
}

// A slider's positions and values. Linear: the value itself. Log: an integer position k ∈ 0 … N, value
// 10^(lo + k·(hi − lo)/N), both ends exact; a `snap` value is exact at its nearest position.
// stepFrom(k, dir, integer): the next position in direction dir (±1) — for a count, the next whose whole number differs.
export function sliderScale({ min, max, step, log = false, snap = [] }) {
  const lo = log ? Math.log10(min) : min, hi = log ? Math.log10(max) : max;
  const positions = log ? Math.max(1, Math.round((hi - lo) / (step ?? 0.01))) : null;
  const to = (v) => (log ? Math.round(((Math.log10(v) - lo) / (hi - lo)) * positions) : v);
  const snaps = new Map(snap.map((v) => [to(v), v]));
  const from = (x) => {
    if (snaps.has(x)) return snaps.get(x);
    if (!log) return x;
    if (x <= 0) return min;
    if (x >= positions) return max;
    return 10 ** (lo + (x / positions) * (hi - lo));
  };
  const stepFrom = (k, dir, integer = false) => {
    const now = integer ? Math.round(from(k)) : from(k);
    let next = k + dir;
    while (integer && next > 0 && next < positions && Math.round(from(next)) === now) next += dir;
    return Math.max(0, Math.min(positions, next));
  };
  return { positions, to, from, stepFrom };
}

// A <select> from [value, text] pairs.
export function select({ label, options, value, onChange }) {
  const id = `ctl-${uid++}`;
  const wrap = document.createElement("div");
  wrap.className = "control control-select";   // sized to its longest option (style.css), not clipped
  const lab = document.createElement("label");
  lab.htmlFor = id;
  lab.textContent = label;
  const sel = document.createElement("select");
  sel.id = id;
  for (const [v, text] of options) sel.append(new Option(text, v, false, v === value));
  sel.addEventListener("change", () => onChange?.(sel.value));
  wrap.append(lab, sel);
  return { el: wrap, get value() { return sel.value; }, set value(v) { sel.value = v; } };
}

export function button(text, onClick, { secondary = false } = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (secondary) b.className = "secondary";
  b.addEventListener("click", onClick);
  return b;
}

// A row of controls, placed at the top of a widget figure (before its caption).
export function controlRow(figure, ...controls) {
  const row = document.createElement("div");
  row.className = "widget-controls";
  row.append(...controls.map((c) => c.el ?? c));
  figure.prepend(row);
  return row;
}

/**
 * Locks (true) or unlocks (false) a widget's settings — every select and input of its control rows — while a run of
 * it is in flight. One rule for every widget that runs on the Workers: the settings cannot change under a run, so
 * what the widget shows always belongs to the settings shown; a note in the control row says so while it lasts. Its
 * buttons (Run, Stop) are the widget's own business.
 */
export function lockSettings(figure, locked) {
  for (const el of figure.querySelectorAll(".widget-controls select, .widget-controls input")) el.disabled = locked;
  // Said where the disabled controls are, not only greyed: why they do not answer, and when they will.
  for (const row of figure.querySelectorAll(".widget-controls")) {
    if (!row.querySelector("select, input")) continue;
    let note = row.querySelector(".widget-lock-note");
    if (!note && locked) {
      note = document.createElement("p");
      note.className = "widget-lock-note";
      note.textContent = "Settings are locked while this run goes on: they apply to the next run.";
      row.append(note);
    }
    if (note) note.hidden = !locked;
  }
}

// A paragraph that screen readers announce when it changes.
export function readout(figure, className = "widget-readout") {
  const p = document.createElement("p");
  p.className = className;
  p.setAttribute("aria-live", "polite");
  figure.querySelector("figcaption") ? figure.querySelector("figcaption").before(p) : figure.append(p);
  return p;
}

// A readout that is also the widget's status line (role="status"): what a run is doing, then how it ended.
export function statusReadout(figure) {
  const p = readout(figure);
  p.setAttribute("role", "status");
  return p;
}

// A <div class="…"> placed right after `el` (a readout, a chart's box): a timeline's or a drawing's box.
export function boxAfter(el, className) {
  const box = document.createElement("div");
  box.className = className;
  el.after(box);
  return box;
}

// A box that scrolls sideways for a wide table, placed right after `el`.
export const tableScroll = (el) => boxAfter(el, "table-scroll");

// A drawing of HTML boxes (bars) that reads as one image, placed right after `el`; it says what it shows in aria-label.
export function drawingBox(el, className) {
  const box = boxAfter(el, className);
  box.setAttribute("role", "img");
  return box;
}

// A canvas inside a scroll-safe box, for a Chart.js chart.
export function chartBox(figure, label) {
  const box = document.createElement("div");
  box.className = "chart-box";
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", label);
  box.append(canvas);
  figure.querySelector("figcaption") ? figure.querySelector("figcaption").before(box) : figure.append(box);
  return canvas;
}
