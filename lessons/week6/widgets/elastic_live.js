// elastic_live.js — widget "elastic-live" (section "Elastic training", live): 8 real Workers train data-parallel SGD
// (programs/live_train.js); at a step the learner picks, two of them leave, the six survivors rebuild the ring among
// themselves (web/programs/ring.js over the shorter member list) and cut the same global batch of 24 rows into 6
// shards instead of 8. The loss per step is compared with the core's trainElastic on the same schedule and the final θ with
// one device; the ring after the resize is read back from the run's own trace.
import { button, chartBox, controlRow, lockSettings, readout, select } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { describeFailure } from "../../../web/ui/run_output.js";
import { formatNumber } from "../../../web/units.js";
import { LIVE, elasticReference, finalParams, liveInput, liveProgram, maxAbsDifference, singleDevice } from "../programs/live_program.js";

const P = 8;
const LEAVERS = { "6,7": "ranks 6 and 7", "2,5": "ranks 2 and 5", "0,3": "ranks 0 and 3", "1,4,6": "ranks 1, 4 and 6" };

export function mountElasticLive(figure, core, clusters) {
  const leavers = select({ label: "Leaving", value: "2,5", options: Object.entries(LEAVERS), onChange: () => {} });
  const at = select({ label: "At step", value: "20", options: [["10", "10"], ["20", "20"], ["40", "40"]], onChange: () => {} });
  const run = button(`Run on ${P} Workers`, () => start());
  controlRow(figure, leavers, at, run);
  const status = readout(figure);
  status.setAttribute("role", "status");
  const chart = createLineChart(chartBox(figure, "Training loss per step on the Workers, the core's trainElastic and one device"),
    { xLabel: "step", yLabel: "training loss", datasets: [] });
  status.textContent = `${P} Workers train ${LIVE.steps} steps on a global batch of ${LIVE.batch} rows. Choose who leaves and ` +
    `when, and press “Run on ${P} Workers”.`;
  const config = { ...LIVE, stepDelayMs: 0, checkpointEvery: 0 };

  async function start() {
    run.disabled = true;
    delete figure.dataset.done;
    const gone = leavers.value.split(",").map(Number), step = Number(at.value);
    const survivors = Array.from({ length: P }, (_, r) => r).filter((r) => !gone.includes(r));
    const worlds = [{ step: 0, members: Array.from({ length: P }, (_, r) => r) }, { step, members: survivors }];
    // A schedule the core refuses is refused here, in words, before any Worker starts: run, it would end in the
    // course program's own refusal, which reads as a crash.
    const refused = reference(step, survivors.length).error;
    if (refused) {
      status.textContent = `Not run: with ${LEAVERS[leavers.value]} leaving, ${survivors.length} Workers remain, and a ` +
        `global batch of ${LIVE.batch} rows cannot be cut into ${survivors.length} equal shards. An elastic job keeps its ` +
        `global batch, so it can only shrink to a number of ranks that divides it (the core's trainElastic refuses this ` +
        `schedule too: ${refused}). Choose two leavers.`;
      chart.update({ datasets: [] });
      run.disabled = false;
      figure.dataset.done = "1";
      return;
    }
    status.textContent = `Running: ${LEAVERS[leavers.value]} leave at step ${step}…`;
    lockSettings(figure, true);
    try {
      const result = await clusters.run(P, liveProgram(), { inputs: new Array(P).fill(liveInput(P, { ...config, worlds })),
        timeoutMs: Infinity, stallMs: 60000 });
      if (result.status !== "ok") {
        status.innerHTML = `${describeFailure(result)} The core's trainElastic refuses the same schedule: ` +
          `${reference(step, survivors.length).error}.`;
        chart.update({ datasets: [] });
        return;
      }
      show(result, step, survivors);
    } catch (err) {
      status.textContent = `The run could not finish: ${err.message}`;
    } finally {
      run.disabled = false;
      lockSettings(figure, false);
      figure.dataset.done = "1";
    }
  }

  function reference(step, survivors) {
    try { return elasticReference(core, P, step, survivors, config); } catch (err) { return { error: err.message }; }
  }

  function show(result, step, survivors) {
    const losses = result.results[survivors[0]].losses, ref = reference(step, survivors.length), one = singleDevice(core, config);
    const lossGap = Math.max(...ref.losses.map((l, i) => Math.abs(l - losses[i])));
    const thetaGap = maxAbsDifference(finalParams(result), one.params);
    chart.update({
      datasets: [
        { label: "one device", data: one.losses.map((y, x) => ({ x, y })) },
        { label: "core.trainElastic", dashed: true, data: ref.losses.map((y, x) => ({ x, y })) },
        { label: "Workers (8, then 6)", points: true, line: false, data: losses.map((y, x) => ({ x, y })) },
      ],
      verticalLines: [{ x: step, label: `${P} → ${survivors.length}` }],
    });
    const ring = ringAfter(result.trace, survivors);
    figure.dataset.equality = JSON.stringify({ lossGap, thetaGap, ring });
    status.textContent = `Ring before: ${cycle(Array.from({ length: P }, (_, r) => r))}. Ring after step ${step}, read from ` +
      `the trace: ${ring} — the survivors renumbered 0 … ${survivors.length - 1}, ${LIVE.batch / survivors.length} rows ` +
      `each instead of ${LIVE.batch / P}. Loss per step against trainElastic: max difference ${formatNumber(lossGap, 2)}; ` +
      `final parameters against one device: max |Δθ| = ${formatNumber(thetaGap, 2)} (rounding).`;
    describeChart(figure, `The Workers' loss lies on trainElastic's and one device's at every step, across the resize ` +
      `from ${P} to ${survivors.length} at step ${step}.`,
      [["step", "Workers", "trainElastic", "one device"], ...losses.map((l, i) => [String(i), formatNumber(l, 6),
        formatNumber(ref.losses[i], 6), formatNumber(one.losses[i], 6)])]);
  }

  // The ring the survivors used: the links of every message sent after the last one to or from a leaver.
  function ringAfter(trace, survivors) {
    const leaverLast = Math.max(...trace.filter((m) => !survivors.includes(m.src) || !survivors.includes(m.dst)).map((m) => m.sendTime));
    const next = new Map(trace.filter((m) => m.sendTime > leaverLast).map((m) => [m.src, m.dst]));
    const order = [survivors[0]];
    while (order.length <= survivors.length && next.has(order.at(-1)) && next.get(order.at(-1)) !== order[0]) order.push(next.get(order.at(-1)));
    return order.length === survivors.length ? cycle(order) : "not a ring";
  }
}

const cycle = (ranks) => [...ranks, ranks[0]].join(" → ");
