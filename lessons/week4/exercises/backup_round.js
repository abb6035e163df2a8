// backup_round.js — code exercise "w4-backup-round": synchronous SGD with backup workers (Chen et al. 2016).
// W workers compute each round, the shard averages the first W − b gradients of the round to come, and a
// straggler's gradient of an earlier round — still on its way when its round closed — is dropped. Checked on the
// Workers, from the trace and the workers' versions: every round averaged exactly W − b gradients of that round,
// and they were the first to arrive (no gradient of the round that came earlier was passed over); the run replays
// exactly.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { sourceOf } from "../programs/ps_program.js";
import { fail, pass, psCase, psExercise, ranksOf, replayVerdict } from "./ps_checks.js";
import { deadlockVerdict } from "../../../web/exercise/deadlock_verdict.js";

const starter = `// One round of synchronous SGD with backup workers, on the shard. Take pushes with
//   const { from, data } = await ctx.recvAny({ tag: "push" });    // data: { grad, version, clock }
// until \`quota\` gradients of THIS round have come (data.version === round). A gradient computed at an earlier
// version is a straggler's, from a round already closed: drop it, and count it.
// Return { grads: this round's gradients in the order they came, workers: their senders (from), late: how many dropped }.
async function gatherRound(ctx, round, quota) {
  // TODO
}
`;

const solution = sourceOf("gatherRound");

const wrongs = [
  { name: "the first W − b pushes, whatever their round",
    code: `async function gatherRound(ctx, round, quota) {
  const grads = [], workers = [];
  while (grads.length < quota) {
    const { from, data } = await ctx.recvAny({ tag: "push" });
    grads.push(data.grad);
    workers.push(from);
  }
  return { grads, workers, late: 0 };
}
`,
    expect: /computed at version \d+: a straggler's gradient/ },
  { name: "late gradients counted toward the quota",
    code: solution.replace("while (grads.length < quota)", "while (grads.length + late < quota)"),
    expect: /averaged \d+ gradients?; with \d+ workers and b = \d+/ },
  { name: "break instead of continue: the round closes at the first late gradient",
    code: solution.replace("late += 1; continue;", "late += 1; break;"),
    expect: /averaged \d+ gradients?; with \d+ workers and b = \d+/ },
  { name: "late gradients dropped but not counted",
    code: solution.replace("late += 1; continue;", "continue;"),
    expect: /count the late gradients/ },
];

function backupCase(rng, workers, backup, servers = 1) {
  const multipliers = Array.from({ length: workers }, (_, w) => (w < backup ? pick(rng, [1.5, 2]) : 1));
  return psCase(rng, { workers, servers, backup, regime: "backup", iterations: 6, multipliers });
}
const cases = (rng) => [backupCase(rng, intBetween(rng, 4, 5), 1), backupCase(rng, 4, 2, 2)];
const edgeCases = (rng) => [backupCase(rng, 6, 3)];

// Worker w's push to shard k of round r, from the trace: its j-th push to k is its clock j.
function pushOf(run, K, workers, k, w, r) {
  const c = workers.find((x) => x.worker === w).clocks.findIndex((x) => x.versions[k] === r);
  if (c < 0) return null;
  return pushesOf(run, K + w, k)[c] ?? null;
}
const pushesOf = (run, src, k) => run.trace.filter((m) => m.src === src && m.dst === k && m.tag === "push")
  .sort((a, b) => a.sendTime - b.sendTime);

// The rounds shard k would have closed taking the first `quota` pushes in arrival order, whatever their round:
// the mistake of not dropping stragglers. → [[{ w, version }, …] per round]
function roundsWithoutDropping(run, K, workers, k, quota) {
  const arrivals = workers.flatMap(({ worker: w, clocks }) => pushesOf(run, K + w, k)
    .map((m, c) => ({ w, version: clocks[c]?.versions[k], t: m.recvTime }))).sort((a, b) => a.t - b.t);
  const rounds = [];
  for (let i = 0; i + quota <= arrivals.length; i += quota) rounds.push(arrivals.slice(i, i + quota));
  return rounds;
}

function check(run, testCase, core) {
  const { config } = testCase, K = config.servers, W = testCase.ranks - K, quota = W - config.backup;
  if (run?.status === "deadlock" && /waits for a message from any rank/.test(run.deadlock.message)) {
    return deadlockVerdict(run, `The shard waited at the end for pushes that were never coming: it drains ` +
      "the last rounds' stragglers by counting what it has received, so count the late gradients you drop (<code>late</code>).");
  }
  const { verdict, servers, workers } = ranksOf(run, testCase);
  if (verdict) return verdict;
  for (const s of servers) {
    const naive = roundsWithoutDropping(run, K, workers, s.shard, quota);
    if (s.applied.every((a, r) => a.workers.join() === naive[r]?.map((x) => x.w).join())) {
      const r = naive.findIndex((round, i) => i < s.applied.length && round.some((x) => x.version !== i));
      if (r >= 0) {
        const { w, version } = naive[r].find((x) => x.version !== r);
        return fail(`Round ${r} of shard ${s.shard} averaged worker ${w}'s gradient computed at version ${version}: a straggler's ` +
          `gradient from round ${version}, which had closed. Drop a push whose version is not the round's.`);
      }
    }
    for (const a of s.applied) {
      if (a.workers.length !== quota || new Set(a.workers).size !== a.workers.length) {
        return fail(`Round ${a.round} of shard ${s.shard} averaged ${a.workers.length} ${a.workers.length === 1 ? "gradient" : "gradients"}; with ${W} workers and ` +
          `b = ${config.backup} backups each round takes the first ${quota} distinct workers' gradients of the round.`);
      }
      const pushes = a.workers.map((w) => ({ w, m: pushOf(run, K, workers, s.shard, w, a.round) }));
      const stale = pushes.find((p) => !p.m);
      if (stale) {
        const c = workers.find((x) => x.worker === stale.w).clocks.map((x) => x.versions[s.shard]);
        const v = Math.max(...c.filter((x) => x < a.round));
        return fail(`Round ${a.round} of shard ${s.shard} averaged worker ${stale.w}'s gradient computed at version ${v}: a straggler's gradient ` +
          `from round ${v}, which had closed. Drop a push whose version is not the round's.`);
      }
      const closed = Math.max(...pushes.map((p) => p.m.recvTime));
      for (let w = 0; w < W; w++) {
        const m = pushOf(run, K, workers, s.shard, w, a.round);
        if (m && m.recvTime < closed && !a.workers.includes(w)) {
          return fail(`Round ${a.round} of shard ${s.shard} passed over worker ${w}'s gradient of the round, which came before the ` +
            `round's last one: the first ${quota} of the round win.`);
        }
      }
    }
  }
  const replay = replayVerdict(run, testCase, core, servers);
  if (replay) return fail(replay.message);
  const dropped = servers.reduce((n, s) => n + s.dropped, 0);
  return pass(`Every round averaged the first ${quota} of ${W} gradients of the round; ${dropped} late ${dropped === 1 ? "gradient was" : "gradients were"} ` +
    "dropped; the run replays exactly.");
}

export const backupRound = psExercise("gatherRound", {
  shuffled: true,   // under shuffled delivery orders: which push comes first is what this function must handle
  id: "w4-backup-round",
  title: "Backup workers: the first W − b win",
  prompt: `<p>With b backup workers a synchronous round closes as soon as W − b gradients <em>of that round</em> have come;
    the b slowest are not waited for. Write the shard's <code>gatherRound(ctx, round, quota)</code>: receive pushes from
    whichever worker is first (<code>ctx.recvAny</code>), keep this round's, drop (and count) a straggler's gradient of a
    closed round.</p>
    <p>The parameter server runs on the Workers with W = 4–6 workers of which b are slower, and the trace tells the checker
    in which order the pushes came.</p>`,
  hints: [
    "Loop while you have fewer than <code>quota</code> gradients; each time take <code>await ctx.recvAny({ tag: \"push\" })</code>.",
    "<code>data.version === round</code>: keep <code>data.grad</code> and <code>from</code>. Otherwise it was computed for a round that has closed: <code>late += 1</code> and go on.",
  ],
  solutionText: `<p>Backup workers trade a little statistical efficiency — each round averages W − b gradients, not W — for
    not waiting on the slowest b. With exponential compute times the expected round shrinks from μ·H_W to
    μ·(H_W − H_b), and Chen et al. (2016) found that a few percent of backups recovered most of the time stragglers
    cost, while the staleness-free update kept the accuracy of synchronous SGD. The dropped work is real: a straggler
    computed its gradient for nothing, which is why some systems cancel it instead (the simulator's
    <code>cancelStragglers</code>).</p>`,
  starterExpect: /gatherRound must return \{ grads: \[\.\.\.\], workers: \[\.\.\.\], late: a count \}/,   // the starter returns nothing
}, { starter, solution, wrongs, cases, edgeCases, check });
