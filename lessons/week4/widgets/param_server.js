// param_server.js — widget "param-server": W workers push gradients to and pull parameters from K server shards,
// each holding a key range of N parameters (4 B each) on a 10 Gb/s switch. For every K from 1 to W the core
// simulates three synchronous rounds (ps_setup.psRound → core.simulateParamServer: the busiest link and its busy
// time) beside the closed form of one round's pushes (core.psBandwidth) and the K where the servers stop being the
// bottleneck (core.psServersToBalance). Up to 32 simulations: in a Worker (core_tasks.js).
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { formatBytes, formatCount, formatSeconds } from "../../../web/units.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";

const tasks = coreTasks(new URL("../ps_setup.js", import.meta.url));

export function mountParamServer(figure) {
  const workers = slider({ label: "Workers W", min: 2, max: 32, value: 8, step: 1, onInput: draw });
  const size = slider({ label: "Parameters N", min: 1e5, max: 1e8, value: 25e6, log: true,
    format: (v) => `${formatCount(round2(v))} (${formatBytes(4 * round2(v))})`, onInput: draw });
  controlRow(figure, workers, size);
  const out = readout(figure);
  const canvas = chartBox(figure, "Round time and busiest link against the number of server shards K");
  const chart = createLineChart(canvas, { xLabel: "server shards K", yLabel: "seconds per round", logY: true, datasets: [],
    empty: "Simulating…" });

  async function draw() {
    const W = Math.round(workers.value), N = round2(size.value);
    const sweep = await latestDraw(tasks, figure, out, {}, "psSweep", { workers: W, parameters: N });
    if (!sweep) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    const { runs, balance } = sweep;
    const ks = runs.map((_, i) => i + 1);
    chart.update({
      datasets: [
        { label: "simulated round", data: runs.map((r, i) => ({ x: ks[i], y: r.round })) },
        // Dots, not a line: the simulation lies exactly on the shard's closed form, which a line would hide.
        { label: "busiest link (simulated)", points: true, line: false, data: runs.map((r, i) => ({ x: ks[i], y: r.busiest.busy })) },
        { label: "shard link W(α + βS/K)", dashed: true, data: runs.map((r, i) => ({ x: ks[i], y: r.closed.serverSeconds })) },
        { label: "worker link Kα + βS", dashed: true, data: runs.map((r, i) => ({ x: ks[i], y: r.closed.workerSeconds })) },
      ],
      verticalLines: [{ x: balance, label: `K* = ${balance}` }],
    });
    const one = runs[0], best = runs[balance - 1];
    out.innerHTML = `With one server, ${formatBytes(one.serverBytes)} of gradients enter it each round, and as many
      bytes of parameters leave it: the busiest link, ${linkName(one.busiest.name, W)}, is busy
      ${formatSeconds(one.busiest.busy)} a round, while each
      worker's uplink carries only ${formatBytes(4 * N)}. With K shards each server takes 1/K of it; at
      <strong>K = ${balance}</strong> a server's link carries no more than a worker's and the round (10 ms of compute, the push, the
      pull) falls to ${formatSeconds(best.round)} (from ${formatSeconds(one.round)}). The simulated busiest link lies on the
      closed form for the shard's link (S = 4N bytes).`;
    describeChart(figure, `The busiest link's time falls as 1/K until K = ${balance} = W, where the servers' links and the workers' links carry the same bytes.`,
      [["K", "round", "busiest link", "its busy time", "bytes into one server"], ...runs.map((r, i) => [String(ks[i]),
        formatSeconds(r.round), linkName(r.busiest.name, W), formatSeconds(r.busiest.busy), formatBytes(r.serverBytes)])]);
  }
  draw();
}

const round2 = (v) => Number(v.toPrecision(2));
// The core names links by node: "down 6" is node 6's incoming link; nodes 0 … W−1 are workers, W … are shards.
function linkName(name, W) {
  const [dir, node] = name.split(" ");
  const n = Number(node), who = n < W ? `worker ${n}` : `server ${n - W}`;
  return `${who}'s ${dir === "down" ? "downlink (in)" : "uplink (out)"}`;
}
