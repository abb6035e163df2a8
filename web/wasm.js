// wasm.js — loads the C++ core once per page.
//
// The .wasm is compiled a single time (streaming where the server sends application/wasm); the resulting
// WebAssembly.Module is instantiated here and handed to every Worker, which instantiate it without a second
// download or compile (see cluster.js). loadCore() gives the page its own instance.
const WASM_URL = new URL("../wasm/dsml.wasm", import.meta.url);
const GLUE_URL = new URL("../wasm/dsml.mjs", import.meta.url);

let compiled = null;  // Promise<WebAssembly.Module>
let instance = null;  // Promise<core>

async function compile() {
  const response = await fetch(WASM_URL);
  if (!response.ok) throw new Error(`could not load the core (${WASM_URL.pathname}: HTTP ${response.status})`);
  if (WebAssembly.compileStreaming && response.headers.get("content-type") === "application/wasm") {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

// The compiled core, shared by the page and its Workers.
export function compileCore() {
  compiled ??= compile();
  return compiled;
}

// Instantiates the Emscripten module from an already compiled WebAssembly.Module (page or Worker).
export async function instantiateCore(module, glueUrl = GLUE_URL) {
  const { default: createDsml } = await import(glueUrl);
  return createDsml({
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(module, imports).then((inst) => done(inst, module));
      return {};
    },
  });
}

// The page's own instance of the core: { messageTime, crossoverSize, simulate, ... } (see core/bindings).
export function loadCore() {
  instance ??= compileCore().then((module) => instantiateCore(module));
  return instance;
}
