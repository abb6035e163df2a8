// rank_console.js — console.log & co. inside a rank's Worker, turned into lines of text for that rank.
//
// The learner reads each rank's output in its own pane, so values are formatted roughly the way the browser
// console would show them (Node-style: `{ a: 1, b: [ 2, 3 ] }`, `Float64Array(3) [ 1, 2, 3 ]`), as one line.
// Nothing is forwarded to the real console: a learner's console.error is output, not a page error.

const MAX_ITEMS = 20;   // elements shown per array / typed array / object before "… n more"
const MAX_DEPTH = 3;    // nesting shown before [Array] / [Object]

export function formatArgs(args) {
  return args.map((v) => (typeof v === "string" ? v : show(v, 0, new Set()))).join(" ");
}

function show(v, depth, seen) {
  switch (typeof v) {
    case "string": return depth === 0 ? v : `'${v}'`;
    case "number": return Object.is(v, -0) ? "-0" : String(v);
    case "bigint": return `${v}n`;
    case "function": return `[Function: ${v.name || "(anonymous)"}]`;
    case "symbol": return v.toString();
    case "undefined": return "undefined";
    case "boolean": return String(v);
  }
  if (v === null) return "null";
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  if (seen.has(v)) return "[Circular]";
  if (v instanceof ArrayBuffer) return `ArrayBuffer { byteLength: ${v.byteLength} }`;
  if (v instanceof DataView) return `DataView { byteLength: ${v.byteLength} }`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length}) ${list(Array.from(v.subarray(0, MAX_ITEMS)), v.length, (x) => show(x, 1, seen))}`;
  if (depth >= MAX_DEPTH) return Array.isArray(v) ? "[Array]" : "[Object]";
  seen.add(v);
  try {
    if (Array.isArray(v)) return list(v.slice(0, MAX_ITEMS), v.length, (x) => show(x, depth + 1, seen));
    if (v instanceof Map) {
      const items = [...v].slice(0, MAX_ITEMS).map(([k, x]) => `${show(k, depth + 1, seen)} => ${show(x, depth + 1, seen)}`);
      return `Map(${v.size}) ${braces(items, v.size)}`;
    }
    if (v instanceof Set) {
      return `Set(${v.size}) ${braces([...v].slice(0, MAX_ITEMS).map((x) => show(x, depth + 1, seen)), v.size)}`;
    }
    const keys = Object.keys(v);
    const items = keys.slice(0, MAX_ITEMS).map((k) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`}: ${show(v[k], depth + 1, seen)}`);
    const name = v.constructor && v.constructor !== Object ? `${v.constructor.name} ` : "";
    return name + braces(items, keys.length);
  } finally {
    seen.delete(v);
  }
}

function list(shown, total, fmt) {
  const items = shown.map(fmt);
  if (total > shown.length) items.push(`… ${total - shown.length} more`);
  return items.length ? `[ ${items.join(", ")} ]` : "[]";
}

function braces(items, total) {
  if (total > items.length) items.push(`… ${total - items.length} more`);
  return items.length ? `{ ${items.join(", ")} }` : "{}";
}

// Replaces the Worker's console methods; emit(line) receives each formatted line.
// console.warn / console.error lines are marked so they stand out in plain text.
export function captureConsole(emit) {
  const mark = { log: "", info: "", debug: "", warn: "warning: ", error: "error: " };
  for (const [method, prefix] of Object.entries(mark)) {
    console[method] = (...args) => emit(prefix + formatArgs(args));
  }
}
