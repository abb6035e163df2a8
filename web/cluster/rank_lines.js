// rank_lines.js — where the ranks of a run that did not finish stopped, in the learner's code: the deadlock and
// watchdog verdicts carry lines: [{ rank, line }] (the line of the recv/send/barrier call each blocked rank waits
// in: rank_blocking.js on the Workers, local_run.js in the judge). Said in words here; the page also marks them in
// the editor (ui/step_lines.js, as Step does).

// The lines of a RunResult's deadlock or timeout, [] if none is known.
export const stoppedLines = (run) => run?.deadlock?.lines ?? run?.timeout?.lines ?? [];

// " (rank 0 at line 6, ranks 1 and 2 at line 9)", or "" when no line is known. Ranks at one line are grouped.
export function linesText(lines) {
  if (!lines?.length) return "";
  const byLine = new Map();
  for (const { rank, line } of [...lines].sort((a, b) => a.rank - b.rank)) (byLine.get(line) ?? byLine.set(line, []).get(line)).push(rank);
  const parts = [...byLine].sort((a, b) => a[1][0] - b[1][0]).map(([line, ranks]) => {
    const who = ranks.length === 1 ? `rank ${ranks[0]}` : `ranks ${ranks.slice(0, -1).join(", ")} and ${ranks.at(-1)}`;
    return `${who} at line ${line}`;
  });
  return ` (${parts.join(", ")})`;
}

// The lines of `ranks` only ([] if none is known).
export const linesOf = (lines, ranks) => (lines ?? []).filter((x) => ranks.includes(x.rank));

export const ranksWere = (xs, verb) => (xs.length === 1 ? `rank ${xs[0]} ${verb[0]}` : `ranks ${xs.join(", ")} ${verb[1]}`);

// The watchdog's verdict, the same words on the Workers (cluster_run.js) and in the judge (local_verdicts.js):
//   running: ranks still executing (an endless loop, or slow work), with the line of the loop they were last in;
//   idle: ranks that answer but wait on an await nothing resolves (the Workers tell them apart by a ping);
//   polling: those of the running ranks that were looping over ctx.probe (the Workers' ping sees the last probe);
//   blocked: ranks waiting in recv/send/barrier (their lines follow, in the page's "Waiting (…)").
// lines: [{ rank, line }] of all of them.
// what: when it stopped the run ("after 3000 ms", ": no rank made progress for 1 s" — put after "the watchdog").
export function watchdogMessage({ running, idle = [], polling = [], blocked, lines, what }) {
  let message = `Stopped by the watchdog${/^[:,]/.test(what) ? "" : " "}${what}: `;
  if (running.length) {
    const at = linesText(linesOf(lines, running));
    const why = polling.length && polling.length === running.length
      ? "polling with probe for a message that nobody sends?"
      : "an endless loop, or more work than the time allows?";
    message += `${ranksWere(running, ["was", "were"])} still running${at}${at ? ` — ${why}` : ` (${why})`}`;
    if (idle.length) {
      message += `; ${ranksWere(idle, ["was", "were"])} idle, waiting on an await that nothing resolves` +
        linesText(linesOf(lines, idle));
    }
  } else if (idle.length) {
    const every = blocked.length === 0 && idle.length > 1;
    message += `${every ? "every rank is" : ranksWere(idle, ["is", "are"])} idle, waiting on an await that nothing ` +
      `resolves${linesText(linesOf(lines, idle))}`;
  } else {
    message += "no rank finished in time";
  }
  if (blocked.length) message += `; ${ranksWere(blocked, ["was", "were"])} waiting`;
  return /[?.]$/.test(message) ? message : message + ".";
}
