// learner_module.js — turns the learner's code (a string defining `async function main(ctx)`) into a function
// inside a rank's Worker, and maps any error back to a line and column of that code.
//
// The code is loaded as an ES module from a Blob URL, wrapped in a function that returns `main`:
//   export default async function dsmlProgram() {<the code>
//   return typeof main === "undefined" ? undefined : main;
//   }
// The prefix shares line 1 with the code, so line N of a stack frame in the blob is line N of what the learner
// typed (columns on line 1 are shifted by the prefix's length). Each run calls the function afresh, so its
// top-level variables start anew every run, as a freshly loaded module's would; the compiled module is kept for
// the next runs of the same code (a page re-runs one program, and the lab runs it again and again): the engine's
// optimised code for the program's functions then outlives a run instead of being rebuilt from the interpreter
// up each time (in bench/lab_steps.mjs, 52 → 48.5 CPU-ms per step at load ≈ 23). Code that is not a valid
// function body (an import or export statement) is a SyntaxError, as in the judge cluster (local_cluster.js).

// The Worker's own timers, captured before rank_worker.js wraps the globals to watch the learner's timers.
const { setTimeout, clearTimeout } = globalThis;

// A failure described for the learner: { message, line, column } (1-based; line/column null if unknown).
export class LearnerError extends Error {
  constructor(message, line = null, column = null) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

const PREFIX = "export default async function dsmlProgram() {";
const SUFFIX = '\nreturn typeof main === "undefined" ? undefined : main;\n}\n';
const KEEP = 4;               // compiled programs kept per Worker (a page alternates between a few)
const compiled = new Map();   // code → Promise of { program, url }, most recently used last

// → { main, where(err) } ; throws LearnerError if the code does not load (with .syntax = true for a
// SyntaxError). Locating a SyntaxError costs a nested Worker, so a cluster asks only one rank to do it.
// learnerLines: when the learner's code is the first lines of a larger program (an exercise that has the learner
// write one function of the lab's trainer), how many lines are theirs; an error raised in the course's code is
// then reported at the learner's line that called into it.
export async function loadLearnerModule(code, { locateSyntaxError = true, learnerLines = null } = {}) {
  const { program, url } = await compile(code, locateSyntaxError);
  const where = (err) => locate(err, url, learnerLines);
  let main;
  try {
    main = await program();   // the code's top level, run afresh
  } catch (err) {
    const { line, column } = where(err);
    throw new LearnerError(describe(err), line, column);
  }
  if (main === undefined) {
    throw new LearnerError("your code must define a function named main, e.g. async function main(ctx) { … }");
  }
  if (typeof main !== "function") {
    throw new LearnerError(`main must be a function, e.g. async function main(ctx) { … } (it is a ${typeof main})`);
  }
  return { main, where };
}

// The wrapped module of `code`, compiled once per Worker while it is among the KEEP last used.
function compile(code, locateSyntaxError) {
  let entry = compiled.get(code);
  if (entry) {
    compiled.delete(code);   // re-inserted below: most recently used last
  } else {
    entry = importWrapped(code, locateSyntaxError);
    entry.catch(() => compiled.delete(code));   // a failure is not kept: the next run reports it afresh
  }
  compiled.set(code, entry);
  if (compiled.size > KEEP) compiled.delete(compiled.keys().next().value);
  return entry;
}

async function importWrapped(code, locateSyntaxError) {
  const url = URL.createObjectURL(new Blob([PREFIX, code, SUFFIX], { type: "text/javascript" }));
  try {
    const module = await import(url);
    return { program: module.default, url };
  } catch (err) {
    if (err?.name !== "SyntaxError") {
      const { line, column } = locate(err, url, null);
      throw new LearnerError(describe(err), line, column);
    }
    const described = locateSyntaxError ? await syntaxError(code, err) : new LearnerError(`SyntaxError: ${err.message}`);
    described.syntax = true;
    throw described;
  } finally {
    URL.revokeObjectURL(url);  // the module stays loaded; stack frames keep naming the URL
  }
}

// An exception thrown by the learner's code (or by ctx on its behalf) → LearnerError with the line/column
// of the innermost stack frame that lies in the learner's code.
export function learnerErrorFrom(err, where) {
  if (err instanceof LearnerError) return err;
  const { line, column, inCourseCode } = where(err);
  const message = describe(err);
  if (!inCourseCode) return new LearnerError(message, line, column);
  return new LearnerError(line === null ? `${message} (raised inside the course's code, not in yours)`
    : `${message} — raised inside the course's code by your call at line ${line}`, line, column);
}

export function describe(err) {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  try {
    return `threw ${typeof err === "string" ? JSON.stringify(err) : String(err)} (not an Error)`;
  } catch {
    return "threw a value that is not an Error";
  }
}

// The innermost stack frame in the learner's code: { line, column, inCourseCode } (inCourseCode: the error was
// raised in lines after the learner's, i.e. in the course's part of a composed program).
function locate(err, url, learnerLines) {
  const stack = typeof err?.stack === "string" ? err.stack : "";
  const frames = [];
  for (let at = stack.indexOf(url + ":"); at >= 0; at = stack.indexOf(url + ":", at + url.length)) {
    const m = /^:(\d+):(\d+)/.exec(stack.slice(at + url.length));
    if (!m) continue;
    const line = Number(m[1]), column = Number(m[2]);
    frames.push({ line, column: line === 1 ? column - PREFIX.length : column });
  }
  if (!frames.length) return { line: null, column: null, inCourseCode: false };
  if (!learnerLines || frames[0].line <= learnerLines) return { ...frames[0], inCourseCode: false };
  const mine = frames.find((f) => f.line <= learnerLines);
  return { line: mine?.line ?? null, column: mine?.column ?? null, inCourseCode: true };
}

// V8 gives a module's SyntaxError no position. A classic script's parse error, though, reaches the error event
// of its Worker with line and column, so we parse the code once more as a classic script in a throwaway nested
// Worker. The prefix makes it strict like a module and stops it before any of it could run if it does parse
// (then the wrapper was the problem — an import or export statement — and we keep the module's message).
const SENTINEL = "dsml-parsed-without-error";
const SCRIPT_PREFIX = `"use strict"; throw "${SENTINEL}";`;

async function syntaxError(code, moduleError) {
  const url = URL.createObjectURL(new Blob([SCRIPT_PREFIX + code], { type: "text/javascript" }));
  const found = await new Promise((resolve) => {
    let worker;
    const finish = (value) => { clearTimeout(timer); worker?.terminate(); resolve(value); };
    const timer = setTimeout(() => finish(null), 2000);
    try {
      worker = new Worker(url);
    } catch {
      finish(null);
      return;
    }
    worker.onerror = (event) => {
      event.preventDefault();
      if (!event.lineno || String(event.message).includes(SENTINEL)) finish(null);
      else finish({ message: String(event.message).replace(/^Uncaught /, ""), line: event.lineno,
                    column: event.lineno === 1 ? event.colno - SCRIPT_PREFIX.length : event.colno });
    };
  });
  URL.revokeObjectURL(url);
  if (found) return new LearnerError(found.message, found.line, found.column);
  return new LearnerError(`SyntaxError: ${moduleError.message}`);
}
