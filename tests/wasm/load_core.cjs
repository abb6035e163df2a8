// Loads the CommonJS build of the core for Node tests (Node cannot fetch the .wasm by path, so the bytes
// are read here and passed as wasmBinary).
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const dir = join(__dirname, "..", "..", "build", "wasm", "wasm-node");

let cached = null;
module.exports = function loadCore() {
  cached ??= require(join(dir, "dsml.cjs"))({ wasmBinary: readFileSync(join(dir, "dsml.wasm")) });
  return cached;
};
