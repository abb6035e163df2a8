// dsml.d.ts — the JavaScript API of the wasm core (dsml.mjs for browsers, dsml.cjs for Node), as registered in
// core/bindings/bindings.cpp. This file is the contract: tests/wasm/api.test.cjs fails if the module registers a
// function not declared here, declares one the module lacks, or takes another number of arguments.
//
// Conventions for every function:
//   Units        seconds (s), bytes (B), bytes per second (B/s), seconds per byte (s/B), FLOP/s.
//   Values       plain numbers, strings, objects and arrays, or Float64Array copies: nothing points into wasm
//                memory, nothing needs .delete().
//   Errors       bad input throws a JavaScript Error whose name is "DsmlError" and whose message names the
//                function and the field ("trainCompare: grid: dp must be a whole number >= 1, got 0"); the module
//                keeps working afterwards. "Whole number" means an integer-valued JS number.
//   Arrays in    a JS Array of numbers or any typed array, unless a Float64Array is required (it says so).
//   Matrices     Float64Array, row-major: element (i, j) of an (r × c) matrix is at i·c + j.

/** Options for createDsml (Emscripten's module options; web/wasm.js passes a compiled WebAssembly.Module). */
export interface DsmlModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  instantiateWasm?: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => object;
  locateFile?: (path: string, prefix: string) => string;
}

/** Instantiates the core. Resolves to the module whose functions DsmlCore declares (below and in types/). */
export default function createDsml(options?: DsmlModuleOptions): Promise<DsmlCore>;

export interface DsmlCore {
  /** The core's version, "major.minor.patch". */
  version(): string;
}

// The rest of the API by domain, one line each: a domain file under types/ holds the domain's types (re-exported
// here) and adds its functions to DsmlCore with `declare module "../dsml" { interface DsmlCore { … } }`.
// tests/wasm/api.test.cjs reads this file and every file in types/, and fails on a file not listed here.
// A new domain is a new file of that shape and one line below.
export * from "./types/simulator";
export * from "./types/collectives";
export * from "./types/training";
export * from "./types/lab_kernels";
export * from "./types/param_server";
export * from "./types/model_parallel";
export * from "./types/compression";
export * from "./types/fault_tolerance";
export * from "./types/planner";
