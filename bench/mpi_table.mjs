// mpi_table.mjs — turns the JSON lines of `dsml-mpi collective` / `sweep` (stdin) into a Markdown table:
// size, the course's algorithm, the MPI library's collective, their ratio, the α–β–γ prediction and its error.
// Used by bench/mpi_allreduce.sh and bench/smpi_allreduce.sh. Exits 1 if a row is not verified (the course's
// result differs from the library's).
import { createInterface } from "node:readline";

const fmtBytes = (n) => (n >= 1048576 ? `${n / 1048576} MiB` : n >= 1024 ? `${n / 1024} KiB` : `${n} B`);
const fmtTime = (s) => (s >= 1e-3 ? `${(s * 1e3).toPrecision(3)} ms` : `${(s * 1e6).toPrecision(3)} µs`);

const rows = [];
for await (const line of createInterface({ input: process.stdin })) {
  if (line.startsWith("{")) rows.push(JSON.parse(line));
}
if (rows.length === 0) throw new Error("no JSON lines on stdin");
const { model, mpi } = rows[0];
console.log(`${mpi}, ${rows[0].ranks} ranks — model (${model.source}): α = ${fmtTime(model.alpha_s)}, ` +
  `1/β = ${(1 / model.beta_s_per_byte / 1e9).toPrecision(3)} GB/s, γ = ${model.gamma_s_per_byte.toExponential(2)} s/B`);
console.log("");
console.log(`| ranks | size | course's ${rows[0].algorithm} | ${rows[0].library_call} | ratio | α–β–γ prediction | model error | verified |`);
console.log("|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.ranks} | ${fmtBytes(r.bytes)} | ${fmtTime(r.measured_s)} | ${fmtTime(r.library_s)} | ` +
    `${r.ratio_to_library.toFixed(2)} | ${fmtTime(r.predicted_s)} | ${(100 * r.model_error).toFixed(0)}% | ${r.verified} |`);
}
const wrong = rows.filter((r) => r.verified !== true);
if (wrong.length) {
  console.error(`not verified (the course's result differs from ${rows[0].library_call}'s): ` +
    wrong.map((r) => `${r.ranks} ranks, ${fmtBytes(r.bytes)}`).join("; "));
  process.exitCode = 1;
}
