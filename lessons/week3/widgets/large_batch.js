// large_batch.js — widget "large-batch": the learning-rate sweep of SGD, Adam, LARS or LAMB at P = 1 … 8
// data-parallel ranks of 16 rows on equal samples (large_batch_setup.js), trained by the core (core.trainCompare);
// a rate that diverges is a curve that blows up, with the step it diverged at marked (divergedAt). Warm-up on or
// off; LARS and LAMB show each layer's trust ratio per step; a button runs the linear-scaling experiment for all four.
// The trainings (4 per view, 32 for the experiment: seconds on a slow machine) run in a Worker (core_tasks.js).
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { button, chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatNumber } from "../../../web/units.js";
import { coreTasks } from "../../../web/lesson/core_tasks.js";
import { BASE, DEVICES, LOCAL_BATCH, OPTIMIZERS, SWEEPS, finalLoss, warmupSteps } from "../large_batch_setup.js";

const tasks = coreTasks(new URL("../large_batch_setup.js", import.meta.url));

const CAP = 1e3;  // losses above this are drawn at the cap: the curve has blown up
const show = (x) => (Number.isFinite(x) ? formatNumber(x, { digits: 3 }) : "diverged");
// The first step whose loss is above CAP or not finite (where its curve leaves the plot), or −1.
const offPlot = (losses) => Array.from(losses).findIndex((loss) => !(loss <= CAP));
const tensorName = (i) => `block ${Math.floor(i / 2)} ${i % 2 ? "w_out" : "w_in"}`;

export function mountLargeBatch(figure) {
  const optimizer = select({ label: "Optimizer", options: OPTIMIZERS, value: "sgd", onChange: draw });
  const ranks = select({ label: "Ranks P", options: DEVICES.map((p) => [String(p), `${p} (batch ${LOCAL_BATCH * p})`]), value: "8", onChange: draw });
  const warm = select({ label: "Warm-up", options: [["off", "off"], ["on", "first 20%"]], value: "off", onChange: draw });
  const table = button("Run the linear-scaling experiment", experiment, { secondary: true });
  controlRow(figure, optimizer, ranks, warm, table);
  const out = readout(figure);
  const lossCanvas = chartBox(figure, "Training loss against samples seen, one curve per learning rate");
  const lossChart = createLineChart(lossCanvas, { xLabel: "samples seen", yLabel: "loss (MSE)", logY: true, datasets: [] });
  const ratioCanvas = chartBox(figure, "LARS or LAMB trust ratio of each layer against the step");
  const ratioChart = createLineChart(ratioCanvas, { xLabel: "step", yLabel: "trust ratio", logY: true, datasets: [],
    empty: "SGD and Adam have no trust ratio: every layer gets the same rate. Choose LARS or LAMB." });
  const scalingOut = readout(figure, "widget-readout large-batch-table");

  async function draw() {
    const opt = optimizer.value, P = Number(ranks.value), warmup = warm.value === "on", rows = LOCAL_BATCH * P;
    out.textContent = `Training ${SWEEPS[opt].length} learning rates on P = ${P} ranks…`;
    let computed;
    try {
      computed = await tasks.latest("draw", "sweep", opt, P, warmup);
    } catch (err) {
      out.textContent = `The training could not run: ${err.message}`;
      return;
    }
    const current = optimizer.value === opt && Number(ranks.value) === P && (warm.value === "on") === warmup;
    if (!computed || !current) return;   // the controls changed meanwhile: a newer draw follows
    const { runs, ratios } = computed;
    // A curve is drawn until its loss leaves the plot (above CAP, or not finite), and marked there; that can be a few
    // steps before the core's divergedAt, the first step whose loss or gradient is not finite, which the text states.
    const off = runs.map(({ run }) => offPlot(run.losses));
    lossChart.update({
      datasets: runs.map(({ lr, run }, i) => ({ label: `lr ${lr}${run.divergedAt >= 0 ? ` (diverged at step ${run.divergedAt})` : ""}`,
        data: Array.from(run.losses.slice(0, off[i] < 0 ? undefined : off[i] + 1), (loss, s) => ({ x: (s + 1) * rows,
          y: Number.isFinite(loss) ? Math.min(CAP, loss) : CAP })) })),
      verticalLines: runs.flatMap(({ lr, run }, i) => (off[i] < 0 ? [] : [{ x: (off[i] + 1) * rows,
        label: `lr ${lr}: loss ${Number.isFinite(run.losses[off[i]]) ? `> ${CAP}` : "not finite"}` }])),
    });
    ratioChart.update({ datasets: ratios.length ? Array.from(ratios[0], (_, i) => ({ label: tensorName(i),
      data: ratios.map((step, s) => ({ x: s, y: step[i] })) })) : [] });
    const diverged = runs.filter(({ run }) => run.divergedAt >= 0);
    out.innerHTML = `${OPTIMIZERS.find(([k]) => k === opt)[1]} on P = ${P} ranks (batch ${rows}, ${runs[0].run.losses.length} steps` +
      `${warmup ? `, warm-up ${warmupSteps(P)} steps` : ""}): final loss ${runs.map(({ lr, run }) => `${lr} → ${show(finalLoss(run))}`).join(", ")}. ` +
      (diverged.length ? `<strong>${diverged.map(({ lr, run }) => `lr ${lr} diverged at step ${run.divergedAt}`).join("; ")}</strong>.` : "No rate diverged.") +
      runs.map(({ lr, run }, i) => (off[i] >= 0 && off[i] !== run.divergedAt ? ` The loss of lr ${lr} leaves the plot (above ` +
        `${CAP}) at step ${off[i]}, where its mark is.` : "")).join("") +
      (ratios.length ? ` At lr = ${BASE[opt]}·P the layers' trust ratios range from ${formatNumber(Math.min(...ratios[0]), { digits: 3 })} ` +
        `to ${formatNumber(Math.max(...ratios[0]), { digits: 3 })} at step 0.` : "");
    describeChart(figure, `Loss against samples for learning rates ${SWEEPS[opt].join(", ")}; a rate that is too large blows up ` +
      `(drawn at ${CAP}) and stops.`, [["lr", "final loss", "diverged at step"], ...runs.map(({ lr, run }) =>
      [String(lr), show(finalLoss(run)), run.divergedAt >= 0 ? String(run.divergedAt) : "—"])]);
  }

  // Every optimizer from its best rate at P = 1, lr = base·P, with and without warm-up: the final losses.
  async function experiment() {
    table.disabled = true;
    scalingOut.textContent = "Training 32 runs (4 optimizers × 4 values of P × warm-up on or off)…";
    try {
      const losses = await tasks.call("scalingTable");
      const head = `<tr><th scope="col">optimizer (base lr)</th><th scope="col">warm-up</th>${DEVICES.map((p) => `<th scope="col">P = ${p}</th>`).join("")}</tr>`;
      const body = OPTIMIZERS.flatMap(([k, name], i) => [false, true].map((w, j) => `<tr><th scope="row">${name} (${BASE[k]}·P)</th>` +
        `<td>${w ? "20%" : "none"}</td>${losses[i][j].map((loss) => `<td>${show(loss)}</td>`).join("")}</tr>`)).join("");
      scalingOut.innerHTML = `<table class="data-table"><caption>Final loss with the linear scaling rule, 3,200 samples</caption>` +
        `<thead>${head}</thead><tbody>${body}</tbody></table>`;
    } catch (err) {
      scalingOut.textContent = `The experiment could not run: ${err.message}`;
    } finally {
      table.disabled = false;
    }
  }
  draw();
}
