// pipeline_svg.js — a pipeline schedule's timeline (core.pipelineTimeline's spans) as inline SVG: one row per device,
// one box per op, coloured by kind (F forward, B input gradient, W weight gradient, BW a full backward) and labelled
// with its micro-batch; the idle time left blank. It is drawn in its box's pixels (the viewBox is as wide as the box,
// at least 640), so its text is the size it says at any width and it never scrolls the page sideways: a box
// narrower than 640 px (a phone) scrolls it inside; the SVG still scales if the box is resized later. Boxes too
// narrow for a label lose it. Colours come from style.css variables
// (--chart-1 …), so a theme switch needs no redraw.
const SVG = "http://www.w3.org/2000/svg";
const FILL = { F: "var(--chart-1)", BW: "var(--chart-2)", B: "var(--chart-2)", W: "var(--chart-3)" };
const NAMES = { F: "forward", BW: "backward", B: "input gradient", W: "weight gradient" };

function el(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text != null) n.textContent = text;
  return n;
}

/** Draw `result` (pipelineTimeline's) into `container`, replacing what was there. */
export function renderPipeline(container, result, { title }) {
  const W = Math.max(640, Math.round(container.clientWidth) || 1000), left = 70, rowH = 26, top = 26, devices = result.devices;
  const H = top + devices * rowH + 30;
  const x = (t) => left + ((W - left - 10) * t) / result.makespan;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "pipeline-svg",
    "aria-label": `${title}: ${result.timeline.length} operations on ${devices} devices` });
  svg.style.display = "block";
  svg.style.minWidth = "640px";
  container.style.overflowX = "auto";
  container.classList.add("scroll-x");   // a shadow at the cut edge on a phone
  container.tabIndex = 0;
  container.setAttribute("role", "region");
  container.setAttribute("aria-label", `${title}, scrollable`);
  svg.append(el("text", { x: 0, y: 16, "font-size": 15, fill: "currentColor" }, title));
  const perUnit = (W - left - 10) / result.makespan;
  for (let d = 0; d < devices; d++) {
    const y = top + d * rowH;
    svg.append(el("text", { x: 0, y: y + rowH * 0.65, "font-size": 13, fill: "currentColor" }, `device ${d}`));
    svg.append(el("rect", { x: left, y: y + 2, width: W - left - 10, height: rowH - 4, fill: "none",
      stroke: "var(--grid, #ccc)" }));
  }
  for (const s of result.timeline) {
    const y = top + s.device * rowH, w = x(s.end) - x(s.start);
    const g = el("g");
    g.append(el("title", {}, `${NAMES[s.kind]} of micro-batch ${s.microBatch}, chunk ${s.chunk}, device ${s.device}: ` +
      `${s.start}–${s.end}`));
    const shade = result.chunksPerDevice > 1 && Math.floor(s.chunk / devices) % 2 ? 0.6 : 1;
    g.append(el("rect", { x: x(s.start), y: y + 2, width: Math.max(0.5, w - 0.6), height: rowH - 4,
      fill: FILL[s.kind], "fill-opacity": shade, class: `pl-${s.kind}` }));
    // Wide boxes say kind and micro-batch ("F3"); narrower ones — an interleaved chunk's forward is one unit — keep the
    // micro-batch alone (the colour and the legend give the kind) rather than no label.
    const full = `${s.kind === "BW" ? "B" : s.kind}${s.microBatch}`, short = String(s.microBatch);
    const label = w > 14 ? full : short, size = w > 14 ? Math.min(13, w * 0.6) : Math.min(11, (w - 1) / (0.62 * short.length));
    if (perUnit > 0 && size >= 7) {
      g.append(el("text", { x: x(s.start) + w / 2, y: y + rowH * 0.66, "font-size": size,
        "text-anchor": "middle", fill: "var(--bg, #fff)" }, label));
    }
    svg.append(g);
  }
  const axisY = top + devices * rowH + 16;
  svg.append(el("text", { x: left, y: axisY, "font-size": 12, fill: "currentColor" }, "0"));
  svg.append(el("text", { x: W - 10, y: axisY, "font-size": 12, fill: "currentColor", "text-anchor": "end" },
    `${result.makespan} (time, units of one ${result.chunksPerDevice > 1 ? "chunk's " : ""}forward)`));
  const legend = document.createElement("p");
  legend.className = "chart-summary";
  const kinds = [...new Set(result.timeline.map((s) => s.kind))];
  legend.textContent = `Boxes: ${kinds.map((k) => `${k === "BW" ? "B" : k} = ${NAMES[k]}`).join(", ")}; the number is the micro-batch (alone on narrow boxes)` +
    `${result.chunksPerDevice > 1 ? "; lighter boxes are a device's second (fourth, …) chunk" : ""}; blank is idle.`;
  container.replaceChildren(svg, legend);
}
