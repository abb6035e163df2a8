// cost_table.js — widgets "cost-counter" and "gather-scatter": per algorithm, the rounds (messages on the
// busiest rank), bytes on the busiest rank, the closed-form time and the simulated time — counted from the
// core's schedule, so the table and the formula can be checked against each other.
import { controlRow, readout, select, slider, tableScroll } from "../../../web/ui/controls.js";
import { costSliders } from "../../../web/ui/cost_sliders.js";
import { formatBytes, formatSeconds } from "../../../web/units.js";

// Messages and bytes sent by the busiest rank of a schedule.
export function countSchedule(schedule) {
  let rounds = 0, bytes = 0;
  for (const steps of schedule.steps) {
    const sends = steps.filter((s) => s.op === "send");
    rounds = Math.max(rounds, sends.length);
    bytes = Math.max(bytes, sends.reduce((b, s) => b + s.slots.reduce((x, slot) => x + schedule.slotBytes[slot], 0), 0));
  }
  return { rounds, bytes };
}

function row(core, collective, algorithm, p, n, model) {
  const bytes = Math.max(4 * p, Math.round(n / (4 * p)) * 4 * p);
  const schedule = core.schedule(collective, algorithm, { ranks: p, bytes, devicesPerNode: p % 2 === 0 ? 2 : 1 });
  const counted = countSchedule(schedule);
  const closed = core.collectiveCost(collective, algorithm, { ranks: p, bytes, ...model, devicesPerNode: p % 2 === 0 ? 2 : 1 });
  const simulated = core.simulateCollective({ collective, algorithm, ranks: p, bytes, gamma: model.gamma,
    devicesPerNode: p % 2 === 0 ? 2 : 1, topology: { kind: "fully-connected", alpha: model.alpha, beta: model.beta } }).makespan;
  return [algorithm, String(counted.rounds), formatBytes(counted.bytes), formatSeconds(closed), formatSeconds(simulated)];
}

function mountTable(figure, core, collectives, initial) {
  const collective = collectives.length > 1
    ? select({ label: "Collective", value: initial, options: collectives.map((c) => [c, c]), onChange: draw }) : null;
  const ranks = slider({ label: "Ranks p", min: 2, max: 64, step: 1, value: 8, format: String, onInput: draw });
  const size = slider({ label: "Data size n", min: 1e3, max: 1e9, value: 1e6, log: true, format: formatBytes, onInput: draw });
  const { bandwidth } = costSliders({ bandwidth: [1e9, 1e12, 25e9] }, draw);
  controlRow(figure, ...(collective ? [collective] : []), ranks, size, bandwidth);
  const out = readout(figure);
  const box = tableScroll(out);
  const table = document.createElement("table");
  table.className = "trace-table";
  box.append(table);
  const algorithms = core.listAlgorithms();

  function draw() {
    const c = collective ? collective.value : initial, p = Math.round(ranks.value), n = size.value;
    const model = { alpha: 5e-6, beta: 1 / bandwidth.value, gamma: 0 };
    const names = algorithms.filter((a) => a.collective === c && a.algorithm !== "hierarchical").map((a) => a.algorithm);
    table.innerHTML = `<caption>${c} on ${p} ranks, ${formatBytes(n)}, α = 5 µs</caption><thead><tr><th scope=col>algorithm</th>` +
      "<th scope=col>rounds (busiest rank)</th><th scope=col>bytes sent (busiest rank)</th><th scope=col>formula</th>" +
      "<th scope=col>simulated</th></tr></thead>";
    const body = table.createTBody();
    for (const name of names) {
      const tr = body.insertRow();
      for (const text of row(core, c, name, p, n, model)) tr.insertCell().textContent = text;
    }
    const lb = core.lowerBound(c, { ranks: p, bytes: n, ...model });
    out.innerHTML = `Lower bound for ${c}: <strong>${formatSeconds(lb)}</strong>. Rounds and bytes are counted from the ` +
      "schedules; the formula column is Thakur et al.'s closed form, the last column the simulator on a switch.";
  }
  draw();
}

export const mountCostCounter = (figure, core) =>
  mountTable(figure, core, ["all-reduce", "broadcast", "reduce", "all-gather", "reduce-scatter", "all-to-all"], "all-reduce");
export const mountGatherScatter = (figure, core) =>
  mountTable(figure, core, ["all-gather", "reduce-scatter", "all-to-all"], "all-gather");
