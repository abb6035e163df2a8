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
