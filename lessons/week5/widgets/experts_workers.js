// experts_workers.js — widget "experts-workers" (section #experts): the MoE layer of the "experts" widget run for real on 4
// Workers with the reference solution of exercise w5-moe-dispatch (moe_program.js around the exercise's own
// `dispatch` and `combine`, so what runs here is what CI judges). Shows, from the run: assignments kept and dropped
// per expert (the slots the ranks returned), the bytes every rank sent in each all-to-all (the trace, against
// (R − 1)·(E/R)·C·D·8), and the loss of the gathered outputs against core.expertParallel's.
import { button, controlRow, select, statusReadout, tableScroll } from "../../../web/ui/controls.js";
import { formatBytes, formatNumber, plural } from "../../../web/units.js";
import { moeDispatch } from "../exercises/moe_dispatch.js";
import { moeInputs, moeProgram } from "../programs/moe_program.js";
import { MOE_EXAMPLE } from "../scale_setup.js";
import { finished, runGuard } from "../../../web/ui/worker_run.js";

const RANKS = MOE_EXAMPLE.ranks;

export function mountExpertsWorkers(figure, core, clusters) {
  const topK = select({ label: "Router", value: String(MOE_EXAMPLE.moe.topK), options: [["1", "top-1"], ["2", "top-2"]], onChange: stale });
  const factor = select({ label: "Capacity factor c", value: String(MOE_EXAMPLE.moe.capacityFactor),
    options: ["1", "1.25", "2"].map((c) => [c, c]), onChange: stale });
  const run = button(`Run on ${RANKS} Workers`, () => runOnWorkers());
  controlRow(figure, topK, factor, run);
  const status = statusReadout(figure);
  const guard = runGuard(figure, [run], status);
  const tables = tableScroll(status);
  status.textContent = `Press “Run on ${RANKS} Workers”: each Worker is one expert-parallel rank with ` +
    `${MOE_EXAMPLE.batch / RANKS} tokens and ${MOE_EXAMPLE.moe.experts / RANKS} experts, and runs the reference dispatch and combine of the MoE code exercise.`;

  function stale() {
    if (!guard.busy) tables.replaceChildren();
  }

  const settings = () => {
    const moe = { ...MOE_EXAMPLE.moe, activation: "gelu", topK: Number(topK.value), capacityFactor: Number(factor.value) };
    return { moe, tokens: MOE_EXAMPLE.batch / RANKS, ranks: RANKS, seed: MOE_EXAMPLE.seed };
  };

  const runOnWorkers = () => guard(async () => {
    const config = settings();
    status.textContent = `Running the MoE layer on ${RANKS} Workers…`;
    const result = await clusters.run(RANKS, moeProgram(moeDispatch.solution), { inputs: moeInputs(config), timeoutMs: 30000 });
    finished(result);
    show(config, result);
  });

  function show(config, result) {
    const { moe, tokens: T } = config, E = moe.experts, D = moe.width;
    const ep = core.expertParallel({ moe, ranks: RANKS, batch: RANKS * T, seed: config.seed });
    const kept = new Array(E).fill(0), wanted = new Array(E).fill(0);
    for (const r of result.results) {
      r.expert.forEach((e, a) => { wanted[e] += 1; if (r.slots[a] >= 0) kept[e] += 1; });
    }
    const sent = (phase, rank) => result.trace.filter((m) => m.tag === phase && m.src === rank && m.dst !== rank)
      .reduce((n, m) => n + m.bytes, 0);
    const y = new Float64Array(RANKS * T * D);
    result.results.forEach((r, i) => y.set(r.y, i * T * D));
    const shape = { layers: 1, width: D, hidden: moe.hidden, activation: moe.activation, residual: false };
    const loss = core.mseLoss(y, core.teacherBatch({ model: shape, seed: config.seed, batch: RANKS * T }).targets).loss;
    const dropped = wanted.reduce((a, b) => a + b, 0) - kept.reduce((a, b) => a + b, 0);
    const perRank = E / RANKS;
    const experts = wanted.map((w, e) => `<tr><th scope="row">${e}</th><td>${Math.floor(e / perRank)}</td><td>${w}</td>` +
      `<td>${kept[e]}</td><td>${w - kept[e]}</td></tr>`).join("");
    const ranks = Array.from({ length: RANKS }, (_, r) => `<tr><th scope="row">${r}</th><td>${formatBytes(sent("dispatch", r))}</td>` +
      `<td>${formatBytes(sent("combine", r))}</td></tr>`).join("");
    tables.innerHTML = `<table><caption>Assignments per expert (C = ${ep.capacity} per rank, ${ep.capacity * RANKS} in all)` +
      `</caption><thead><tr><th scope="col">expert</th><th scope="col">rank</th>` +
      `<th scope="col">wanted</th><th scope="col">kept</th><th scope="col">dropped</th></tr></thead><tbody>${experts}</tbody></table>` +
      `<table><caption>Bytes each rank sent, from the trace</caption><thead><tr><th scope="col">rank</th>` +
      `<th scope="col">dispatch</th><th scope="col">combine</th></tr></thead><tbody>${ranks}</tbody></table>`;
    const even = Array.from({ length: RANKS }, (_, r) => [sent("dispatch", r), sent("combine", r)]).flat()
      .every((b) => b === ep.allToAllBytesPerRank);
    const bytes = even ? `Every rank sent ${formatBytes(ep.allToAllBytesPerRank)} in each all-to-all — (R − 1)·(E/R)·C·D·8, ` +
      "whatever the router chose: the empty slots travel too." : `The ranks did not all send (R − 1)·(E/R)·C·D·8 = ` +
      `${formatBytes(ep.allToAllBytesPerRank)} per all-to-all (see the table).`;
    status.textContent = `${plural(dropped, "assignment")} dropped (the core's layer drops ${ep.dropped}). ${bytes} The loss of the gathered outputs, ${formatNumber(loss, 6)}, equals core.expertParallel's to ` +
      `${formatNumber(Math.abs(loss - ep.loss) / ep.loss, 2)}; the run took ${formatNumber(result.elapsedMs, 3)} ms.`;
  }
}
