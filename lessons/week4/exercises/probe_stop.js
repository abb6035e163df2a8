// probe_stop.js — code exercise "w4-probe-stop": a data loader that streams batches to a trainer and stops when the
// trainer says so, noticed between batches with ctx.probe (MPI_Iprobe) — a look at the mailbox that never waits.
// The learner writes the loader (rank 0); the trainer (rank 1) is the course's: it takes `target` batches — or all
// `limit` of the epoch, if it runs out first — sends one "stop", learns from the loader's "end" message how many
// batches were sent, and drains the ones already on their way. Since a stop always comes, the loader that has sent the
// whole epoch receives it like any other and never deadlocks. Checked from the trace, never from the loader's own
// claims: the batches left rank 0 in order, never more than the epoch, and stopped before the epoch ran out when the
// target came first; the stop was received (a probe only looks), no batch left after it, and the "end" count equals
// the batches the trace shows.
import { esc, intBetween } from "../../../web/exercise/params.js";
import { fail, pass, undelivered, unfinished } from "../../../web/exercise/run_checks.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";
import { deadlockVerdict } from "../../../web/exercise/deadlock_verdict.js";

// Loading one batch takes a timer's turn (≥ 1 ms on the Workers), so a loader that never looks sends its whole
// epoch in about `limit` ms — and a trainer whose Worker starts late still gets its stop in long before.
const TRAINER = `
// ---- the course's part: loading a batch, the trainer, and who runs what ----
const loadBatch = (i) => new Promise((done) => setTimeout(() => done({ index: i }), 1));

async function trainer(ctx) {
  const { target, limit } = ctx.input;
  const used = Math.min(target, limit);                                // the target, or the whole epoch if it is shorter
  let sum = 0;
  for (let i = 0; i < used; i++) sum += (await ctx.recv(0)).index;     // train on batches 0 … used − 1
  ctx.send(0, { reached: used }, { tag: "stop" });                     // the target is reached, or the epoch is over: stop
  const { sent } = await ctx.recv(0, { tag: "end" });
  for (let i = used; i < sent; i++) await ctx.recv(0);                 // batches already on their way: drained
  return { used, sum, sent };
}

async function main(ctx) { return ctx.rank === 0 ? loader(ctx) : trainer(ctx); }
`;
const program = (code) => `${code}\n${TRAINER}`;

const starter = `// Rank 0: stream batches 0, 1, 2, … to the trainer (rank 1) — ctx.send(1, await loadBatch(i)) —
// until the trainer sends a message with tag "stop", or until the epoch's ctx.input.limit batches are all sent.
// Between two batches, LOOK for the stop without waiting:
//   await ctx.probe(from, { tag })  →  { from, tag, bytes } if such a message has arrived (it stays), else null.
// Then take the stop (ctx.recv), tell the trainer how many batches you sent — ctx.send(1, { sent }, { tag: "end" })
// — and return that number. A stop always comes: if the epoch runs out first, the trainer sends it once it has all
// ctx.input.limit batches, so wait for it then too.
async function loader(ctx) {
  const { limit } = ctx.input;
  let sent = 0;
  // TODO
  return sent;
}
`;

const solution = `// The data loader: one batch per turn, a non-blocking look for the stop between two batches.
async function loader(ctx) {
  const { limit } = ctx.input;
  let sent = 0;
  while (sent < limit && !(await ctx.probe(1, { tag: "stop" }))) {
    ctx.send(1, await loadBatch(sent));   // not awaited: the loader never waits for the trainer to take a batch
    sent += 1;
  }
  await ctx.recv(1, { tag: "stop" });     // a probe only looks: take the stop, or it stays in the mailbox
  ctx.send(1, { sent }, { tag: "end" });
  return sent;
}
`;

const wrongs = [
  { name: "probe's default tag: looks for tag 0, never sees the stop",
    code: solution.replace('ctx.probe(1, { tag: "stop" })', "ctx.probe(1)"),
    expect: /sent all \d+ batches of the epoch.*tag/ },
  { name: "no limit: streams past the end of the epoch until the stop comes",
    code: solution.replace("sent < limit && ", ""),
    expect: /sent \d+ batches, but the epoch has only \d+/ },
  { name: "off by one: sent <= limit sends one batch past the epoch",
    code: solution.replace("sent < limit", "sent <= limit"),
    expect: /sent \d+ batches, but the epoch has only \d+/ },
  { name: "at the epoch's end the stop is not waited for",
    code: solution.replace('  await ctx.recv(1, { tag: "stop" });', '  if (sent < limit) await ctx.recv(1, { tag: "stop" });'),
    expect: /never received.*the epoch of \d+ ran out first/ },
  { name: "a blocking recv of the stop before each batch",
    code: solution.replace('!(await ctx.probe(1, { tag: "stop" }))', '!(await ctx.recv(1, { tag: "stop" }))'),
    expect: /Deadlock.*recv.*waits.*probe/ },
  { name: "the stop is probed but never received",
    code: solution.replace('  await ctx.recv(1, { tag: "stop" });     // a probe only looks: take the stop, or it stays in the mailbox\n', ""),
    expect: /never received.*only looks/ },
  { name: "never looks at all: the whole epoch is sent",
    code: solution.replace(' && !(await ctx.probe(1, { tag: "stop" }))', ""),
    expect: /sent all \d+ batches of the epoch/ },
  { name: "the end message counts one batch too few",
    code: solution.replace("ctx.send(1, { sent }, {", "ctx.send(1, { sent: sent - 1 }, {"),
    expect: /said it sent \d+ batches, but the trace shows \d+/ },
];

// The trainer's input holds the epoch too: it stops at whichever of target and limit comes first.
// Visible: the epoch runs out first (so the first run a Check makes reaches the limit), then the target comes first. Hidden: a target of one batch, a long epoch, and
// a target equal to the epoch (the stop and the epoch's end at once).
const oneCase = (target, limit) => ({ ranks: 2, inputs: [{ limit }, { target, limit }], target, limit });
const cases = (rng) => [oneCase(intBetween(rng, 20, 40), intBetween(rng, 3, 10)), oneCase(intBetween(rng, 12, 60), 400)];
const edgeCases = (rng) => {
  const even = intBetween(rng, 5, 15);
  return [oneCase(1, 200), oneCase(intBetween(rng, 60, 80), 600), oneCase(even, even)];
};

function check(run, testCase) {
  const { target, limit } = testCase;
  if (run?.status === "deadlock" && run.deadlock && !/waits in send/.test(run.deadlock.message)) {
    return deadlockVerdict(run, `A <code>recv</code> waits until its message comes: the loader ` +
      "cannot wait for a stop that the trainer sends only after it has its batches. Look for it with " +
      "<code>ctx.probe</code>, which answers at once, and receive it only once a probe has seen it — or the trainer waits " +
      "for a batch count that does not match the batches sent.");
  }
  const stop = unfinished(run);
  if (stop) return stop;
  const trace = run.trace ?? [];
  const batches = trace.filter((m) => m.src === 0 && m.dst === 1 && m.tag === 0);
  const stops = trace.filter((m) => m.src === 1 && m.tag === "stop");
  const ends = trace.filter((m) => m.src === 0 && m.tag === "end");
  const stray = trace.find((m) => !batches.includes(m) && !stops.includes(m) && !ends.includes(m));
  if (stray) return fail(`Unexpected message rank ${stray.src} → rank ${stray.dst} with tag ${esc(JSON.stringify(stray.tag))}: ` +
    "the loader sends batches (tag 0) and one \"end\" message, nothing else.");
  if (ends.length !== 1) return fail(`The loader sent ${ends.length} "end" messages; send exactly one, after the stop.`);
  const trainer = run.results?.[1] ?? {};
  const used = Math.min(target, limit);   // the trainer stops at its target, or at the end of a shorter epoch
  if (batches.length > limit) {
    return fail(`The loader sent ${batches.length} batches, but the epoch has only ${limit}: stop streaming when ` +
      `<code>sent</code> reaches <code>ctx.input.limit</code> as well as when the stop comes (this run's trainer wanted ${target}).`);
  }
  if (trainer.sum !== (used * (used - 1)) / 2) {
    return fail(`The trainer did not get batches 0 … ${used - 1} in order: send <code>await loadBatch(i)</code> for i = 0, 1, 2, ….`);
  }
  if (target < limit && batches.length === limit) {
    return fail(`The loader sent all ${limit} batches of the epoch, though the trainer asked it to stop after ${target}. ` +
      "It never saw the stop: look between two batches with <code>ctx.probe(from, { tag })</code> for the trainer's rank " +
      "and the stop's tag — a probe with no tag looks for tag 0.");
  }
  if (stops[0].recvTime == null) {
    return fail("The trainer's stop was never received: a probe only looks — the message stays in the mailbox until a " +
      "<code>recv</code> with its source and tag takes it. Take it before you send the \"end\" message" +
      (target >= limit ? ` — here the epoch of ${limit} ran out first, and the trainer still sent its stop once it had them all.` : "."));
  }
  const late = batches.find((m) => m.sendTime > stops[0].recvTime);
  if (late) return fail("The loader sent a batch after it had received the stop: stop streaming as soon as a probe has seen it.");
  if (trainer.sent !== batches.length) {
    return fail(`The loader said it sent ${esc(JSON.stringify(trainer.sent))} batches, but the trace shows ${batches.length}: ` +
      "the trainer drains exactly as many as the \"end\" message says, so count every batch you sent.");
  }
  if (run.results[0] !== batches.length) {
    return fail(`The loader returned ${esc(JSON.stringify(run.results[0]))}; return how many batches it sent (${batches.length}).`);
  }
  const lost = undelivered(trace);
  if (lost) return fail(`A message rank ${lost.src} → rank ${lost.dst} was never received.`);
  if (target >= limit) {
    return pass(`The loader sent the whole epoch of ${limit} batches (the trainer would have taken ${target}), took the ` +
      "trainer's stop, and its count matches the trace.");
  }
  return pass(`The loader stopped after ${batches.length} batches (the trainer needed ${target}; the other ` +
    `${batches.length - target} were already on their way), took the stop, and its count matches the trace.`);
}

export const probeStop = codeExercise({
  id: "w4-probe-stop",
  title: "Stop the data loader: probe without waiting",
  prompt: `<p>Rank 0 is a data loader and rank 1 a trainer. Write <code>loader(ctx)</code>: send batches
    <code>0, 1, 2, …</code> to rank 1 (<code>ctx.send(1, await loadBatch(i))</code>, without awaiting the send) until
    the trainer sends a message with tag <code>"stop"</code> — it does once it has the <code>target</code> batches it
    needs, a number only the trainer knows — or until all <code>ctx.input.limit</code> batches of the epoch are sent.
    Between two batches, look for the stop with <code>await ctx.probe(1, { tag: "stop" })</code>: it answers at once with
    <code>{ from, tag, bytes }</code> if such a message has arrived and nobody has received it, or <code>null</code>,
    and it leaves the message where it is. Then receive the stop, send <code>{ sent }</code> with tag <code>"end"</code>
    (the trainer drains the batches already on their way) and return <code>sent</code>.</p>
    <p>When the epoch runs out first (a <code>target</code> of at least <code>limit</code>), send no more than
    <code>limit</code> batches: the trainer, which knows the epoch too, sends its stop once it has all of them, so a stop
    always comes — receive it then as well, and send <code>"end"</code> as always.</p>
    <p>Checked on the trace under shuffled delivery orders and with synchronous sends, with the target before the end of
    the epoch and after it: the batches went in order, the loader never sent more than the epoch and stopped before it ran
    out when the target came first, the stop was received, and the count is right.</p>`,
  ranks: 2,
  // One loader and one trainer: the protocol is between two ranks; cases vary the epoch and where the stop comes.
  exempt: { variedRanks: "a data loader and its trainer: the exercise is the protocol between two ranks" },
  timeoutMs: 20000,
  program,
  hints: [
    "The loop's condition can do the looking: <code>while (sent &lt; limit &amp;&amp; !(await ctx.probe(1, { tag: \"stop\" })))</code>.",
    "A <code>recv</code> for the stop inside the loop would wait for it — and the trainer sends it only after many batches. That is the deadlock a probe avoids.",
    "After the loop, <code>await ctx.recv(1, { tag: \"stop\" })</code>: a probe does not take the message.",
  ],
  solutionText: `<p>A probe is a receive that does not wait and does not take: the loader keeps streaming and looks
    between two batches. Some batches are already in flight when the stop arrives — the trainer drains them, which is
    why the loader tells it how many it sent. Real data loaders stop the same way: PyTorch's DataLoader workers check a
    shared done event between batches; MPI programs poll with <code>MPI_Iprobe</code> (or <code>MPI_Test</code> on a
    posted receive) to overlap work with waiting for a signal.</p>`,
  starterExpect: /^Deadlock: rank 1 waits for rank 0, which has finished/,   // the starter's loader waits for a stop by recv
}, { starter, solution, wrongs, cases, edgeCases, check });
