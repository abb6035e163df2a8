// bucket_reducer.js — code exercise "w3-bucketed-ddp": PyTorch DDP's reducer, written by the learner. Buckets of
// ⌊bucketBytes/8⌋ values cut from the END of the flat gradient; each bucket's all-reduce launched the moment
// backward has finished every value in it. Checked by training equality with one device, by the buckets the
// trace shows (count, size, order), and by when each was launched (the trainer counts launches after every
// gradient backward produces; in the judge cluster's exact clock, also bucket 0's first message against the end
// of backward).
import { intBetween, pick } from "../../../web/exercise/params.js";
import { formatBytes, plural } from "../../../web/units.js";
import { bucketRanges, sourceOf } from "../programs/dp_program.js";
import { allReducesOf, dpCase, dpExercise, fail, trainingVerdict } from "./dp_checks.js";

const starter = `// sizes[i]: values in tensor i (mlpInit's order: W_in0, W_out0, W_in1, …). Their concatenation is the flat
// gradient, Ψ values. Cut it into buckets of per = floor(bucketBytes / 8) values FROM THE END: bucket 0 is the
// last per values (backward finishes them first), the last bucket — the first values — may be smaller.
// Backward calls ready(i, grad) as it finishes tensor i, last tensor first. As soon as every value of a
// bucket is there, LAUNCH its all-reduce without awaiting it:  pending.push(dp.allReduce(view))
// (dp.allReduce sums a Float64Array — or a subarray view — over the replicas, in place).
// After backward the trainer awaits finish(grads): leave in every grads[i] the MEAN over the dp.size replicas.
function makeBucketReducer(sizes, dp, bucketBytes) {
  return {
    ready(i, grad) {
      // TODO: copy grad into a flat buffer; launch every bucket that is now complete
    },
    async finish(grads) {
      // TODO: await the launched all-reduces; write the means back into grads
    },
  };
}
`;

const solution = sourceOf("makeBucketReducer");

const wrongs = [
  { name: "every bucket launched after backward, in finish()",
    code: solution.replace("inFlight.push(dp.allReduce(flat.subarray(begin, end), `bucket ${next}`));", "inFlight.push([begin, end]);")
      .replace("await Promise.all(inFlight);", "await Promise.all(inFlight.map(([b, e]) => dp.allReduce(flat.subarray(b, e))));"),
    expect: /was complete once backward had produced .*no all-reduce had been launched.*nothing overlaps/ },
  { name: "buckets cut from the start of the flat gradient",
    code: solution.replace("for (let end = total; end > 0; end = Math.max(0, end - per)) buckets.push({ begin: Math.max(0, end - per), end });",
      "for (let begin = 0; begin < total; begin += per) buckets.unshift({ begin, end: Math.min(total, begin + per) });"),
    expect: /cut from the start/ },
  { name: "summed over the replicas, never divided",
    code: solution.replace("flat[offsets[i] + e] / dp.size", "flat[offsets[i] + e]"),
    expect: /summed over the replicas, not averaged/ },
  { name: "one all-reduce per tensor instead of buckets",
    code: `function makeBucketReducer(sizes, dp, bucketBytes) {
  const inFlight = [];
  return {
    ready(i, grad) { inFlight.push(dp.allReduce(grad)); },
    async finish(grads) {
      await Promise.all(inFlight);
      for (const g of grads) for (let e = 0; e < g.length; e++) g[e] /= dp.size;
    },
  };
}
`,
    expect: /one all-reduce per tensor/ },
  { name: "off by one: a bucket waits for the next gradient, the last one for finish()",
    code: solution.replace("buckets[next].begin >= filledFrom", "buckets[next].begin > filledFrom")
      .replace("await Promise.all(inFlight);", "for (; next < buckets.length; next++) inFlight.push(dp.allReduce(flat.subarray(buckets[next].begin, buckets[next].end)));\n      await Promise.all(inFlight);"),
    expect: /was complete .* launched only later/ },
];

const PSI = 2 * 4 * 8 * 16;   // the small model's parameters (dp_checks.js SMALL_MODEL)
// A bucket size that does not divide Ψ or a tensor: buckets straddle tensors and the last one is smaller, so
// the order of the cut shows in the sizes.
const bucketFor = (rng) => 8 * pick(rng, [90, 100, 150, 200, 300, 400].map((v) => v + intBetween(rng, 1, 9)));

function cases(rng) {
  return [
    // One SGD step first: a wrong scale then shows exactly (the update is −η·g), so the checker can name it.
    dpCase(intBetween(rng, 3, 4), { sync: "bucketed", bucketBytes: bucketFor(rng), steps: 1, seed: intBetween(rng, 1, 1000) }),
    dpCase(2, { sync: "bucketed", bucketBytes: bucketFor(rng), seed: intBetween(rng, 1, 1000), optimizer: { kind: "adam", lr: 0.01 } }),
  ];
}

// Hidden: 8 replicas with small buckets; 5 with one bucket bigger than the model (DDP then sends one).
function edgeCases(rng) {
  return [
    dpCase(8, { sync: "bucketed", bucketBytes: 8 * intBetween(rng, 61, 79), seed: intBetween(rng, 1, 1000) }),
    dpCase(5, { sync: "bucketed", bucketBytes: 8 * PSI + intBetween(rng, 0, 4096), seed: intBetween(rng, 1, 1000), optimizer: { kind: "momentum", lr: 0.05 } }),
  ];
}

function check(run, testCase, core) {
  const verdict = trainingVerdict(run, testCase, core);
  if (!verdict.pass) return verdict;
  const { config, ranks: P } = testCase;
  const sizes = core.mlpInit({ ...config.model, seed: 0 }).map((w) => w.length);
  const total = sizes.reduce((a, b) => a + b, 0);
  const want = bucketRanges(total, config.bucketBytes).map((b) => b.end - b.begin);
  const got = allReducesOf(run, config.steps - 1, P).map((c) => c.values);
  const list = (xs) => xs.slice(0, 6).join(", ") + (xs.length > 6 ? ", …" : "");
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const per = Math.max(1, Math.floor(config.bucketBytes / 8));
  if (!same(got, want)) {
    const head = `Training matches, but the last step's all-reduces carried [${list(got)}] values, in launch order; with ` +
      `${formatBytes(config.bucketBytes)} buckets (${plural(per, "value")} each) over Ψ = ${total} DDP's are [${list(want)}]. `;
    if (same(got, [...sizes].reverse())) return fail(head + "That is one all-reduce per tensor — the naive DDP, one α per tensor. Copy the gradients into a flat buffer and all-reduce buckets of it.");
    if (same(got, [...want].reverse()) || (got.length === want.length && got[0] !== want[0])) {
      return fail(head + "Bucket 0 must be the LAST values of the flat gradient: the buckets were cut from the start, so the small remainder bucket came first. Count from the end: bucket b is [Ψ − (b+1)·per, Ψ − b·per), clipped at 0.");
    }
    return fail(head + "Cut the flat gradient into buckets of per = floor(bucketBytes / 8) values from the end, and all-reduce each exactly once.");
  }
  const offsets = [0];
  for (const s of sizes) offsets.push(offsets[offsets.length - 1] + s);
  const ranges = bucketRanges(total, config.bucketBytes);
  for (const [rank, result] of run.results.entries()) {
    for (const { tensor, launched } of result.launches ?? []) {
      const complete = ranges.filter((b) => b.begin >= offsets[tensor]).length;
      if (launched < complete) {
        const what = `tensor ${tensor} (block ${Math.floor(tensor / 2)}'s ${tensor % 2 ? "W_out" : "W_in"})`;
        return fail(launched === 0 && result.launches.every((l) => l.launched === 0)
          ? `Training and buckets match, but on rank ${rank} bucket 0 was complete once backward had produced ${what}, and ` +
            "no all-reduce had been launched by the end of backward: every bucket waited for finish(), so nothing overlaps " +
            "the backward pass — that is the flat DDP with extra α terms. Launch a bucket's all-reduce in ready(), the moment its last value arrives."
          : `Training and buckets match, but on rank ${rank} bucket ${launched} was complete once backward had produced ${what}, ` +
            `and was launched only later (after it, ${plural(launched, "all-reduce")} of ${complete} complete). Launch every complete bucket in the same ready() call.`);
      }
    }
  }
  if (run.clock?.kind === "virtual") {
    const first = allReducesOf(run, config.steps - 1, P)[0].firstSend;
    const end = Math.max(...run.results.map((r) => r.backwardEnd));
    if (!(first < end)) return fail("Training and buckets match, but the trace shows bucket 0's first message sent only after backward ended: nothing overlapped.");
  }
  return verdict;
}

export const bucketedDdp = dpExercise("makeBucketReducer", {
  id: "w3-bucketed-ddp",
  title: "DDP's reducer: buckets launched during backward",
  prompt: `<p>Write <code>makeBucketReducer(sizes, dp, bucketBytes)</code>, the part of PyTorch DDP that overlaps
    communication with the backward pass. Backward calls <code>ready(i, grad)</code> as it finishes tensor
    <code>i</code> (the last block's <code>W_out</code> first). Cut the flat gradient into buckets of
    ⌊bucketBytes/8⌋ values <em>counted from its end</em>, and launch a bucket's <code>dp.allReduce</code> — without
    awaiting it — as soon as all of its values exist. <code>finish(grads)</code> awaits them and leaves the mean over the
    replicas in every tensor.</p>
    <p>The whole trainer then runs on the Workers with your reducer. The checker compares every replica with
    single-device training, reads your buckets' sizes and order from the trace, and checks that each was launched the
    moment it was complete, while backward still had work to do.</p>`,
  hints: [
    "Keep one <code>Float64Array</code> of Ψ values and each tensor's offset in it (a running sum of <code>sizes</code>). " +
      "Bucket b covers <code>[max(0, Ψ − (b+1)·per), Ψ − b·per)</code>.",
    "Backward fills the flat buffer from the end towards the start. Track the lowest offset filled so far; bucket " +
      "<code>next</code> is complete when its <code>begin</code> is at or above it — and one gradient can complete several buckets.",
    "<code>dp.allReduce(flat.subarray(begin, end))</code> sums in place into your buffer. Keep the promises; in " +
      "<code>finish</code>, <code>await Promise.all(…)</code>, then copy <code>flat[offset + e] / dp.size</code> back.",
  ],
  solutionText: `<p>This is the reducer of PyTorch DDP (Li et al., VLDB 2020, §3.2.3), the trainer's own code. The
    buckets fill in the order backward produces gradients, so bucket 0 is ready after the last block's
    <code>W_out</code> and its all-reduce runs on the network while the earlier blocks' gradients are still being
    computed. Only the last bucket's communication is exposed after backward. DDP also copies gradients into its bucket
    views; it cuts buckets at tensor boundaries and rebuilds them after the first iteration in the order gradients really
    arrived — the core cuts a flat buffer, which prices the same.</p>`,
  starterExpect: /^The replicas ended with different parameters/,   // the starter synchronises nothing: each replica its own step
}, { starter, solution, wrongs, cases, edgeCases, check });
