// fsdp_gather.js — code exercise "lab-fsdp-gather": FSDP's forward gather, written by the learner with
// point-to-point messages. Member i of the dp group holds chunk i of every tensor (the collectives' chunk rule:
// the first n mod p chunks one value longer); before a block runs, each member sends its chunk straight to
// every other member and assembles the whole tensor in member order. Checked by training equality (the
// trainer gathers with it in forward and again in backward) and by the trace: p − 1 messages per gather, one to
// each other member, each exactly the sender's chunk.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { fail, labCase, labExercise, trainingVerdict, unfinished } from "./lab_checks.js";
import { messagesOf } from "../../../web/exercise/tagged_messages.js";
import { plural } from "../../../web/units.js";

const starter = `// FSDP: this rank holds only its chunk (shard) of a tensor of n values. Member i of the group dp holds chunk i;
// chunks follow the collectives' rule: n = q·p + r splits into p chunks, the first r of them q + 1 values long,
// the others q. Return the whole tensor (a Float64Array of n values, chunks in member order).
//   dp.size, dp.rank, dp.send(i, data) to member i, await dp.recv(i) from member i.
// Send your shard directly to every other member (p − 1 messages, one step), receive theirs, assemble.
async function gatherWeights(shard, dp, n) {
  const full = new Float64Array(n);
  // TODO
  return full;
}
`;

const solution = `// A direct all-gather: every member sends its own shard to each of the p − 1 others (a ring forwards others').
async function gatherWeights(shard, dp, n) {
  const p = dp.size, q = Math.floor(n / p), r = n % p;
  const start = (i) => i * q + Math.min(i, r);          // chunk i = [start(i), start(i + 1))
  const full = new Float64Array(n);
  full.set(shard, start(dp.rank));
  for (let i = 0; i < p; i++) if (i !== dp.rank) dp.send(i, shard);   // not awaited: nonblocking sends
  for (let i = 0; i < p; i++) {
    if (i !== dp.rank) full.set(await dp.recv(i), start(i));
  }
  return full;
}
`;

const RING = `async function gatherWeights(shard, dp, n) {
  const p = dp.size, q = Math.floor(n / p), r = n % p;
  const start = (i) => i * q + Math.min(i, r);
  const full = new Float64Array(n);
  full.set(shard, start(dp.rank));
  for (let k = 0; k < p - 1; k++) {                  // a ring: forward the chunk received in the previous step
    const c = (dp.rank - k + p) % p, from = (dp.rank - k - 1 + p) % p;
    dp.send((dp.rank + 1) % p, full.slice(start(c), start(c + 1)));
    full.set(await dp.recv((dp.rank - 1 + p) % p), start(from));
  }
  return full;
}
`;

const wrongs = [
  // Assumes equal chunks: with n not divisible by p, chunks land at the wrong offsets (or past the end).
  { name: "chunks assumed equal, ⌈n/p⌉ each",
    code: solution.replace("i * q + Math.min(i, r)", "i * Math.ceil(n / p)"),
    expect: /chunk i starts at i·q \+ min\(i, r\)/ },
  { name: "a ring all-gather instead of sending straight to every member",
    code: RING,
    expect: /a ring would forward others' shards instead/ },
  { name: "its own shard left out of the gathered tensor",
    code: solution.replace("  full.set(shard, start(dp.rank));\n", ""),
    expect: /your own included/ },
  { name: "awaiting each send before receiving (relies on buffered sends)",
    code: solution.replace("if (i !== dp.rank) dp.send(i, shard);", "if (i !== dp.rank) await dp.send(i, shard);"),
    expect: /Deadlock with synchronous sends: rank \d+ waits in send for rank \d+/ },
];

function cases(rng) {
  const dp = pick(rng, [3, 4]);
  // n = 70 values per tensor (D = 7, F = 10) and 28 per tp slice (F/tp = 4): n mod p is neither 0 nor p − 1 for
  // p = 3 or 4, so chunks are unequal AND an "every chunk ⌈n/p⌉ long" layout puts some at the wrong offset.
  return [
    labCase({ grid: { dp, tp: 1, pp: 1 }, fsdp: true, batch: 12 * dp, seed: intBetween(rng, 1, 1000),
      model: { layers: 2, width: 7, hidden: 10, activation: "gelu", residual: true } }),
    labCase({ grid: { dp: 3, tp: 2, pp: 1 }, fsdp: true, batch: 18, seed: intBetween(rng, 1, 1000),
      model: { layers: 2, width: 7, hidden: 8, activation: "tanh", residual: true }, optimizer: { kind: "adam", lr: 0.01 } }),
  ];
}

// Hidden: 8 members (n mod 8 = 6), and 2 members around 2 pipeline stages.
function edgeCases(rng) {
  return [
    labCase({ grid: { dp: 8, tp: 1, pp: 1 }, fsdp: true, batch: 16, steps: 1, seed: intBetween(rng, 1, 1000),
      model: { layers: 1, width: 7, hidden: 10, activation: "gelu", residual: true } }),
    labCase({ grid: { dp: 2, tp: 1, pp: 2 }, fsdp: true, microBatches: 2, batch: 8, seed: intBetween(rng, 1, 1000),
      model: { layers: 2, width: 5, hidden: 9, activation: "tanh", residual: true } }),
  ];
}

const CHUNKS = " Every member's chunk, your own included, goes to its place in the gathered tensor: with n = q·p + r, " +
  "chunk i starts at i·q + min(i, r) (the first r chunks are one value longer).";

function check(run, testCase, core) {
  const stop = unfinished(run);
  if (stop) return /waits in send/.test(stop.message) ? stop : fail(stop.message + CHUNKS);
  const verdict = trainingVerdict(run, testCase, core);
  if (!verdict.pass) return fail(verdict.message.trimEnd() + CHUNKS);
  const { config } = testCase, p = config.grid.dp;
  // W_in and W_out of each of the stage's blocks, gathered for every use: each micro-batch's forward and backward
  const gathers = 2 * 2 * (config.model.layers / config.grid.pp) * config.microBatches;
  const step = config.steps - 1;
  for (let rank = 0; rank < testCase.ranks; rank++) {
    const sent = messagesOf(run.trace, "all-gather:dp", step).filter((m) => m.src === rank);
    if (sent.length !== gathers * (p - 1)) {
      return fail(`Training matches, but rank ${rank} sent ${sent.length} messages for ${gathers} gathers in a step; ` +
        `sending straight to every other member takes p − 1 = ${p - 1} per gather (${gathers * (p - 1)}).`);
    }
    // Each gather (its own tag: the trainer numbers the collectives of a step) sends to p − 1 distinct members.
    const first = sent.filter((m) => m.tag === sent[0].tag);
    const peers = new Set(first.map((m) => m.dst));
    if (peers.size !== p - 1) {
      return fail(`Rank ${rank} sent its first gather's ${first.length} messages to ${plural(peers.size, "distinct rank")}: each ` +
        "member's shard goes once to every other member (a ring would forward others' shards instead).");
    }
  }
  return verdict;
}

export const fsdpGather = labExercise({
  id: "lab-fsdp-gather",
  title: "FSDP: gather the weights before use",
  prompt: `<p>With FSDP (ZeRO-3) a data-parallel rank keeps only its shard of every tensor; a block's weights are
    gathered just before it runs, and dropped after. Write <code>gatherWeights(shard, dp, n)</code>: send your
    shard to every other member of <code>dp</code> directly, receive theirs, and return the whole tensor with the
    chunks in member order. Chunk sizes follow the collectives' rule (the first n mod p chunks are one longer) and
    n is usually not divisible by p here.</p>
    <p>The trainer calls your function for every block, in forward and again in backward, on 3 or 4 replicas and on
    a 2 × 2 FSDP + tensor-parallel grid; the checker compares the trained parameters with one device and reads
    your messages from the trace.</p>`,
  replaces: ["gatherWeights"],
  hints: [
    "Member i's chunk starts at i·q + min(i, r) with q = ⌊n/p⌋, r = n mod p: the first r chunks are q + 1 long.",
    "Start the p − 1 sends without <code>await</code> (a send that is not awaited never blocks), then await the p − 1 " +
      "receives. The checker also runs with synchronous sends, where awaiting each send before receiving deadlocks.",
    "<code>full.set(array, offset)</code> copies a received chunk into place. Put your own shard in too.",
  ],
  solutionText: `<p>Each member sends its n/p values to the p − 1 others and receives theirs: (p − 1)/p·n values in
    and out per member, the same volume as a ring all-gather. On the course's single-port model the p − 1 sends
    leave one port one after another, so the direct gather costs (p − 1)(α + (n/p)β) — exactly the ring's time;
    it finishes in one step only where a member can drive all its links at once (NVSwitch inside a node), and it
    needs p − 1 connections per member, which is why large clusters use rings and trees instead. FSDP
    gathers every tensor twice per step (forward, and again in backward because it was dropped) and
    reduce-scatters its gradient once: 3 × (p − 1)/p·Ψ values per step, 1.5× DDP's all-reduce, in exchange for
    holding Ψ/p parameters instead of Ψ (Rajbhandari et al. 2020; Zhao et al. 2023).</p>`,
  starterExpect: /differ from single-device training.*the forward pass already differs/,   // the starter gathers no shard
}, { starter, solution, wrongs, cases, edgeCases, check });
