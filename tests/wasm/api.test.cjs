// The wasm core's JavaScript API against its contract, core/bindings/dsml.d.ts and the domain files it lists under
// core/bindings/types/: every function the module registers (Embind marks them with an own `argCount`) is declared
// in DsmlCore with the same number of parameters, and every function DsmlCore declares is registered. A new binding
// without its documentation, a documented function that was dropped, or a domain file dsml.d.ts does not list fails
// here.
const test = require("node:test");
const assert = require("node:assert/strict");
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const loadCore = require("./load_core.cjs");

const BINDINGS = join(__dirname, "..", "..", "core", "bindings");
const DTS = join(BINDINGS, "dsml.d.ts");
const TYPES = join(BINDINGS, "types");

// dsml.d.ts, then every types/*.d.ts, as one text; each domain file must be listed in dsml.d.ts
// (an `export * from` line naming the file), or TypeScript would never see its part of DsmlCore.
function declarationText() {
  const entry = readFileSync(DTS, "utf8");
  const files = readdirSync(TYPES).filter((f) => f.endsWith(".d.ts")).sort();
  assert.ok(files.length > 0, "core/bindings/types/ holds no .d.ts files");
  const unlisted = files.filter((f) => !entry.includes(`export * from "./types/${f.slice(0, -".d.ts".length)}";`));
  assert.deepEqual(unlisted, [], `types/ files not listed in dsml.d.ts: ${unlisted.join(", ")}`);
  return [entry, ...files.map((f) => readFileSync(join(TYPES, f), "utf8"))].join("\n");
}

// name → parameter count, from the methods of every `interface DsmlCore { … }` (the entry point's, and each domain
// file's module augmentation): a line at the interface's own brace depth that starts with `name(`; its parameters
// are the top-level commas between the parentheses.
function declaredFunctions(text) {
  const heads = [...text.matchAll(/^\s*(?:export )?interface DsmlCore \{/gm)];
  assert.ok(heads.length > 0, "dsml.d.ts declares no interface DsmlCore");
  const out = new Map();
  for (const head of heads) {
    const body = text.slice(head.index + head[0].length).replace(/\/\*\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    let depth = 0;
    for (let i = 0; i < body.length && depth >= 0; ++i) {
      const c = body[i];
      if (c === "{") ++depth;
      else if (c === "}") --depth;
      const lineStart = i === 0 || body[i - 1] === "\n";
      const m = depth === 0 && lineStart ? /^\s*([A-Za-z_]\w*)\(/.exec(body.slice(i, body.indexOf("\n", i))) : null;
      if (!m) continue;
      let j = i + m[0].length, level = 0, commas = 0, any = false;
      for (; j < body.length; ++j) {
        const d = body[j];
        if ("({[<".includes(d)) ++level;
        else if (")}]".includes(d) || (d === ">" && body[j - 1] !== "=")) {  // not the arrow of a function type
          if (level === 0) break;
          --level;
        } else if (d === "," && level === 0) ++commas;
        else if (!/\s/.test(d)) any = true;
      }
      assert.ok(!out.has(m[1]), `${m[1]} is declared twice in DsmlCore`);
      out.set(m[1], any ? commas + 1 : 0);
      i = j;
    }
  }
  return out;
}

test("dsml.d.ts declares exactly the functions the module registers, with their arity", async () => {
  const core = await loadCore();
  const registered = new Map(Object.keys(core)
    .filter((k) => typeof core[k] === "function" && Object.prototype.hasOwnProperty.call(core[k], "argCount"))
    .map((k) => [k, core[k].argCount]));   // the parameter count (Function.length is 0 without dynamic execution)
  const declared = declaredFunctions(declarationText());
  assert.ok(registered.size >= 36, `only ${registered.size} registered functions found`);
  const undocumented = [...registered.keys()].filter((k) => !declared.has(k));
  const missing = [...declared.keys()].filter((k) => !registered.has(k));
  assert.deepEqual(undocumented, [], `registered but not in dsml.d.ts: ${undocumented.join(", ")}`);
  assert.deepEqual(missing, [], `declared in dsml.d.ts but not registered: ${missing.join(", ")}`);
  for (const [name, arity] of registered) assert.equal(declared.get(name), arity, `${name}: parameters`);
});

test("the parser finds a function added to, and misses one removed from, the declarations", () => {
  const text = declarationText();
  const declared = declaredFunctions(text);
  const extra = declaredFunctions(text.replace("export interface DsmlCore {",
    "export interface DsmlCore {\n  /** doc { with a brace */\n  telepathy(a: { x: number; y: (z: number) => void }, b: Pick<T, \"p\" | \"q\">): void;"));
  assert.equal(extra.size, declared.size + 1);
  assert.equal(extra.get("telepathy"), 2);
  assert.equal(declared.get("version"), 0);
  assert.equal(declared.get("optimizerStep"), 6);
  assert.equal(declared.get("lowerBound"), 2);
  assert.equal(declared.get("jobScaling"), 2);  // the last domain file's last function
  const fewer = declaredFunctions(text.replace(/^(\s*)trainSingle\(/m, "$1// trainSingle("));
  assert.equal(fewer.has("trainSingle"), false);
});
