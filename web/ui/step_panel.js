// step_panel.js — one recorded moment of a step-through, drawn: each rank's state, line and variables (numeric
// arrays with their shape and L2 norm), its outbox and inbox (messages it sent that are still in flight, and
// those in flight to it), what it received last, and the messages in flight on a small rank diagram (from, to,
// tag, size, a preview of the data) with the same messages listed as text.
//   renderStepFrame(container, session, f, { selected, onSelect(rank), highlight })   f: a frame index
// highlight: { src, n } — rank src's n-th message (1-based) is drawn emphasised (a checker named it).
import { inFlightAt } from "../cluster/step_session.js";
import { rankColour } from "./step_lines.js";
import { formatBytes, formatNumber, plural } from "../units.js";

const SVG = "http://www.w3.org/2000/svg";
const el = (tag, attrs = {}, text = "") => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
};
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

export function renderStepFrame(container, session, f, { selected = 0, onSelect = () => {}, highlight = null } = {}) {
  const frame = session.frames[f];
  if (!frame) { container.replaceChildren(); return; }
  const flying = inFlightAt(session.messages, f);
  const marked = highlight ? session.messages.filter((m) => m.src === highlight.src)[highlight.n - 1] : null;
  const cards = el("div", { class: "step-ranks" });
  frame.ranks.forEach((x, r) => cards.append(rankCard(session, f, x, r, flying, r === selected, () => onSelect(r))));
  const net = el("section", { class: "step-net", "aria-label": "Messages in flight" });
  // The message a checker named, once sent, is listed even when its receiver took it in the same move.
  const shown = marked && marked.sent <= f && !flying.includes(marked) ? [...flying, marked] : flying;
  net.append(el("h4", {}, flying.length ? `In flight (${flying.length})` : "No message in flight"),
             diagram(frame.ranks.length, shown, marked), messageList(shown, marked, f));
  container.replaceChildren(cards, net);
}

function rankCard(session, f, x, r, flying, isSelected, select) {
  const card = el("section", { class: `step-rank${isSelected ? " selected" : ""}`, "aria-label": `Rank ${r}` });
  card.style.setProperty("--step-colour", rankColour(r));
  const head = el("button", { type: "button", class: "step-rank-name", "aria-pressed": String(isSelected) }, `rank ${r}`);
  head.addEventListener("click", select);
  card.append(el("h4", {}), el("p", { class: "step-state" }, describeState(x)));
  card.firstChild.append(head);
  if (x.vars.length) {
    const dl = el("dl", { class: "step-vars" });
    for (const v of x.vars) {
      const dd = el("dd", {}, v.value);
      if (v.shape) dd.append(el("span", { class: "step-shape" }, ` shape [${v.shape.join(", ")}], ‖·‖₂ = ${formatNumber(v.norm)}`));
      dl.append(el("dt", {}, v.name), dd);
    }
    card.append(dl);
  }
  const box = (title, list, describe) => {
    if (!list.length) return;
    const ul = el("ul", { class: "step-box", "aria-label": title });
    for (const m of list) ul.append(el("li", {}, describe(m)));
    card.append(el("p", { class: "step-box-title" }, title), ul);
  };
  box("Outbox (sent, in flight)", flying.filter((m) => m.src === r), (m) => `→ rank ${m.dst}, tag ${m.tag}: ${m.preview}`);
  box("Inbox (in flight to it)", flying.filter((m) => m.dst === r), (m) => `← rank ${m.src}, tag ${m.tag}: ${m.preview}`);
  const got = session.messages.filter((m) => m.dst === r && m.taken !== null && m.taken <= f).slice(-3);
  box("Received last", got, (m) => `← rank ${m.src}, tag ${m.tag}: ${m.value}`);
  return card;
}

function describeState(x) {
  const at = x.line ? ` (line ${x.line})` : "";
  switch (x.state) {
    case "paused": return `paused before line ${x.line}`;
    case "blocked": return `waiting in ${x.on.map((w) => (w.kind === "recv" ? `recv from rank ${w.from}` : `send to rank ${w.to}`)).join(" and ") || "a call"}${at}`;
    case "barrier": return `waiting in barrier()${at}`;
    case "done": return "returned";
    case "starting": return "starting";
    default: return `running${at}`;
  }
}

// Ranks on a circle, an arrow per message in flight (several on one pair: one arrow, a count).
function diagram(p, flying, marked) {
  const size = 200, c = size / 2, R = p === 1 ? 0 : 72;
  const at = (r) => [c + R * Math.sin((2 * Math.PI * r) / p), c - R * Math.cos((2 * Math.PI * r) / p)];
  const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "step-diagram", role: "img",
    "aria-label": `${plural(p, "rank")}; ${plural(flying.length, "message")} in flight` });
  const defs = svg("defs");
  const marker = svg("marker", { id: "step-arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "6", markerHeight: "6", orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "currentColor" }));
  defs.append(marker);
  root.append(defs);
  const pairs = new Map();
  for (const m of flying) pairs.set(`${m.src}>${m.dst}`, [...(pairs.get(`${m.src}>${m.dst}`) ?? []), m]);
  for (const list of pairs.values()) {
    const { src, dst } = list[0];
    const [x1, y1] = at(src), [x2, y2] = at(dst);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const off = 4;   // two directions of one pair side by side
    const line = svg("line", { x1: x1 + ux * 14 - uy * off, y1: y1 + uy * 14 + ux * off, x2: x2 - ux * 16 - uy * off,
      y2: y2 - uy * 16 + ux * off, class: `step-arrow${list.includes(marked) ? " marked" : ""}`, "marker-end": "url(#step-arrow)" });
    root.append(line);
    if (list.length > 1) {
      const t = svg("text", { x: (x1 + x2) / 2 - uy * 10, y: (y1 + y2) / 2 + ux * 10, class: "step-count" });
      t.textContent = `×${list.length}`;
      root.append(t);
    }
  }
  for (let r = 0; r < p; r++) {
    const [x, y] = at(r);
    const g = svg("g", { class: "step-node" });
    g.append(svg("circle", { cx: x, cy: y, r: 12, style: `fill: ${rankColour(r)}` }));
    const t = svg("text", { x, y: y + 4, "text-anchor": "middle" });
    t.textContent = String(r);
    g.append(t);
    root.append(g);
  }
  return root;
}

function messageList(messages, marked, f) {
  const ul = el("ul", { class: "step-messages" });
  for (const m of messages) {
    const taken = m.taken !== null && m.taken <= f ? ` (received by rank ${m.dst} at pause ${m.taken + 1})` : "";
    ul.append(el("li", m === marked ? { class: "marked" } : {},
      `rank ${m.src} → rank ${m.dst} · tag ${m.tag} · ${formatBytes(m.bytes)} · ${m.preview}${taken}`));
  }
  return ul;
}
