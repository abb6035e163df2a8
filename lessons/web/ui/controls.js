// controls.js — labelled inputs for widgets: real <input type=range>/<select>/<button> elements,
// keyboard operable, each with a visible label and a live readout of its value.
let uid = 0;

// A slider. With log: true it moves over log10(value), so "1 B … 1 GB" is usable.
//   slider({ label: "Message size n", min: 1, max: 1e9, value: 1e5, log: true, format: formatBytes })
export function slider({ label, min, max, value, step, log = false, format = String, onInput }) {
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
  const to = (v) => (log ? Math.log10(v) : v);
  const from = (x) => (log ? 10 ** x : x);
  input.min = String(to(min));
  input.max = String(to(max));
  input.step = String(step ?? (log ? 0.01 : (max - min) / 100));
  input.value = String(to(value));
  wrap.append(lab, input);
  const control = {
    el: wrap,
    input,
    get value() { return from(Number(input.value)); },
    set value(v) { input.value = String(to(v)); refresh(); },
  };
  function refresh() {
    out.textContent = format(control.value);
    input.setAttribute("aria-valuetext", `${label}: ${out.textContent}`);
  }
  input.addEventListener("input", () => { refresh(); onInput?.(control.value); });
  refresh();
  return control;
}

// A <select> from [value, text] pairs.
export function select({ label, options, value, onChange }) {
  const id = `ctl-${uid++}`;
  const wrap = document.createElement("div");
  wrap.className = "control";
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

// A paragraph that screen readers announce when it changes.
export function readout(figure, className = "widget-readout") {
  const p = document.createElement("p");
  p.className = className;
  p.setAttribute("aria-live", "polite");
  figure.querySelector("figcaption") ? figure.querySelector("figcaption").before(p) : figure.append(p);
  return p;
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
