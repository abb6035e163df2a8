// step_instrument.js — the learner's program made steppable: before every statement of every async function
// (main and the learner's async helpers) a step hook is inserted, which may pause the rank there.
//
//   const { code, sites, original } = instrument(source, { maxLine });
//   sites[id] = { line, column, names, comm }   line 1-based, column 0-based, where statement `id` starts;
//                                               names: the variables visible there; comm: "send" | "recv" |
//                                               "barrier" | "collective" | null (what the statement calls)
//   original(line, column)  → the column of the learner's code at an instrumented position (1-based columns)
//
// The hook is one `if` prepended on the statement's own line:
//     if (__dsmlStep.at(7, () => [rank, size, buf])) await __dsmlStep.pause();
// so every line keeps its number (errors, the editor's highlight), and `original()` maps columns back. When the
// stepper lets the rank run free, at() returns false and no await is added: the program then computes exactly
// what it computes uninstrumented, microtask for microtask. __dsmlStep is the rank's stepper
// (worker/step_hooks.js), read from globalThis once, when the code is loaded.
//
// Only statements whose nearest enclosing function is async get a hook: a plain function cannot await, so
// a synchronous helper runs in one step. Names are those a statement can read without a TDZ error: the
// parameters and `var`s of the enclosing functions, the `let`/`const` declared before it in its enclosing
// blocks, loop and catch variables, and the program's top-level variables.
import { parse } from "../vendor/acorn.js";
import { STEP_GLOBAL } from "../worker/step_hooks.js";
const PROLOGUE = `const ${STEP_GLOBAL}=globalThis.${STEP_GLOBAL};`;
// The calls a statement is marked by: ctx's, and the collectives the course's programs hand the learner (the lab's
// dp.allReduce, …), which send and receive too. Array's reduce is not one of them.
const COMM = new Map([["send", "send"], ["recv", "recv"], ["recvAny", "recv"], ["barrier", "barrier"], ["allReduce", "collective"],
  ["allGather", "collective"], ["reduceScatter", "collective"], ["broadcast", "collective"]]);
const UNHOOKED = new Set(["EmptyStatement", "BlockStatement", "FunctionDeclaration"]);
const FUNCTION = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
const BODY_KEYS = { IfStatement: ["consequent", "alternate"], ForStatement: ["body"], ForInStatement: ["body"],
  ForOfStatement: ["body"], WhileStatement: ["body"], DoWhileStatement: ["body"], WithStatement: ["body"] };

// → { code, sites, original } ; throws the parser's SyntaxError (with .loc) if the code does not parse.
// maxLine: statements starting after this line get no hook (a composed program: only the learner's lines).
export function instrument(source, { maxLine = Infinity } = {}) {
  const ast = parse(source, { ecmaVersion: "latest", sourceType: "module", locations: true });
  const sites = [];
  const inserts = [];   // { at: offset in source, text }
  const topNames = declaredNames(ast.body, Infinity, true);

  const hookable = (node, fn) => fn?.async && isStatement(node) && !UNHOOKED.has(node.type)
    && !node.directive && node.loc.start.line <= maxLine;

  // Walks the tree; `scopes` lists, innermost last, the names each enclosing scope makes visible.
  function visit(node, fn, scopes) {
    if (!node || typeof node.type !== "string") return;
    if (FUNCTION.has(node.type) && node !== ast) {
      const names = [...patternNames(node.params), ...varNames(node.body)];
      scopes = [...scopes, names];
      fn = node;
    }
    if (node.type === "CatchClause" && node.param) scopes = [...scopes, patternNames([node.param])];
    if (/^For(In|Of)?Statement$/.test(node.type)) {
      const head = node.init ?? node.left;
      if (head?.type === "VariableDeclaration" && head.kind !== "var") scopes = [...scopes, patternNames(head.declarations.map((d) => d.id))];
    }
    const block = node.type === "BlockStatement" || node.type === "StaticBlock" ? node.body
      : node.type === "SwitchStatement" ? node.cases.flatMap((c) => c.consequent) : null;
    for (const [key, child] of Object.entries(node)) {
      if (key === "loc" || !child || typeof child !== "object") continue;
      for (const c of Array.isArray(child) ? child : [child]) {
        if (!c || typeof c.type !== "string") continue;
        const inner = block ? [...scopes, declaredNames(block, c.start, false)] : scopes;
        const listed = (key === "body" && Array.isArray(child)) || (node.type === "SwitchCase" && key === "consequent");
        const body = (BODY_KEYS[node.type] ?? []).includes(key);
        if ((listed || body) && hookable(c, fn)) hook(c, inner, body);
        visit(c, fn, inner);
      }
    }
  }

  function hook(statement, scopes, wrap) {
    const id = sites.length;
    const names = unique([topNames, ...scopes].flat()).filter((n) => n !== STEP_GLOBAL && n !== "arguments");
    sites.push({ line: statement.loc.start.line, column: statement.loc.start.column, names, comm: commOf(statement) });
    const text = `if(${STEP_GLOBAL}.at(${id},()=>[${names.join(",")}]))await ${STEP_GLOBAL}.pause();`;
    inserts.push({ at: statement.start, text: wrap ? `{${text}` : text });
    if (wrap) inserts.push({ at: statement.end, text: "}" });
  }

  // The ctx call a statement makes itself (not in the statements nested in it, which have hooks of their own).
  function commOf(statement) {
    let found = null;
    const look = (node) => {
      if (!node || typeof node.type !== "string" || found) return;
      if (node !== statement && isStatement(node) && node.type !== "BlockStatement") return;
      if (node.type === "CallExpression") {
        const callee = node.callee;
        const name = callee.type === "MemberExpression" && !callee.computed ? callee.property.name
          : callee.type === "Identifier" ? callee.name : null;
        if (COMM.has(name)) { found = COMM.get(name); return; }
      }
      for (const [key, child] of Object.entries(node)) {
        if (key === "loc" || !child || typeof child !== "object") continue;
        for (const c of Array.isArray(child) ? child : [child]) look(c);
      }
    };
    if (statement.type === "BlockStatement") return null;
    look(statement);
    return found;
  }

  visit(ast, null, []);
  inserts.push({ at: 0, text: PROLOGUE });
  inserts.sort((a, b) => a.at - b.at);
  let code = "";
  let last = 0;
  for (const { at, text } of inserts) { code += source.slice(last, at) + text; last = at; }
  code += source.slice(last);
  return { code, sites, original: columnMap(source, inserts) };
}

const isStatement = (node) => /Statement$|Declaration$/.test(node.type) && node.type !== "ExportNamedDeclaration";
const unique = (names) => [...new Set(names)];

// The names a block's statements declare with let/const/var (var: the whole function's, found by varNames),
// counting only those declared before `before` (an offset): later ones are still in their TDZ.
function declaredNames(statements, before, all) {
  const names = [];
  for (const s of statements) {
    if (s.type !== "VariableDeclaration" || (!all && s.end > before)) continue;
    if (s.kind === "var" && !all) continue;
    names.push(...patternNames(s.declarations.map((d) => d.id)));
  }
  return names;
}

// Every `var` of a function body (hoisted: readable anywhere in it, undefined before its line), not of nested functions.
function varNames(body) {
  const names = [];
  const look = (node) => {
    if (!node || typeof node.type !== "string" || FUNCTION.has(node.type)) return;
    if (node.type === "VariableDeclaration" && node.kind === "var") names.push(...patternNames(node.declarations.map((d) => d.id)));
    for (const [key, child] of Object.entries(node)) {
      if (key === "loc" || !child || typeof child !== "object") continue;
      for (const c of Array.isArray(child) ? child : [child]) look(c);
    }
  };
  if (body.type === "BlockStatement") body.body.forEach(look);
  return names;
}

// The identifiers a binding pattern binds: a, [a, b], { a, b: c }, ...rest, a = 1.
function patternNames(patterns) {
  const names = [];
  const bind = (p) => {
    if (!p) return;
    if (p.type === "Identifier") names.push(p.name);
    else if (p.type === "ArrayPattern") p.elements.forEach(bind);
    else if (p.type === "ObjectPattern") p.properties.forEach((q) => bind(q.type === "RestElement" ? q.argument : q.value));
    else if (p.type === "RestElement") bind(p.argument);
    else if (p.type === "AssignmentPattern") bind(p.left);
  };
  patterns.forEach(bind);
  return names;
}

// original(line, column) for 1-based positions in the instrumented code → the column in the learner's code
// (the line is the same: nothing inserted contains a line break). Inside inserted text: where it was inserted.
export function columnMap(source, inserts) {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") lineStarts.push(i + 1);
  const byLine = new Map();
  for (const { at, text } of inserts) {
    let line = lineStarts.length - 1;
    while (lineStarts[line] > at) line--;
    const list = byLine.get(line + 1) ?? byLine.set(line + 1, []).get(line + 1);
    list.push({ column: at - lineStarts[line], length: text.length });
  }
  return (line, column) => {
    if (line == null || column == null) return column;
    let shift = 0;
    for (const ins of byLine.get(line) ?? []) {
      const start = ins.column + shift;          // 0-based, in the instrumented line
      if (column - 1 >= start + ins.length) shift += ins.length;
      else if (column - 1 >= start) return ins.column + 1;
      else break;
    }
    return column - shift;
  };
}
