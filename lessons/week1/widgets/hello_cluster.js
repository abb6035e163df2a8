// hello_cluster.js — widget "hello-cluster": the ring greeting runs on p real Web Workers; each rank's
// log gets its own pane, the measured timeline shows sends and waits, and the trace lists every message.
import { button, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { renderTimeline } from "../../../web/ui/timeline.js";
import { renderRankLogs } from "../../../web/ui/run_output.js";
import { formatSeconds, plural } from "../../../web/units.js";

export function mountHelloCluster(figure, clusters, program) {
  const ranks = slider({ label: "Ranks p", min: 2, max: 8, step: 1, value: 4, format: String });
  const run = button("Run on Workers", go);
  controlRow(figure, ranks, run);
  const out = readout(figure);
  out.textContent = "Press Run: each rank greets its right neighbour and prints what it received.";
  const logs = document.createElement("div");
  logs.className = "rank-logs";
  const timeline = document.createElement("div");
  timeline.className = "timeline";
  const trace = document.createElement("table");
  trace.className = "trace-table";
  out.after(logs, timeline, trace);

  async function go() {
    run.disabled = true;
    out.textContent = "Running on Workers…";
    try {
      const p = Math.round(ranks.value);
      const result = await clusters.run(p, program, { inputs: Array(p).fill(null) });
      if (result.status !== "ok") throw new Error(result.error?.message ?? result.deadlock?.message ?? result.timeout?.message);
      out.textContent = `${plural(p, "Worker")} exchanged ${plural(result.trace.length, "message")} in ` +
        `${formatSeconds(result.elapsedMs / 1000)} of wall time.`;
      renderRankLogs(logs, result);
      renderTimeline(timeline, result.spans, { ranks: p, title: "Ring greeting: what each Worker did (measured)" });
      trace.innerHTML = "<caption>Trace: every message</caption><thead><tr><th scope=col>from → to</th>" +
        "<th scope=col>bytes</th><th scope=col>sent</th><th scope=col>received</th></tr></thead>";
      const body = trace.createTBody();
      for (const m of [...result.trace].sort((a, b) => a.sendTime - b.sendTime)) {
        const row = body.insertRow();
        for (const text of [`${m.src} → ${m.dst}`, String(m.bytes), formatSeconds(m.sendTime),
          m.recvTime === null ? "—" : formatSeconds(m.recvTime)]) row.insertCell().textContent = text;
      }
    } catch (err) {
      out.textContent = `The run failed: ${err.message}`;
    } finally {
      run.disabled = false;
    }
  }
}
