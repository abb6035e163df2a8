// ssp_gate.js — code exercise "w4-ssp-gate": Stale Synchronous Parallel's clock check (Ho et al. 2013). The
// shard applies every push at once (as ASP does) and then decides which workers may start their next clock: a
// worker may start clock c only when the slowest worker has finished at least c − s clocks. Checked on the run,
// from what the workers computed on — exact on the Workers as in the judge, no clocks compared: each clock a worker
// started tells which push released it, so every decision of the gate is read back and compared with SSP's — never
// let through more than s ahead of the slowest, never held past the push after which SSP lets it go — and the
// verdict names the worker, the push and the rule it broke; then the run replays exactly.
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
    expect: /Workers? [\d, ]+ \(ranks? [\d, ]+\) waits? for the go-ahead.*never released/ },
  { name: "one clock too far ahead (< s + 2)",
    code: solution.replace("<= s", "<= s + 1"),
    expect: /started clock \d+ on parameters that had seen only \d+ clocks? of worker \d+.*off by one/ },
  { name: "stricter than SSP (< s)",
    code: solution.replace("<= s", "< s"),
    expect: /held before clock \d+ though SSP\(\d+\) let it go: .* ≤ \d+\. .*check <code>&lt;=<\/code> against <code>&lt;<\/code>/ },
  { name: "compared with the fastest worker, not the slowest",
    code: solution.replace("Math.min(...ssp.clocks)", "Math.max(...ssp.clocks)"),
    expect: /started clock \d+ on parameters that had seen only.*not the fastest's/ },
  { name: "the pushing worker is never let through at once: it waits for the next push",
    code: solution.replace("const slowest = Math.min(...ssp.clocks);\n  for (const w of [...ssp.held]) {",
      "const slowest = Math.min(...ssp.clocks);\n  for (const w of [...ssp.held].filter((x) => x !== worker)) {"),
    expect: /Workers? [\d, ]+ \(ranks? [\d, ]+\) waits? for the go-ahead.*never released/ },
];

// One worker 3–4× slower than the rest, so the fast ones reach the bound; enough clocks to reach it several times.
function sspCase(rng, workers, s) {
  const multipliers = Array.from({ length: workers }, (_, w) => (w === workers - 1 ? pick(rng, [3, 4]) : 1));
  return psCase(rng, { workers, multipliers, regime: "ssp", staleness: s, iterations: s + 5 });
}
const cases = (rng) => [sspCase(rng, intBetween(rng, 3, 4), intBetween(rng, 1, 2)), sspCase(rng, 3, 0)];
const edgeCases = (rng) => [sspCase(rng, 5, 3)];

// The gate's decisions, read back from the run: a worker's clock c ≥ 1 started on the shard's version j + 1, so the
// push that released it is applied[j] (reply() is called inside sspAfterPush, right after that push was applied); its
// own push of clock c − 1 is applied[p]. SSP releases it at the first push q ≥ p after which c − slowest ≤ s (the
// slowest clock moves only at a push). j > q: held though SSP let it go; c − slowest at j > s: let through too early.
// → { failure } naming the worker, the pushes and the rule, or { most: the largest lead any clock started with }.
function gateDecisions(servers, workers, s) {
  const applied = servers[0].applied, W = workers.length;
  const done = applied.map(() => null), count = new Array(W).fill(0);
  applied.forEach((a, i) => { count[a.worker] += 1; done[i] = count.slice(); });   // finished clocks after push i
  const slowestAt = (i) => { const k = Math.min(...done[i]); return { k, v: done[i].indexOf(k) }; };
  const pushName = (i) => `worker ${applied[i].worker}'s push of clock ${applied[i].clock}`;
  const early = [], late = [];
  let most = 0;
  for (const { worker: w, clocks } of workers) {
    for (const [c, { versions }] of clocks.entries()) {
      if (c === 0) continue;
      const j = versions[0] - 1, p = applied.findIndex((a) => a.worker === w && a.clock === c - 1);
      if (j < 0 || p < 0) continue;   // the replay names a run whose versions do not fit its record
      const at = slowestAt(j);
      most = Math.max(most, c - at.k);
      if (c - at.k > s) { early.push({ w, c, j, p, ...at }); continue; }
      let q = p;
      while (q < j && c - slowestAt(q).k > s) q += 1;
      if (q < j) late.push({ w, c, j, p, q, ...slowestAt(q) });
    }
  }
  const clocksWord = (n) => `${n} ${n === 1 ? "clock" : "clocks"}`;
  if (early.length) {
    const e = early.sort((x, y) => x.j - y.j)[0], lead = Math.max(...early.map((x) => x.c - x.k));
    const when = e.j === e.p ? `right after its own push of clock ${e.c - 1}` : `at ${pushName(e.j)}`;
    const cause = lead === s + 1
      ? `No worker got further than one clock too many, so your test is off by one: SSP lets a worker start clock c when ` +
        `c − slowest ≤ s — check <code>&lt;</code> against <code>&lt;=</code>, and any s + 1.`
      : `Workers got up to ${clocksWord(lead)} ahead, so the gate does not hold a worker that is more than s ahead: compare ` +
        "each worker's next clock with the slowest worker's finished clocks (<code>Math.min(...ssp.clocks)</code>) — not the " +
        "fastest's, and not the pushing worker's alone.";
    return { failure: fail(`Worker ${e.w} started clock ${e.c} on parameters that had seen only ${clocksWord(e.k)} of worker ${e.v}: ` +
      `${e.c - e.k} clocks ahead of the slowest, and SSP(${s}) allows ${s}. Your gate released it ${when}. ${cause}`) };
  }
  if (late.length) {
    const e = late.sort((x, y) => x.q - y.q)[0];
    const cause = e.c - e.k === s
      ? `SSP lets a worker run exactly s clocks ahead of the slowest: the test is c − slowest ≤ s — check <code>&lt;=</code> against <code>&lt;</code>.`
      : e.q === e.p
        ? "It may go on at once: when the pushing worker is within s of the slowest, release it in the same call."
        : `That push moved the slowest clock: look again at every held worker after each push, not only the one that pushed.`;
    return { failure: fail(`Worker ${e.w} was held before clock ${e.c} though SSP(${s}) let it go: after ${pushName(e.q)} the ` +
      `slowest worker, ${e.v}, had finished ${clocksWord(e.k)}, and ${e.c} − ${e.k} = ${e.c - e.k} ≤ ${s}. Your gate released it ` +
      `only at ${pushName(e.j)}. ${cause}`) };
  }
  return { most };
}

function check(run, testCase, core) {
  const s = testCase.config.staleness;
  if (run?.status === "deadlock") {
    // The workers that wait for parameters (tag "params") are the ones the gate holds; worker w is rank K + w.
    const K = testCase.config.servers;
    const held = (run.deadlock.waits ?? []).filter((x) => x.on?.some((e) => e.tag === "params")).map((x) => x.rank - K);
    const who = held.length === 1 ? `Worker ${held[0]} (rank ${held[0] + K}) waits` : held.length
      ? `Workers ${held.join(", ")} (ranks ${held.map((w) => w + K).join(", ")}) wait` : "A worker waits";
    return deadlockVerdict(run, `${who} for the go-ahead, and no push is left to come: every other worker has ` +
      "finished or is held too. A worker you held was never released: a push can move the slowest clock (the slow " +
      "worker's), so after every push look again at every held worker — the one that pushed included — and release " +
      "each whose next clock is within s of the slowest.");
  }
  const { verdict, servers, workers } = ranksOf(run, testCase);
  if (verdict) return verdict;
  const { failure, most } = gateDecisions(servers, workers, s);
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
