// animate.js — widget "animate": any collective algorithm on p ranks, step by step. The core generates the
// schedule and simulates it; the table shows which ranks' contributions each slot of each rank holds after
// every batch of arrivals. "Run on Workers" executes the same schedule on real Workers with real data.
import { button, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { renderTimeline } from "../../../web/ui/timeline.js";
import { formatSeconds, plural } from "../../../web/units.js";
import { describeHolding, initialHoldings, replaySchedule } from "./schedule_replay.js";
import { RUN_SCHEDULE, initialValue, scheduleInputs } from "../programs/run_schedule.js";

const COLLECTIVES = ["all-reduce", "reduce-scatter", "all-gather", "broadcast", "reduce", "all-to-all"];
const devicesPerNode = (p) => (p % 4 === 0 ? 4 : p % 2 === 0 ? 2 : 1);

// options: { collectives (those offered), collective, algorithm, ranks, only (algorithms offered, if restricted) }
export function mountAnimate(figure, core, clusters, options = {}) {
  const { collectives = COLLECTIVES, only = null } = options;
  const algorithms = core.listAlgorithms().filter((a) => !only || only.includes(a.algorithm));
  const collective = select({ label: "Collective", value: options.collective ?? collectives[0], options: collectives.map((c) => [c, c]),
    onChange: () => { fillAlgorithms(); rebuild(); } });
  const algorithm = select({ label: "Algorithm", value: options.algorithm ?? "ring", options: [], onChange: rebuild });
  const ranks = slider({ label: "Ranks p", min: 2, max: 16, step: 1, value: options.ranks ?? 4, format: String, onInput: rebuild });
  const frame = slider({ label: "After arrival batch", min: 0, max: 1, step: 1, value: 0, format: String, onInput: show });
  const prev = button("◀ Step", () => { frame.value = Math.max(0, frame.value - 1); show(); }, { secondary: true });
  const next = button("Step ▶", () => { frame.value = Math.min(frames.length - 1, frame.value + 1); show(); }, { secondary: true });
  const onWorkers = button("Run on Workers", runOnWorkers);
  controlRow(figure, collective, algorithm, ranks, frame, prev, next, onWorkers);
  const out = readout(figure);
  const box = document.createElement("div");
  box.className = "table-scroll";
  const table = document.createElement("table");
  table.className = "slot-table";
  box.append(table);
  const workerOut = document.createElement("p");
  workerOut.setAttribute("aria-live", "polite");
  const timeline = document.createElement("div");
  timeline.className = "timeline";
  out.after(box, workerOut, timeline);

  let schedule = null, frames = [];
  function fillAlgorithms() {
    const sel = algorithm.el.querySelector("select");
    const keep = sel.value;
    sel.replaceChildren(...algorithms.filter((a) => a.collective === collective.value)
      .map((a) => new Option(a.algorithm, a.algorithm)));
    if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
    else if (options.algorithm && [...sel.options].some((o) => o.value === options.algorithm)) sel.value = options.algorithm;
  }
  function rebuild() {
    const p = Math.round(ranks.value);
    try {
      schedule = core.schedule(collective.value, algorithm.value, { ranks: p, bytes: 4 * 64 * p, devicesPerNode: devicesPerNode(p) });
      const sim = core.simulateCollective({ collective: collective.value, algorithm: algorithm.value, ranks: p, bytes: 4 * 64 * p,
        devicesPerNode: devicesPerNode(p), topology: { kind: "fully-connected", alpha: 1e-6, beta: 1e-9 } });
      frames = replaySchedule(schedule, sim.messages);
    } catch (err) {
      schedule = null; frames = [];
      out.textContent = err.message;
      table.replaceChildren();
      return;
    }
    frame.input.max = String(frames.length - 1);
    frame.value = 0;
    show();
  }
  function show() {
    if (!schedule) return;
    const f = frames[Math.round(frame.value)];
    const changed = new Set(f.changed.map(([r, s]) => `${r}:${s}`));
    const doubled = new Set(f.doubleCounted.map(([r, s]) => `${r}:${s}`));
    const p = schedule.ranks, slots = schedule.slotBytes.length;
    table.innerHTML = "";
    table.createCaption().textContent = `${schedule.collective}, ${schedule.algorithm}: contributions held per rank and slot`;
    const head = table.createTHead().insertRow();
    head.insertCell().outerHTML = "<th scope=col>rank</th>";
    for (let s = 0; s < slots; s++) head.insertCell().outerHTML = `<th scope=col>slot ${s}</th>`;
    const body = table.createTBody();
    f.holdings.forEach((row, r) => {
      const tr = body.insertRow();
      tr.insertCell().outerHTML = `<th scope=row>${r}</th>`;
      row.forEach((holding, s) => {
        const td = tr.insertCell();
        td.textContent = describeHolding(holding);
        if (holding.length === p) td.classList.add("complete");
        if (changed.has(`${r}:${s}`)) td.classList.add("changed");
        if (doubled.has(`${r}:${s}`)) td.classList.add("double");
      });
    });
    out.textContent = f.time === 0
      ? `Before the first message: ${plural(frames.length - 1, "batch", "batches")} of arrivals follow. Cells list the ranks whose data a slot holds.`
      : `At t = ${formatSeconds(f.time)} (α = 1 µs, β = 1 ns/B): ${plural(f.changed.length, "slot")} updated (highlighted).`;
  }
  async function runOnWorkers() {
    if (!schedule) return;
    onWorkers.disabled = true;
    try {
      const holdings = initialHoldings(schedule);
      const { inputs, slotElements } = scheduleInputs(schedule, holdings);
      const run = await clusters.run(schedule.ranks, RUN_SCHEDULE, { inputs });
      if (run.status !== "ok") throw new Error(run.error?.message ?? run.deadlock?.message ?? run.timeout?.message);
      const final = frames.at(-1).holdings;
      let checked = 0;
      final.forEach((row, r) => row.forEach((owners, s) => {
        if (!owners.length) return;
        for (let i = 0; i < slotElements[s]; i++) {
          const want = owners.reduce((sum, o) => sum + initialValue(o, s, i), 0);
          if (run.results[r][s][i] !== want) throw new Error(`rank ${r} slot ${s}[${i}]: expected ${want}, got ${run.results[r][s][i]}`);
          checked += 1;
        }
      }));
      workerOut.textContent = `On ${plural(schedule.ranks, "Worker")}: ${plural(run.trace.length, "message")}, ` +
        `${plural(checked, "value")} checked — every rank holds what the collective promises ` +
        `(${formatSeconds(run.elapsedMs / 1000)}).`;
      renderTimeline(timeline, run.spans, { ranks: schedule.ranks, title: "Measured on Workers" });
    } catch (err) {
      workerOut.textContent = `Run on Workers failed: ${err.message}`;
    } finally {
      onWorkers.disabled = false;
    }
  }
  fillAlgorithms();
  rebuild();
}
