// scaling_workers.js — widget "scaling-workers" (section #strong-weak): strong and weak scaling MEASURED on this machine's
// Workers — the Week 3 trainer (programs/dp_train.js, bucketed DDP) on P = 1, 2, 4, 8 Workers, for a fixed global
// batch and for a fixed batch per Worker; speed-up = rows/s over one Worker's, from the median step time. The
// Workers share the machine's cores (navigator.hardwareConcurrency), so beyond that many the compute does not
// divide any more: the measured curve shows the same wall as the priced one, for a different reason.
import { button, chartBox, controlRow, statusReadout } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { describeFailure } from "../../../web/ui/run_output.js";
import { formatCount, formatNumber, formatRatio, formatSeconds, plural } from "../../../web/units.js";
import { dpInputs, dpProgram } from "../programs/dp_program.js";
import { ddpConfig } from "./ddp_workers.js";

const WORKERS = [1, 2, 4, 8];
const STRONG_ROWS = 256;   // the global batch, fixed
const WEAK_ROWS = 128;     // rows per Worker, fixed
const STEPS = 6;
const powerOfTwo = (v) => (Number.isInteger(Math.log2(v)) ? formatNumber(v) : "");
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

export function mountScalingWorkers(figure, core, clusters) {
  const measure = button("Measure on the Workers", () => run());
  controlRow(figure, measure);
  const out = statusReadout(figure);
  const cores = globalThis.navigator?.hardwareConcurrency ?? null;
  const chart = createLineChart(chartBox(figure, "Measured speed-up of the data-parallel trainer against the number of Workers"),
    { xLabel: "Workers P", yLabel: "speed-up (rows/s ÷ one Worker's)", logX: true, logY: true, datasets: [],
      xTicks: powerOfTwo, yTicks: powerOfTwo,
      verticalLines: cores ? [{ x: cores, label: `${plural(cores, "core")} here` }] : [] });
  out.textContent = `Strong: ${formatCount(STRONG_ROWS)} rows a step shared by P Workers. Weak: ${formatCount(WEAK_ROWS)} rows per ` +
    `Worker. ${STEPS} steps each, bucketed DDP; this machine reports ${cores ? plural(cores, "core") : "an unknown number of cores"}.`;
  let busy = false;

  async function stepSeconds(P, batch) {
    const cfg = { ...ddpConfig(P, "bucketed", 64 * 1024), batch, steps: STEPS };
    const result = await clusters.run(P, dpProgram(), { inputs: dpInputs(cfg, P), timeoutMs: Infinity, stallMs: 60000 });
    if (result.status !== "ok") throw new Error(describeFailure(result).replace(/<[^>]+>/g, ""));
    return median(result.results[0].stepSeconds.slice(2));   // the first steps warm up
  }

  async function run() {
    if (busy) return;
    busy = true;
    measure.disabled = true;
    const strong = [], weak = [];
    try {
      for (const P of WORKERS) {
        out.textContent = `Measuring on ${plural(P, "Worker")}…`;
        strong.push({ P, t: await stepSeconds(P, STRONG_ROWS) });
        weak.push({ P, t: await stepSeconds(P, WEAK_ROWS * P) });
        draw(strong, weak);
      }
      const s8 = strong[0].t / strong.at(-1).t, w8 = (8 * weak[0].t) / weak.at(-1).t;
      out.textContent = `Measured on 8 Workers: strong scaling ${formatRatio(s8, { decimals: 1 })} (${formatSeconds(strong.at(-1).t, 2)} ` +
        `a step against ${formatSeconds(strong[0].t, 2)} on one), weak ${formatRatio(w8, { decimals: 1 })}. ` +
        (s8 < 1 ? "Eight Workers are slower than one: the all-reduce's messages cost more than the compute they share out. " : "") +
        (cores && cores < 8 ? `Beyond ${plural(cores, "core")} the Workers take turns on the same cores, so the compute stops ` +
          "dividing while the all-reduce's cost stays — the wall the priced model shows for GPUs, reached here because the " +
          "machine runs out of cores rather than of bandwidth." : "Every step pays the all-reduce's messages, which do not shrink with P.");
    } catch (err) {
      out.textContent = `The measurement could not finish: ${err.message}`;
    } finally {
      busy = false;
      measure.disabled = false;
    }
  }

  function draw(strong, weak) {
    const ideal = WORKERS.map((P) => ({ x: P, y: P }));
    const sp = strong.map((s) => ({ x: s.P, y: strong[0].t / s.t }));
    const wp = weak.map((s) => ({ x: s.P, y: (s.P * weak[0].t) / s.t }));
    chart.update({ datasets: [{ label: "ideal", dashed: true, data: ideal },
      { label: `weak (${formatCount(WEAK_ROWS)} rows per Worker)`, data: wp, points: true },
      { label: `strong (${formatCount(STRONG_ROWS)} rows in all)`, data: sp, points: true }] });
    describeChart(figure, `Measured speed-up on ${strong.map((s) => s.P).join(", ")} Workers: strong ` +
      `${sp.map((p) => formatRatio(p.y, { decimals: 1 })).join(", ")}; weak ${wp.map((p) => formatRatio(p.y, { decimals: 1 })).join(", ")}.`,
      [["Workers", "strong step", "weak step"], ...strong.map((s, i) => [String(s.P), formatSeconds(s.t, 2), formatSeconds(weak[i].t, 2)])]);
  }
}
