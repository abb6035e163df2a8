// run_output.js — what a run on the Worker cluster shows the learner: each rank's output and returned value
// (values as the browser console would show them: arrays as arrays, typed arrays included, long ones cut), and
// a failed run described in words.
import { formatArgs } from "../worker/rank_console.js";
import { linesOf, linesText } from "../cluster/rank_lines.js";

const escapeHtml = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// One pane per rank: its output lines, then "→ returned …" (skipped for undefined). summarize(value, rank), if
// given, replaces the raw returned value by a sentence (the lab's trainer returns its whole report).
export function renderRankLogs(container, result, { summarize = null } = {}) {
  container.replaceChildren(...result.logs.map((lines, rank) => {
    const pane = document.createElement("section");
    pane.className = "rank-log";
    pane.setAttribute("aria-label", `Rank ${rank} output`);
    const h = document.createElement("h4");
    h.textContent = `rank ${rank}`;
    const ret = result.results?.[rank];
    const text = ret === undefined ? null : summarize ? safely(() => summarize(ret, rank)) : `returned ${formatArgs([ret])}`;
    const shown = text === null ? lines : [...lines, `→ ${text}`];
    const pre = document.createElement("pre");
    pre.textContent = shown.join("\n") || "(no output)";
    pane.append(h, pre);
    return pane;
  }));
}

const safely = (f) => { try { return f(); } catch { return "returned a value the summary could not read"; } };

// What went wrong in a run that did not finish, as HTML (the checker only sees finished runs).
export function describeFailure(run) {
  if (run.status === "timeout") {
    const blocked = linesOf(run.timeout.lines, run.timeout.blocked ?? []);   // running and idle ranks' lines are in the message
    const waiting = blocked.length ? ` Waiting${linesText(blocked)}.` : "";
    return escapeHtml(run.timeout.message + waiting);
  }
  if (run.status === "stopped") return "Stopped before it finished.";
  if (run.status === "failed") return `A Worker died: ${escapeHtml(run.failed.message)}`;
  if (run.status === "deadlock") {
    const why = /waits in send/.test(run.deadlock.message)
      ? "With synchronous sends a send completes only when its message is received, so these ranks wait on each other."
      : run.deadlock.cycle?.length === 0 && /promise/.test(run.deadlock.message)
        ? "No message, send, barrier or timer of the run can wake them."
        : "Nothing they wait for is in flight, so no rank can continue.";
    return `Deadlock: ${escapeHtml(run.deadlock.message)}${linesText(run.deadlock.lines)}. ${why}`;
  }
  if (run.status === "error") {
    const where = run.error.line ? ` at line ${run.error.line}` : "";
    // Code that does not parse never ran: no rank threw it (rank 0 only reports it, for all).
    if (run.error.syntax) return `A syntax error${where}: <code>${escapeHtml(run.error.message)}</code>. The code does not parse, so no rank ran it.`;
    return `Rank ${run.error.rank} threw${where}: <code>${escapeHtml(run.error.message)}</code>`;
  }
  return "";
}
