// ssp_gate.js — code exercise "w4-ssp-gate": Stale Synchronous Parallel's clock check (Ho et al. 2013). The
// shard applies every push at once (as ASP does) and then decides which workers may start their next clock: a
// worker may start clock c only when the slowest worker has finished at least c − s clocks. Checked on the run,
// from what the workers computed on — exact on the Workers as in the judge, no clocks compared: at every clock
// every worker started, the parameters it pulled had seen the slowest worker's c − s clocks (never fewer), some
// worker did run the full s clocks ahead (the gate is not stricter than SSP), and the run replays exactly.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { sourceOf } from "../programs/ps_program.js";
import { fail, pass, psCase, psExercise, ranksOf, replayVerdict } from "./ps_checks.js";
import { deadlockVerdict } from "../../../web/exercise/deadlock_verdict.js";

const starter = `// Called by the shard after it applied \`worker\`'s gradient of clock \`clock\` (clocks count from 0).
// ssp.clocks: an array, one entry per worker (0 … W − 1; the server shards have none); ssp.clocks[w] is how many
//   clocks worker w has finished (update it for this worker).
// ssp.held: a Set of the workers the gate holds. The pushing worker is NOT in it when this is called: release it
//   now with reply(worker) or add it. Take a worker out of ssp.held when you release it.
// reply(w) sends worker w fresh parameters, which lets it start its next clock, ssp.clocks[w].
// SSP(s): a worker may start clock c only when the SLOWEST worker has finished at least c − s clocks.
function sspAfterPush(ssp, worker, clock, s, reply) {
  // TODO
}
`;

const solution = sourceOf("sspAfterPush");

const wrongs = [
  { name: "only the worker that pushed is checked: a held worker is never released",
    code: `function sspAfterPush(ssp, worker, clock, s, reply) {
  ssp.clocks[worker] = clock + 1;
  if (ssp.clocks[worker] - Math.min(...ssp.clocks) <= s) reply(worker);
  else ssp.held.add(worker);
}
`,
    expect: /never released/ },
  { name: "one clock too far ahead (< s + 2)",
    code: solution.replace("<= s", "<= s + 1"),
    expect: /started clock \d+ on parameters that had seen only \d+ clocks? of worker \d+/ },
  { name: "stricter than SSP (< s)",
    code: solution.replace("<= s", "< s"),
    expect: /ever ran more than \d+ clocks? ahead.*SSP\(\d+\) allows/ },
  { name: "compared with the fastest worker, not the slowest",
    code: solution.replace("Math.min(...ssp.clocks)", "Math.max(...ssp.clocks)"),
    expect: /started clock \d+ on parameters that had seen only/ },
];

// One worker 3–4× slower than the rest, so the fast ones reach the bound; enough clocks to reach it several times.
function sspCase(rng, workers, s) {
  const multipliers = Array.from({ length: workers }, (_, w) => (w === workers - 1 ? pick(rng, [3, 4]) : 1));
  return psCase(rng, { workers, multipliers, regime: "ssp", staleness: s, iterations: s + 5 });
}
const cases = (rng) => [sspCase(rng, intBetween(rng, 3, 4), intBetween(rng, 1, 2)), sspCase(rng, 3, 0)];
const edgeCases = (rng) => [sspCase(rng, 5, 3)];

// For every clock c a worker started: the shard's version v it pulled means it had applied applied[0 … v−1],
// so the slowest worker's finished clocks at that moment are known exactly. → the largest lead, or a failure.
function leads(servers, workers, s) {
  const applied = servers[0].applied, W = workers.length;
  let most = 0;
  for (const { worker: w, clocks } of workers) {
    for (const [c, { versions }] of clocks.entries()) {
      const done = new Array(W).fill(0);
      for (const a of applied.slice(0, versions[0])) done[a.worker] += 1;
      const slowest = Math.min(...done), v = done.indexOf(slowest);
      if (c - slowest > s) {
        return { failure: fail(`Worker ${w} started clock ${c} on parameters that had seen only ${slowest} ${slowest === 1 ? "clock" : "clocks"} of ` +
          `worker ${v}: ${c - slowest} clocks ahead of the slowest, and SSP(${s}) allows ${s}. Release a worker only when ` +
          "its next clock minus the slowest worker's finished clocks is at most s.") };
      }
      most = Math.max(most, c - slowest);
    }
  }
  return { most };
}

function check(run, testCase, core) {
  const s = testCase.config.staleness;
  if (run?.status === "deadlock") {
    return deadlockVerdict(run, `A worker you held was never released: when a slow worker's push comes ` +
      "in, the slowest clock may have moved — look again at every held worker, not only the one that pushed.");
  }
  const { verdict, servers, workers } = ranksOf(run, testCase);
  if (verdict) return verdict;
  const { failure, most } = leads(servers, workers, s);
  if (failure) return failure;
  if (most < s) {
    return fail(`No worker ever ran more than ${most} ${most === 1 ? "clock" : "clocks"} ahead of the slowest, though one worker is ` +
      `much slower: SSP(${s}) allows ${s}. Your gate holds workers longer than it must, and every clock held is time lost.`);
  }
  const replay = replayVerdict(run, testCase, core, servers);
  if (replay) return fail(replay.message);
  return pass(`No worker ever started a clock more than ${s} ahead of the slowest, and the fast ones did run ${s} ahead; ` +
    "the run replays exactly.");
}

export const sspGate = psExercise("sspAfterPush", {
  shuffled: true,   // under shuffled delivery orders: which push comes first is what this function must handle
  id: "w4-ssp-gate",
  title: "SSP: the clock check",
  prompt: `<p>Under Stale Synchronous Parallel a worker may start clock c only when the slowest worker has finished at least
    c − s clocks. The shard applies every gradient as it comes; then it calls <code>sspAfterPush</code>, which must record
    the pushing worker's clock and release (<code>reply(w)</code>) every held worker that may now go on — and hold the
    others.</p>
    <p>What it is given: <code>worker</code> is the pushing worker's number, 0 … W − 1 for W workers, and
    <code>clock</code> the clock it just finished (clocks count from 0). <code>ssp.clocks</code> is an array with one
    entry per worker, indexed by worker number — the server shards have none — holding how many clocks that worker
    has finished (all 0 at the start; you update the pushing worker's). <code>ssp.held</code> is a
    <code>Set</code> of worker numbers, the workers the gate is holding; the pushing worker is <em>not</em> in it when
    <code>sspAfterPush</code> is called (it waits for its reply, and you decide whether it goes on at once or is held).
    <code>reply(w)</code> sends worker w fresh parameters and so lets it start its next clock (for a worker that has
    run all its clocks it sends nothing); take a worker out of <code>ssp.held</code> when you release it.</p>
    <p>The parameter server runs on the Workers with your gate, one worker 3–4× slower than the rest, under shuffled
    delivery orders; s = 0 is also tried (then SSP is a barrier).</p>`,
  hints: [
    "First <code>ssp.clocks[worker] = clock + 1</code>: the pushing worker has finished one more clock. It now waits: add it to <code>ssp.held</code>.",
    "The slowest worker's finished clocks are <code>Math.min(...ssp.clocks)</code>. A held worker w may start clock <code>ssp.clocks[w]</code> when <code>ssp.clocks[w] − slowest ≤ s</code>.",
    "Go through every held worker, not only the one that pushed: a push by the slowest worker can release several fast ones at once.",
  ],
  solutionText: `<p>The gate runs after every push: the slowest clock can only move when the slowest worker pushes, and then
    every worker it was holding back may be free at once. s = 0 is bulk-synchronous (everyone waits for the slowest each
    clock); s = ∞ is ASP. In between, a worker's reads miss at most s clocks of anybody's updates — the bound that Ho et
    al. (2013) use to prove SGD still converges, with an error term that grows with s. Petuum implemented the gate in the
    client-side cache: a read of a row older than the worker's clock minus s blocks until the server has a fresh one.</p>`,
  starterExpect: /^Deadlock: .*A worker you held was never released/,   // the starter holds workers and never lets one go
}, { starter, solution, wrongs, cases, edgeCases, check });
