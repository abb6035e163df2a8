// wasm_first_call.cjs — what the wasm core's first big call costs compared with the next ones, in Node:
// a ring all-reduce of 1 MiB on 1024 ranks simulated (the case of bench/page_sim_1024.mjs) four times in one
// fresh instance, each with its wall time, its CPU time (user + system), the minor page faults it caused and the
// size of the wasm memory after it.
//
//   node bench/wasm_first_call.cjs [--ranks 1024] [--calls 4] [--core build/wasm/wasm-node]
//
// The first call touches every page its data needs for the first time: the kernel faults each 4 KiB page in and
// zeroes it. Later calls reuse the same pages (the allocator keeps freed memory inside the wasm heap), so they
// fault almost nothing. The difference is therefore (peak heap of the call) / 4 KiB × (cost of one fault).
// --core points at another build of dsml.cjs + dsml.wasm (e.g. one linked with -sINITIAL_MEMORY=…) to compare.
const { readFileSync } = require("node:fs");
const { join, resolve } = require("node:path");

function parseArgs(argv) {
  const opts = { ranks: 1024, calls: 4, core: join(__dirname, "..", "build", "wasm", "wasm-node") };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, ""), value = argv[i + 1];
    if (!(key in opts) || value === undefined) throw new Error(`unknown or incomplete option ${argv[i]}`);
    opts[key] = key === "core" ? resolve(value) : Number(value);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const start = performance.now();
  const core = await require(join(opts.core, "dsml.cjs"))({ wasmBinary: readFileSync(join(opts.core, "dsml.wasm")) });
  const memory = Object.values(core.asm).find((v) => v instanceof WebAssembly.Memory);
  const heapMiB = () => memory.buffer.byteLength / 2 ** 20;
  console.log(`core loaded in ${(performance.now() - start).toFixed(0)} ms, wasm memory ${heapMiB()} MiB`);
  const request = { collective: "all-reduce", algorithm: "ring", ranks: opts.ranks, bytes: 1 << 20, record: false,
                    topology: { kind: "fully-connected", alpha: 1e-6, beta: 1e-10 } };
  for (let call = 1; call <= opts.calls; call++) {
    const faults = process.resourceUsage().minorPageFault, cpu = process.cpuUsage(), t0 = performance.now();
    const result = core.simulateCollective(request);
    const wall = performance.now() - t0, used = process.cpuUsage(cpu);
    console.log(`call ${call}: ${wall.toFixed(0).padStart(5)} ms wall, ${((used.user + used.system) / 1e3).toFixed(0)
      .padStart(5)} ms CPU (${(used.system / 1e3).toFixed(0)} system), ${String(process.resourceUsage().minorPageFault
      - faults).padStart(6)} page faults, wasm memory ${heapMiB().toFixed(0)} MiB, ${result.events} events`);
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
