// key_ranges.js — code exercise "w4-key-ranges": shard the parameter server over K servers by key range. The
// flat parameter vector (keys 0 … Ψ−1) is cut into K contiguous ranges, one per shard; workers split every push
// and assemble every pull by the same ranges. Checked on the run: the shards' ranges tile [0, Ψ) in order, no
// shard holds more than one key more than another, the trace shows each shard receiving bytes in proportion to
// its range, and the run replays exactly.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { formatBytes, formatCount } from "../../../web/units.js";
import { sourceOf } from "../programs/ps_program.js";
import { fail, pass, psCase, psExercise, ranksOf, replayVerdict } from "./ps_checks.js";

const starter = `// The parameters are one flat vector of keys 0 … total − 1. Cut it into \`servers\` CONTIGUOUS key ranges,
// one per server shard, in order: shard k gets [begin, end). Balance the load: no shard may hold more than
// one key more than another. Every worker and every shard calls this same function.
function keyRanges(total, servers) {
  const ranges = [];
  // TODO: push { begin, end } for k = 0 … servers − 1
  return ranges;
}
`;

const solution = sourceOf("keyRanges");

const wrongs = [
  { name: "floor(Ψ/K) keys each: the remainder belongs to nobody",
    code: `function keyRanges(total, servers) {
  const size = Math.floor(total / servers), ranges = [];
  for (let k = 0; k < servers; k++) ranges.push({ begin: k * size, end: (k + 1) * size });
  return ranges;
}
`,
    expect: /eys \[\d+, \d+\) belong to no shard/ },
  { name: "the whole remainder on the last shard",
    code: `function keyRanges(total, servers) {
  const size = Math.floor(total / servers), ranges = [];
  for (let k = 0; k < servers; k++) ranges.push({ begin: k * size, end: k === servers - 1 ? total : (k + 1) * size });
  return ranges;
}
`,
    expect: /holds \d+ keys and shard \d+ holds \d+: .*spread the remainder/ },
  { name: "ceil(Ψ/K) keys each: the last shard gets what is left",
    code: `function keyRanges(total, servers) {
  const size = Math.ceil(total / servers), ranges = [];
  for (let k = 0; k < servers; k++) ranges.push({ begin: Math.min(total, k * size), end: Math.min(total, (k + 1) * size) });
  return ranges;
}
`,
    expect: /holds \d+ keys and shard \d+ holds \d+/ },
  { name: "ranges that overlap by one key",
    code: `function keyRanges(total, servers) {
  const size = Math.floor(total / servers), ranges = [];
  for (let k = 0; k < servers; k++) ranges.push({ begin: k * size, end: k === servers - 1 ? total : (k + 1) * size + 1 });
  return ranges;
}
`,
    expect: /shard \d+ starts at key \d+ but shard \d+ ended at key \d+/ },
];

// Ψ = 2·L·D·F with Ψ mod K ≥ 2, so a lopsided remainder shows: L = 2, D = 5, F ≡ 1 (mod 3) for K = 3 (Ψ mod 3 = 2);
// D = 7, F with Ψ mod 5 ∈ {2, 3, 4} for K = 5.
function modelFor(rng, K) {
  for (;;) {
    const width = K === 3 ? 5 : 7, hidden = intBetween(rng, 8, 16);
    const total = 2 * 2 * width * hidden;
    if (total % K >= 2 && (K !== 5 || total % K === 2)) return { layers: 2, width, hidden, activation: "gelu", residual: true };
  }
}
const keyCase = (rng, K, workers) => psCase(rng, { workers, servers: K, model: modelFor(rng, K), iterations: 4, regime: "asp" });

const cases = (rng) => [keyCase(rng, 3, intBetween(rng, 2, 3)), keyCase(rng, 5, 2)];
const edgeCases = (rng) => [keyCase(rng, pick(rng, [3, 5]), 3)];

function check(run, testCase, core) {
  const { verdict, servers } = ranksOf(run, testCase);
  if (verdict) return verdict;
  const K = servers.length, total = core.mlpInit({ ...testCase.config.model, seed: 1 }).reduce((n, t) => n + t.length, 0);
  let end = 0;
  for (const s of servers) {
    if (s.begin > end) return fail(`Keys [${end}, ${s.begin}) belong to no shard: shard ${s.shard} starts at key ${s.begin}. The ranges must cover every key, in order.`);
    if (s.begin < end) return fail(`The ranges overlap: shard ${s.shard} starts at key ${s.begin} but shard ${s.shard - 1} ended at key ${end}; a key has one owner.`);
    if (!(s.end > s.begin)) return fail(`Shard ${s.shard} holds no keys ([${s.begin}, ${s.end})).`);
    end = s.end;
  }
  if (end !== total) {
    return fail(end < total ? `Keys [${end}, ${total}) belong to no shard: the last range ends at ${end}, the model has Ψ = ${total} keys. ` +
      "Nothing updates them — they keep their initial values for ever."
      : `The last range ends at key ${end}, past the model's Ψ = ${total} keys.`);
  }
  const sizes = servers.map((s) => s.end - s.begin);
  const big = sizes.indexOf(Math.max(...sizes)), small = sizes.indexOf(Math.min(...sizes));
  if (sizes[big] - sizes[small] > 1) {
    return fail(`Shard ${big} holds ${sizes[big]} keys and shard ${small} holds ${sizes[small]}: the busiest shard sets the ` +
      `round's pace, so spread the remainder Ψ mod K = ${total % K} one key each over the first shards.`);
  }
  const bytes = new Array(K).fill(0);
  for (const m of run.trace) if (m.tag === "push" && m.dst < K) bytes[m.dst] += m.bytes;
  const replay = replayVerdict(run, testCase, core, servers);
  if (replay) return fail(replay.message);
  return pass(`The ${K} shards hold ${sizes.map((n) => formatCount(n)).join(" / ")} of Ψ = ${formatCount(total)} keys, and the ` +
    `trace shows ${bytes.map((b) => formatBytes(b)).join(" / ")} of pushes into them; the run replays exactly.`);
}

export const keyRangesExercise = psExercise("keyRanges", {
  id: "w4-key-ranges",
  title: "Shard the parameter server by key range",
  prompt: `<p>The parameters are one flat vector of keys 0 … Ψ − 1 (every tensor end to end). Write
    <code>keyRanges(total, servers)</code>: K contiguous ranges <code>{ begin, end }</code>, in order, that cover every
    key once and that no shard holds more than one key more than another.</p>
    <p>The parameter server then runs on the Workers with your function on both sides — shards keep their range,
    workers cut every push and assemble every pull by it — with K = 3 or 5 shards and a Ψ that K does not divide.</p>`,
  hints: [
    "Each shard gets ⌊Ψ/K⌋ keys; Ψ mod K keys are left over.",
    "Give the first Ψ mod K shards one extra key each; every range starts where the previous one ended.",
  ],
  solutionText: `<p>Contiguous ranges keep a push cheap to cut (one slice per shard) and let a shard hold its keys as one
    array. The remainder goes one key each to the first shards, so the busiest shard holds ⌈Ψ/K⌉ keys — the least
    any split can do. Real parameter servers split by key range too (Li et al. 2014), but they balance bytes and
    traffic, not keys: an embedding row that every example touches is hotter than one that few do, which is why
    systems such as Monolith or TorchRec shard big embedding tables by row or column and place them by measured load.</p>`,
  starterExpect: /keyRanges\(260, 3\) must return 3 ranges .*it returned \[\]/,   // the starter returns no range
}, { starter, solution, wrongs, cases, edgeCases, check });
