// The import graph of the browser code: what two lesson pages share lives in web/, so no file under lessons/X/
// imports from lessons/Y/, and no module imports itself through a circle of others. Every .js/.mjs file under
// lessons/ and web/ (bundled vendor files aside) is parsed; its static imports, re-exports and dynamic imports of a
// string literal are the graph's edges.
//   node --test tests/web/import_graph.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "acorn";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const files = execFileSync("git", ["ls-files", "lessons", "web"], { cwd: ROOT, encoding: "utf8" })
  .split("\n").filter((f) => /\.m?js$/.test(f) && !f.startsWith("web/vendor/"));

// The relative specifiers a module imports, found by walking its syntax tree (not by matching text, so that an
// import inside a comment or a string does not count and one spread over lines does).
function specifiers(source) {
  const ast = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  const found = [];
  const visit = (node) => {
    if (!node || typeof node.type !== "string") return;
    if ((node.type === "ImportDeclaration" || node.type === "ExportAllDeclaration"
      || node.type === "ExportNamedDeclaration") && node.source) found.push(node.source.value);
    if (node.type === "ImportExpression" && node.source.type === "Literal") found.push(node.source.value);
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === "object") visit(value);
    }
  };
  visit(ast);
  return found.filter((s) => typeof s === "string" && s.startsWith("."));
}

// file → the repository paths it imports.
const graph = new Map(files.map((file) => [file,
  specifiers(readFileSync(join(ROOT, file), "utf8")).map((s) => normalize(join(dirname(file), s.split(/[?#]/)[0])))]));

const lessonOf = (path) => /^lessons\/([^/]+)\//.exec(path)?.[1] ?? null;

test("the graph covers the lessons and the shared runtime", () => {
  assert.ok(files.length > 150, `found only ${files.length} modules`);
  assert.ok([...graph.values()].flat().length > 300, "too few imports found");
});

test("no file under lessons/X/ imports from another lesson's folder lessons/Y/", () => {
  const crossings = [];
  for (const [file, targets] of graph) {
    const own = lessonOf(file);
    for (const target of targets) {
      const theirs = lessonOf(target);
      if (theirs && theirs !== own) crossings.push(`${file} imports ${target}`);
    }
  }
  assert.deepEqual(crossings, []);
});

test("no module imports itself through a circle of imports", () => {
  // Depth-first search; a back edge to a module still on the stack closes a circle, reported as its path.
  const state = new Map();   // file → "open" while on the stack, "done" after
  const circles = [];
  const stack = [];
  const visit = (file) => {
    state.set(file, "open");
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (state.get(target) === "open") circles.push([...stack.slice(stack.indexOf(target)), target].join(" → "));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  assert.deepEqual(circles, []);
});
