// stacked_bar.js — one horizontal stacked bar with its legend, for the planner widget: the step's parts in seconds,
// memory's parts in bytes against the GPU's capacity. The bar is drawn with widths in per cent of `whole`; the
// legend beside it says every part in words and numbers (the bar's text alternative, and what a reader of a
// printout or a screen reader gets), each with the swatch of its colour.
//   barWithLegend(title, [[label, value], …], whole, format, { limit, limitLabel }) → <div>
const COLOURS = ["--chart-1", "--chart-2", "--chart-3", "--chart-4", "--chart-5", "--chart-6"];
// The i-th part's fill: the palette's six colours, then the same colours striped (the step has eight parts).
function fill(i) {
  const colour = `var(${COLOURS[i % COLOURS.length]})`;
  return i < COLOURS.length ? colour : `repeating-linear-gradient(45deg, ${colour} 0 3px, transparent 3px 6px)`;
}

export function barWithLegend(title, parts, whole, format, { limit, limitLabel } = {}) {
  const box = document.createElement("div");
  box.className = "planner-bar-box";
  const heading = document.createElement("p");
  heading.className = "planner-bar-title";
  heading.textContent = `${title}:`;
  const bar = document.createElement("div");
  bar.className = "planner-bar";
  bar.setAttribute("role", "img");
  bar.setAttribute("aria-label", `${title}: ${parts.map(([l, v]) => `${l} ${format(v)}`).join(", ")}`);
  parts.forEach(([label, v], i) => {
    if (!(v > 0)) return;
    const seg = document.createElement("span");
    seg.style.width = `${(100 * v) / whole}%`;
    seg.style.background = fill(i);
    seg.title = `${label}: ${format(v)}`;
    bar.append(seg);
  });
  if (limit !== undefined) {   // the capacity: a line across the bar where it ends
    const mark = document.createElement("span");
    mark.className = "planner-limit";
    mark.style.left = `${(100 * limit) / whole}%`;
    mark.title = limitLabel ?? format(limit);
    bar.append(mark);
  }
  const legend = document.createElement("ul");
  legend.className = "planner-legend";
  parts.forEach(([label, v], i) => {
    const li = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "planner-swatch";
    swatch.style.background = fill(i);
    li.append(swatch, `${label} ${format(v)}`);
    legend.append(li);
  });
  if (limit !== undefined) {
    const li = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "planner-swatch planner-swatch-limit";
    li.append(swatch, `capacity ${limitLabel ?? format(limit)}`);
    legend.append(li);
  }
  box.append(heading, bar, legend);
  return box;
}
