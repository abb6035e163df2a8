// step_values.js — a rank's variables and messages as short text for the step-through panel: plain data only
// (numbers, strings, booleans, arrays and typed arrays shown as arrays, small plain objects). Anything holding a
// function (ctx, the core, a class instance) is left out: it is machinery, not the rank's data.
//
//   describeVariables(["rank", "buf"], [2, new Float64Array([1, 2])])
//     → [{ name: "rank", value: "2" }, { name: "buf", value: "Float64Array(2) [1, 2]", shape: [2], norm: 2.236 }]
// shape and norm are given for tensors — typed arrays, nested numeric arrays, numeric arrays too long to show —
// (the lab shows each rank's tensors with their shape and L2 norm), not for a short list such as ranks [0, 1].

const MAX_ITEMS = 8;     // array items shown before "…"
const MAX_KEYS = 6;      // object keys shown
const MAX_TEXT = 160;    // characters of one value's text
const MAX_DEPTH = 2;

// → [{ name, value, shape?, norm? }] for the names whose values are plain data.
export function describeVariables(names, values) {
  const out = [];
  names.forEach((name, i) => {
    const v = values[i];
    if (!isPlain(v, 0)) return;
    const entry = { name, value: clip(format(v, 0)) };
    const numbers = numericItems(v);
    if (numbers && isTensor(v, numbers)) Object.assign(entry, { shape: shapeOf(v), norm: l2(numbers) });
    out.push(entry);
  });
  return out;
}

// A message's data in one short line (the panel's preview of what is in flight).
export function preview(value, max = 60) {
  try {
    return clip(format(value, 0), max);
  } catch {
    return "…";
  }
}

const isTyped = (v) => ArrayBuffer.isView(v) && !(v instanceof DataView);

function isPlain(v, depth) {
  if (v === null || v === undefined) return true;
  const t = typeof v;
  if (t === "number" || t === "string" || t === "boolean" || t === "bigint") return true;
  if (t === "function" || t === "symbol") return false;
  if (depth > MAX_DEPTH) return true;   // shown as [… n] or {…}
  if (isTyped(v) || v instanceof ArrayBuffer) return true;
  if (Array.isArray(v)) return v.slice(0, MAX_ITEMS).every((x) => isPlain(x, depth + 1));
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(v).every((x) => typeof x !== "function" && isPlain(x, depth + 1));
}

function format(v, depth) {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));   // 4 digits: a glance
  if (typeof v !== "object") return String(v);
  if (depth > MAX_DEPTH) return Array.isArray(v) || isTyped(v) ? `[… ${v.length}]` : "{…}";
  if (v instanceof ArrayBuffer) return `ArrayBuffer(${v.byteLength})`;
  if (isTyped(v) || Array.isArray(v)) {
    const items = Array.from(v.slice(0, MAX_ITEMS), (x) => format(x, depth + 1));
    if (v.length > MAX_ITEMS) items.push(`… ${v.length - MAX_ITEMS} more`);
    return `${isTyped(v) ? `${v.constructor.name}(${v.length}) ` : ""}[${items.join(", ")}]`;
  }
  const keys = Object.keys(v);
  const parts = keys.slice(0, MAX_KEYS).map((k) => `${k}: ${format(v[k], depth + 1)}`);
  if (keys.length > MAX_KEYS) parts.push(`… ${keys.length - MAX_KEYS} more`);
  return `{ ${parts.join(", ")} }`;
}

const clip = (text, max = MAX_TEXT) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// The numbers of a numeric array (flat, or nested arrays of equal length), else null.
function numericItems(v) {
  if (isTyped(v) && !(v instanceof BigInt64Array || v instanceof BigUint64Array)) return v;
  if (!Array.isArray(v) || v.length === 0) return null;
  if (v.every((x) => typeof x === "number")) return v;
  const rows = v.map(numericItems);
  return rows.every(Boolean) ? rows.flatMap((r) => Array.from(r)) : null;
}
const isTensor = (v, numbers) => isTyped(v) || Array.isArray(v[0]) || numbers.length > MAX_ITEMS;
function shapeOf(v) {
  const shape = [];
  for (let x = v; Array.isArray(x) || isTyped(x); x = x[0]) shape.push(x.length);
  return shape;
}
function l2(numbers) {
  let s = 0;
  for (const x of numbers) s += x * x;
  return Math.sqrt(s);
}
