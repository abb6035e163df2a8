// element.js — an element in one call: make("td", { class: "num", "aria-label": "…" }, "42") is a <td> with those
// attributes and that text (set as text, never parsed as HTML).
export function make(tag, attrs = {}, text = "") {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
}
