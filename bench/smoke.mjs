// smoke.mjs — every benchmark in bench/ once, at a small size: a benchmark no test runs rots (a file moves, an API
// is renamed, and the bench breaks unseen). scripts/test.sh runs it after the exercise checkers.
//   node bench/smoke.mjs [name …]        names (BENCHES below) run only those
// Prints one line per bench: its name, seconds, and ok, skip (a tool it needs is not installed: which, and how to
// get it) or FAIL with the first error line; then the output of each failed bench. Exits 1 if any failed.
// Every entry of bench/ is either run here (BENCHES: the command of its small size) or listed in NOT_BENCHES with
// the reason, so a bench added later cannot be forgotten: an unlisted file is a FAIL. What a bench checks (a run
// equals one device, the closed form, the MPI library's result) it still checks at its small size; nothing here
// asserts a time — the seconds are printed only so that a bench grown slow is seen.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const TIMEOUT_S = 300;   // a hung bench (a Worker that never answers) must not hang CI: killed, a FAIL

// What a bench may need that the project's installer (scripts/lib.sh) may not have put there. Missing → skip.
const command = (name, how) => ({ missing: () => spawnSync("sh", ["-c", `command -v ${name}`]).status !== 0, why: `no ${name} (${how})` });
const file = (path, how) => ({ missing: () => !existsSync(join(ROOT, path)), why: `no ${path} (${how})` });
const npm = (name) => ({ missing: () => !resolves(name), why: `npm package ${name} not installed (npm ci)` });
const resolves = (name) => { try { createRequire(join(ROOT, "package.json")).resolve(name); return true; } catch { return false; } };
let hasNumpy;
const numpy = () => (hasNumpy ??= spawnSync("/usr/bin/python3", ["-c", "import numpy"]).status === 0);

const MPI = [command("mpirun", "Open MPI: apt install openmpi-bin libopenmpi-dev"),
  file("build/native/mpi/dsml-mpi", "built when CMake finds MPI: bash scripts/build.sh")];
const SMPI = [command("smpirun", "SimGrid SMPI: apt install libsimgrid-dev"),
  file("build/native/mpi/dsml-mpi-smpi", "built when CMake finds smpicxx: bash scripts/build.sh")];
const WASM_BENCH = (name) => file(`build/wasm/bench/${name}.cjs`, `NODE_PATH=/usr/share/nodejs cmake --build build/wasm --target ${name}_wasm`);
const GEMM_SMALL = ["--batch", "8", "--width", "32", "--hidden", "64", "--repeats", "2"];
const MLP_SMALL = ["--width", "32", "--hidden", "64", "--layers", "2", "--batch", "8", "--repeats", "2", "--warmup", "1"];
// Google Benchmark: each case once (1.7's --benchmark_min_time is in seconds; 0 stops after the first iteration).
const ONCE = "--benchmark_min_time=0";

// name, the bench/ files it runs, its small size's command (from the repository's root), and optionally the tools
// it needs, extra environment, and a note printed beside "ok".
const BENCHES = [
  { name: "collective_ring_256", files: ["collective_ring_256.cpp"],   // the 1024-rank cases run 3 times whatever the flag
    run: ["build/native/collective_ring_256", ONCE, "--benchmark_filter=-1024"] },
  { name: "gemm_shapes native", files: ["gemm_shapes.cpp"], run: ["build/native/gemm_shapes", ...GEMM_SMALL] },
  { name: "gemm_shapes wasm", files: ["gemm_shapes.cpp"], needs: [WASM_BENCH("gemm_shapes")],
    run: ["node", "build/wasm/bench/gemm_shapes.cjs", ...GEMM_SMALL] },
  { name: "published_runs", files: ["published_runs.cpp"], run: ["build/native/published_runs"] },
  { name: "scenario_throughput", files: ["scenario_throughput.cpp"], run: ["build/native/scenario_throughput", ONCE] },
  { name: "sim_throughput", files: ["sim_throughput.cpp"], run: ["build/native/sim_throughput", ONCE] },
  { name: "sim_throughput_wasm", files: ["sim_throughput_wasm.mjs"], run: ["node", "bench/sim_throughput_wasm.mjs"] },
  { name: "week4_ps_runs", files: ["week4_ps_runs.mjs"], run: ["node", "bench/week4_ps_runs.mjs", "--runs", "1"] },
  { name: "wasm_first_call", files: ["wasm_first_call.cjs"], run: ["node", "bench/wasm_first_call.cjs", "--ranks", "64", "--calls", "2"] },
  { name: "collective_scale", files: ["collective_scale.sh"], needs: [command("/usr/bin/time", "GNU time: apt install time")],
    env: { RUNS: "1", RANKS: "256" }, run: ["bash", "bench/collective_scale.sh"] },
  { name: "collective_16k", files: ["collective_16k.sh"], needs: [command("/usr/bin/time", "GNU time: apt install time")],
    env: { RANKS: "64" }, run: ["bash", "bench/collective_16k.sh"] },
  { name: "capstone_sweep", files: ["capstone_sweep.sh"], env: { WORKERS: "4", SWEEP: "1,2" }, run: ["bash", "bench/capstone_sweep.sh"] },
  { name: "mlp_step", files: ["mlp_step.sh", "mlp_step.cpp", "mlp_step_tfjs.mjs", "mlp_step_numpy.py"],
    needs: [WASM_BENCH("mlp_step"), npm("@tensorflow/tfjs-backend-wasm")],
    // The NumPy row only where NumPy is installed: the script would install it with apt (a baseline, not the course).
    env: () => ({ RUNS: "1", NUMPY: numpy() ? "1" : "0" }),
    note: () => (numpy() ? "" : "without the NumPy row: /usr/bin/python3 cannot import numpy (apt install python3-numpy)"),
    run: ["bash", "bench/mlp_step.sh", ...MLP_SMALL] },
  { name: "simd", files: ["simd.sh"], needs: [command("em++", "emscripten: apt install emscripten")], run: ["bash", "bench/simd.sh"] },
  { name: "mpi_allreduce", files: ["mpi_allreduce.sh"], needs: MPI, env: { RANKS: "2", TO: "16384", REPS: "1" },
    run: ["bash", "bench/mpi_allreduce.sh"] },
  { name: "smpi_allreduce", files: ["smpi_allreduce.sh"], needs: SMPI, env: { RANKS: "16", SIZES: "65536" },
    run: ["bash", "bench/smpi_allreduce.sh"] },
  { name: "reference_times", files: ["reference_times.mjs"], run: ["node", "bench/reference_times.mjs", "w1-token-ring", "w2-ring-allreduce"] },
  // Headless Chromium on the built site (site/).
  { name: "lab_steps", files: ["lab_steps.mjs"], run: ["node", "bench/lab_steps.mjs", "--runs", "1", "--steps", "4"] },
  { name: "lab_profile", files: ["lab_profile.mjs"], run: ["node", "bench/lab_profile.mjs", "--runs", "1", "--steps", "4"] },
  { name: "week3_dp_steps", files: ["week3_dp_steps.mjs"], run: ["node", "bench/week3_dp_steps.mjs", "--workers", "2", "--runs", "1", "--steps", "5"] },
  { name: "week5_core_calls", files: ["week5_core_calls.mjs"], run: ["node", "bench/week5_core_calls.mjs", "--runs", "1"] },
  { name: "page_sim_1024", files: ["page_sim_1024.mjs"], run: ["node", "bench/page_sim_1024.mjs", "--ranks", "64", "--runs", "1"] },
  { name: "page_weight", files: ["page_weight.mjs"], run: ["node", "bench/page_weight.mjs", "week1/"] },
  { name: "ready_time", files: ["ready_time.mjs"], run: ["node", "bench/ready_time.mjs", "--loads", "1", "week1"] },
  { name: "worker_pingpong", files: ["worker_pingpong.mjs"], run: ["node", "bench/worker_pingpong.mjs", "--rounds", "20", "--ranks", "2"] },
  { name: "workers_ready", files: ["workers_ready.mjs"], run: ["node", "bench/workers_ready.mjs", "--ranks", "2", "--loads", "1"] },
  // One page, one run: 15–35 s, so it stays here (every page, as the README's row: several minutes).
  { name: "lighthouse", files: ["lighthouse.mjs"], needs: [npm("lighthouse")], run: ["node", "bench/lighthouse.mjs", ""] },
];

// Entries of bench/ that are not benches, and why.
const NOT_BENCHES = {
  "smoke.mjs": "this runner",
  "cli_args.mjs": "a library: the benches' --name value options",
  "lab_session.mjs": "a library: the set-up lab_steps.mjs and lab_profile.mjs share",
  "mpi_table.mjs": "a library: the table mpi_allreduce.sh and smpi_allreduce.sh print",
  "wasm_simd": "the program simd.sh compiles",
  "results": "measurements kept by hand (ignored by git)",
};

// Runs `bench` (its command in its own process group, killed with its children on timeout) → { status, seconds, … }.
function runBench(bench) {
  const missing = (bench.needs ?? []).find((n) => n.missing());
  if (missing) return Promise.resolve({ status: "skip", seconds: 0, detail: missing.why, output: "" });
  const env = { ...process.env, ...(typeof bench.env === "function" ? bench.env() : bench.env) };
  const start = performance.now();
  return new Promise((done) => {
    const child = spawn(bench.run[0], bench.run.slice(1), { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "", stderr = "", timedOut = false;
    child.stdout.on("data", (d) => { output += d; });
    child.stderr.on("data", (d) => { output += d; stderr += d; });
    const timer = setTimeout(() => { timedOut = true; process.kill(-child.pid, "SIGKILL"); }, TIMEOUT_S * 1000);
    const finish = (code, error) => {
      clearTimeout(timer);
      const seconds = (performance.now() - start) / 1000;
      if (code === 0 && !error) done({ status: "ok", seconds, detail: bench.note?.() ?? "", output });
      else {
        const why = error ? `cannot run ${bench.run[0]}: ${error.message}` : timedOut ? `killed after ${TIMEOUT_S} s`
          : `exit ${code}: ${firstErrorLine(stderr, output)}`;
        done({ status: "FAIL", seconds, detail: why, output });
      }
    };
    child.on("error", (error) => finish(null, error));
    child.on("close", (code, signal) => finish(code ?? signal));
  });
}

// The line that says what went wrong: the first stderr line naming an error, else stderr's last line, else stdout's.
function firstErrorLine(stderr, output) {
  const lines = (text) => text.split("\n").map((l) => l.trim()).filter(Boolean);
  return lines(stderr).find((l) => /error|fail|cannot|not found|missing|differ|unknown/i.test(l)) ?? lines(stderr).at(-1)
    ?? lines(output).at(-1) ?? "no output";
}

// The entries of bench/ that no BENCHES entry runs and NOT_BENCHES does not explain, and listed files that are gone.
function coverage() {
  const entries = readdirSync(join(ROOT, "bench"));
  const listed = new Set([...BENCHES.flatMap((b) => b.files), ...Object.keys(NOT_BENCHES)]);
  return [
    ...entries.filter((e) => !listed.has(e)).map((e) => `bench/${e} is neither run by bench/smoke.mjs nor listed there as not a bench`),
    ...[...listed].filter((e) => !entries.includes(e) && e !== "results").map((e) => `bench/smoke.mjs lists bench/${e}, which is gone`),
  ];
}

const only = process.argv.slice(2);
const unknown = only.filter((n) => !BENCHES.some((b) => b.name === n));
if (unknown.length) {
  console.error(`unknown bench ${unknown.join(", ")}; the benches: ${BENCHES.map((b) => b.name).join(" ")}`);
  process.exit(2);
}
const failed = [];
let total = 0;
const line = (name, seconds, status, detail) =>
  console.log(`${name.padEnd(22)} ${seconds.toFixed(1).padStart(6)} s  ${detail ? `${status.padEnd(4)}  ${detail}` : status}`);
for (const problem of coverage()) {
  line("(bench/)", 0, "FAIL", problem);
  failed.push({ name: "(bench/)", output: "" });
}
for (const bench of BENCHES.filter((b) => only.length === 0 || only.includes(b.name))) {
  const result = await runBench(bench);
  total += result.seconds;
  line(bench.name, result.seconds, result.status, result.detail);
  if (result.status === "FAIL") failed.push({ name: bench.name, output: result.output });
}
console.log(`${total.toFixed(1)} s in all; ${failed.length ? `${failed.length} FAILED` : "none failed"}`);
for (const { name, output } of failed.filter((f) => f.output)) {
  console.log(`\n--- output of ${name} (last 40 lines) ---\n${output.trimEnd().split("\n").slice(-40).join("\n")}`);
}
process.exitCode = failed.length ? 1 : 0;
