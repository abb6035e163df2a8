// line_marks.js — cheap line markers in the learner's program, so a run the watchdog stops can say where each rank
// was: a rank stuck in a synchronous endless loop cannot answer messages, and a rank idle on an `await` that
// nothing resolves has no call of ours to be blocked in. Two kinds of marker, both `__dsmlAt(N)` with N the line:
//   · the first statement of every loop body:      while (x) { __dsmlAt(4); … }   (a body without braces gets them)
//   · evaluated just before every awaited value:   await (__dsmlAt(7), promise)
// so the last marker a rank passed names the loop it spins in, or the await it sleeps on (the innermost: a helper's
// await is marked after its caller's line, as `await (__dsmlAt(5), helper())` evaluates the marker first). Nothing
// inserted contains a line break, so line numbers are kept; columns are mapped back with original(line, column).
// What __dsmlAt does is the runtime's: on a Worker it records the line and, every so often, posts it to the page
// (rank_worker.js); in the judge cluster it records it and stops a run that is over its time (local_run.js).
//
//   const { code, original } = markLines(source, { maxLine });   // maxLine: only the learner's lines (composed programs)
import { parse } from "../vendor/acorn.js";
import { columnMap } from "../exercise/step_instrument.js";
import { MARK } from "../worker/line_marker.js";
export { MARK };
const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);

// → { code, original } ; code unchanged (and original the identity) if it does not parse: the loader reports that.
export function markLines(source, { maxLine = Infinity } = {}) {
  let ast;
  try {
    ast = parse(source, { ecmaVersion: "latest", sourceType: "module", locations: true, allowReturnOutsideFunction: true,
                          allowAwaitOutsideFunction: true });
  } catch {
    return { code: source, original: (line, column) => column };
  }
  const inserts = [];
  const mark = (line) => `${MARK}(${line})`;
  // At one offset: closers first, the innermost first; then openers, the outermost first.
  const open = (at, text, depth) => inserts.push({ at, text, key: depth });
  const close = (at, text, depth) => inserts.push({ at, text, key: -1e6 - depth });
  const visit = (node, depth = 0) => {
    if (!node || typeof node.type !== "string") return;
    const line = node.loc.start.line;
    if (line <= maxLine) {
      if (LOOPS.has(node.type)) {
        const body = node.body;
        if (body.type === "BlockStatement") open(body.start + 1, `${mark(line)};`, depth);
        else { open(body.start, `{${mark(line)};`, depth); close(body.end, "}", depth); }
      } else if (node.type === "AwaitExpression" && node.argument) {
        open(node.argument.start, `(${mark(line)},`, depth);
        close(node.argument.end, ")", depth);
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === "loc" || !child || typeof child !== "object") continue;
      for (const c of Array.isArray(child) ? child : [child]) visit(c, depth + 1);
    }
  };
  visit(ast);
  if (!inserts.length) return { code: source, original: (line, column) => column };
  inserts.sort((a, b) => a.at - b.at || a.key - b.key);
  let code = "";
  let last = 0;
  for (const { at, text } of inserts) { code += source.slice(last, at) + text; last = at; }
  code += source.slice(last);
  return { code, original: columnMap(source, inserts) };
}
