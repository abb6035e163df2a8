// quantize_int8.js — code exercise "w6-int8": 8-bit quantization with stochastic rounding (the unbiased rounding QSGD
// builds on, Alistarh et al. 2017): 256 levels lo, lo + s, …, hi with s = (hi − lo)/255, each value rounded up with
// probability equal to its fraction of a level, so E[decode(encode(x))] = x. The learner writes encode and decode;
// programs/quantize_program.js sends every rank's vector, quantized `draws` times, to the next rank on the Workers.
//
// Checked from the run: bytes from the trace (n bytes of codes and a header of at most 16 bytes per message), every
// decoded value within one level of the input, and unbiasedness by a stated test: the mean of R draws of a value whose
// draws lie on two adjacent levels is within s·√(ln(2/δ)/(2R)) of its expectation with probability ≥ 1 − δ (Hoeffding);
// with δ = 10⁻⁹/n for each of n values, a correct quantizer fails a case with probability below 10⁻⁹.
import { intBetween } from "../../../web/exercise/params.js";
import { fail, pass, sentBy, unfinished } from "../../../web/exercise/run_checks.js";
import { formatNumber } from "../../../web/units.js";
import { quantizeProgram } from "../programs/quantize_program.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

export const LEVELS = 256, FALSE_FAILURE = 1e-9, MAX_HEADER = 16;

const starter = `// x: a Float64Array of n values; rand(): a uniform random number in [0, 1).
// encode returns { codes: a Uint8Array of n (one byte per value), header: what decode needs besides the codes
// (a Float64Array of at most 2 numbers) }. Use 256 levels spread evenly from min(x) to max(x), and round each value
// to one of its two nearest levels AT RANDOM, so that on average decode(encode(x)) is exactly x.
// (If every value is the same, decode must give that value back.)
function encode(x, rand) {
  const codes = new Uint8Array(x.length);
  // TODO
  return { codes, header: new Float64Array(2) };
}

// codes, header: what encode returned, as received by another rank. Returns a Float64Array of n values.
function decode(codes, header) {
  // TODO
  return new Float64Array(codes.length);
}
`;

const solution = `// 256 levels lo, lo + step, …, hi: 255 steps. Round up with probability equal to the fraction of a step, so the
// expected code is exactly t = (x − lo)/step and the expected decoded value exactly x.
function encode(x, rand) {
  let lo = Infinity, hi = -Infinity;
  for (const v of x) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const step = (hi - lo) / 255;
  const codes = new Uint8Array(x.length);
  if (step > 0) {
    for (let i = 0; i < x.length; i++) {
      const t = (x[i] - lo) / step, down = Math.floor(t);     // t in [0, 255]
      codes[i] = Math.min(255, down + (rand() < t - down ? 1 : 0));
    }
  }
  return { codes, header: Float64Array.of(lo, step) };       // the receiver needs both: 16 bytes
}

function decode(codes, header) {
  const [lo, step] = header;
  return Float64Array.from(codes, (c) => lo + c * step);
}
`;

const ROUND_UP = "codes[i] = Math.min(255, down + (rand() < t - down ? 1 : 0));";
const wrongs = [
  { name: "rounded to the nearest level (biased)",
    code: solution.replace(ROUND_UP, "codes[i] = Math.round(t);"),
    expect: /biased[\s\S]*at random/ },
  { name: "256 steps instead of 255: the maximum's code 256 wraps to 0",
    code: solution.replace("const step = (hi - lo) / 255;", "const step = (hi - lo) / 256;").replace(ROUND_UP, "codes[i] = down + (rand() < t - down ? 1 : 0);"),
    expect: /code was 256[\s\S]*255 steps/ },
  { name: "256 steps, codes clamped to 255 (the top of the range biased)",
    code: solution.replace("const step = (hi - lo) / 255;", "const step = (hi - lo) / 256;"),
    expect: /biased[\s\S]*clamp/ },
  { name: "the scale kept in a variable on the sender, not sent",
    code: `let range = null;   // set by encode, read by decode
function encode(x, rand) {
  let lo = Infinity, hi = -Infinity;
  for (const v of x) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const step = (hi - lo) / 255;
  range = { lo, step };
  const codes = new Uint8Array(x.length);
  if (step > 0) {
    for (let i = 0; i < x.length; i++) {
      const t = (x[i] - lo) / step, down = Math.floor(t);
      ${ROUND_UP}
    }
  }
  return { codes };
}

function decode(codes) {
  return Float64Array.from(codes, (c) => range.lo + c * range.step);
}
`,
    expect: /no header/ },
  { name: "rounded up with probability 1 − fraction (reversed)",
    code: solution.replace("rand() < t - down", "rand() < 1 - (t - down)"),
    expect: /biased[\s\S]*at random/ },
];

// A case: P ranks, each with n values in a seeded range (negative and positive), quantized R times.
function quantCase(rng, ranks, { constant = false } = {}) {
  const n = intBetween(rng, 24, 40), draws = 200;
  const inputs = Array.from({ length: ranks }, () => {
    const lo = -1 - 3 * rng(), hi = 0.5 + 3 * rng(), c = lo + rng() * (hi - lo);
    const x = Array.from({ length: n }, () => (constant ? c : lo + rng() * (hi - lo)));
    return { x, draws, seed: intBetween(rng, 1, 2 ** 30) };
  });
  return { ranks, n, draws, inputs };
}
const cases = (rng) => [quantCase(rng, 2), quantCase(rng, 3)];
const edgeCases = (rng) => [quantCase(rng, 2, { constant: true }), quantCase(rng, 4)];

// Hoeffding: R draws in an interval of width s, all n values at once with probability ≥ 1 − FALSE_FAILURE.
export const biasBound = (step, draws, n) => step * Math.sqrt(Math.log(2 * n / FALSE_FAILURE) / (2 * draws));

function check(run, testCase) {
  const { ranks: P, n, draws, inputs } = testCase;
  // 1. Bytes: per message pair, n bytes of codes and a header of 1 … 16 bytes.
  const perRank = sentBy(run?.trace ?? [], P, { run });
  for (let r = 0; r < P; r++) {
    for (let d = 0; 2 * d + 1 < perRank[r].length; d++) {
      const [codes, header] = [perRank[r][2 * d], perRank[r][2 * d + 1]];
      if (codes.bytes !== n) {
        return fail(`Rank ${r}'s codes for draw ${d} took ${codes.bytes} B for n = ${n} values; 256 levels fit one byte each: ` +
          "return the codes as a <code>Uint8Array</code> of n.");
      }
      if (header.bytes === 0) {
        return fail(`Rank ${r} sent its ${n} B of codes with no header: the receiving rank cannot know where the levels start ` +
          "or how far apart they are. Each Worker has its own memory — a variable encode set on the sender is not set on " +
          "the receiver — so the scale (lo and the step) must travel with the codes: n + 16 bytes.");
      }
      if (header.bytes > MAX_HEADER) {
        return fail(`Rank ${r}'s header took ${header.bytes} B; two numbers (lo and the step, ${MAX_HEADER} B) are all decode needs.`);
      }
    }
  }
  const stop = unfinished(run);
  if (stop) return stop;
  // 2. Every draw within one level; 3. the mean of the draws within the Hoeffding bound of x.
  for (let r = 0; r < P; r++) {
    const got = run.results?.[r], from = (r - 1 + P) % P, x = inputs[from].x;
    if (!Array.isArray(got?.decoded) || got.decoded.length !== draws) {
      return fail(`Rank ${r} did not return what the program returns. Write only <code>encode</code> and <code>decode</code>.`);
    }
    const lo = Math.min(...x), hi = Math.max(...x), step = (hi - lo) / (LEVELS - 1), slack = 1e-9 * Math.max(1, hi - lo);
    const top = x.indexOf(hi);
    for (const [d, values] of got.decoded.entries()) {
      const i = values.findIndex((v, j) => !(Math.abs(v - x[j]) <= step + slack));
      if (i < 0) continue;
      const wrapped = i === top && Math.abs(values[i] - lo) < step;
      return fail(`Rank ${r} decoded draw ${d} of rank ${from}'s vector: element [${i}] (of ${n}) should be within one ` +
        `level of the input ${formatNumber(x[i], 6)} (between ${formatNumber(x[i] - step, 6)} and ${formatNumber(x[i] + step, 6)}), ` +
        `but decode gave ${formatNumber(values[i], 6)}, ` +
        `more than one level (σ = (max − min)/255 = ${formatNumber(step, 4)}) away.` + (wrapped
          ? ` It is the maximum, and it came back as the minimum: its code was 256, which a byte stores as 0. 256 levels ` +
            "are 255 steps: σ = (max − min)/255, and the maximum's code is 255."
          : step === 0 ? " Every value is the same: decode must give that value back exactly (a step of 0)" +
            (Math.abs(values[i] - x[i]) < 1e-6 * Math.abs(x[i]) ? "; it came back rounded — send lo as a float64 (a Float64Array header)." : ".")
          : ""));
    }
    if (step === 0) continue;
    const bound = biasBound(step, draws, n);
    const means = x.map((_, j) => got.decoded.reduce((a, v) => a + v[j], 0) / draws);
    const worst = means.reduce((w, m, j) => (Math.abs(m - x[j]) > Math.abs(means[w] - x[w]) ? j : w), 0);
    const bias = means[worst] - x[worst];
    if (Math.abs(bias) > bound) {
      const atTop = x[worst] > hi - step;
      return fail(`Rank ${r} decoded rank ${from}'s vector ${draws} times: the mean of element [${worst}] (of ${n}) should be ` +
        `the input ${formatNumber(x[worst], 6)}, within ±${formatNumber(bound, 4)}, but it is ${formatNumber(means[worst], 6)}: ` +
        `biased by ${formatNumber(bias / step, 3)} of a level. An unbiased quantizer stays within ${formatNumber(bound / step, 3)} ` +
        `of a level of it (Hoeffding, ${draws} draws) except with probability ` +
        `below 10⁻⁹. ` + (atTop
          ? "It is at the top of the range: codes that reach past 255 and are clamped there come back too low. With 256 " +
            "levels the step is (max − min)/255, so the maximum is exactly code 255 and nothing needs to clamp."
          : "Round at random: with t = (x − lo)/σ, take ⌊t⌋ + 1 with probability t − ⌊t⌋ and ⌊t⌋ otherwise, so the " +
            "expected code is exactly t."));
    }
  }
  return pass(`Every message was n + header = ${n} + ${perRank[0][1]?.bytes ?? 0} B, every decoded value within one level, ` +
    `and the mean of ${draws} draws of every value within the Hoeffding bound of it: unbiased.`);
}

export const quantizeInt8 = codeExercise({
  id: "w6-int8",
  title: "Stochastic min–max 8-bit quantization",
  prompt: `<p>This is not the page's symmetric 8-bit compressor (round to nearest, σ = max|g|/127); it is a second 8-bit
    scheme, unbiased as QSGD's levels are. Write <code>encode(x, rand)</code> and <code>decode(codes, header)</code>: 256 levels spread evenly from
    min(x) to max(x), each value rounded to one of its two neighbouring levels <em>at random</em> — up with probability
    equal to how far it is past the lower one, in levels — so that decode(encode(x)) is x on average. The codes are one
    byte each (<code>Uint8Array</code>); the header carries what decode needs (at most two numbers).</p>
    <p>Every rank quantizes its vector 200 times and sends each message to the next rank. The checker reads the bytes from
    the trace, checks that every decoded value is within one level of the input, and tests unbiasedness: the mean of the
    200 draws must lie within Hoeffding's bound of every value. A vector whose values are all equal is also tried.</p>`,
  ranks: 2,
  timeoutMs: 20000,   // a run's watchdog on the Workers: up to 1600 messages on a slow device
  program: quantizeProgram,
  exempt: { thirdAttempt: "every run draws 200 quantizations; week6_code.test.mjs judges attempts 3 and 4" },
  summarizeResult: (value) => (value?.decoded ? `${value.decoded.length} draws decoded from rank ${value.from}` : undefined),
  hints: [
    "lo = min(x), hi = max(x): 256 levels are 255 steps of σ = (hi − lo)/255. Value x<sub>i</sub> sits at t = (x<sub>i</sub> − lo)/σ levels.",
    "Code ⌊t⌋ + 1 with probability t − ⌊t⌋, else ⌊t⌋: <code>Math.floor(t) + (rand() &lt; t - Math.floor(t) ? 1 : 0)</code>. " +
      "Then E[code] = t exactly, and decode's lo + code·σ is x on average.",
    "The header must travel with the codes: <code>Float64Array.of(lo, step)</code> (σ is <code>step</code>). Another Worker cannot see a variable your encode set.",
  ],
  solutionText: `<p>Round-to-nearest has an error of at most half a level but the same error every time, so averaged
    over workers or steps it does not cancel: a gradient coordinate smaller than half a level is always sent as 0.
    Stochastic rounding doubles the worst-case error (one level) but makes it zero-mean, with variance at most σ²/4 per
    value, and then averaging over P workers divides the noise by P like minibatch noise — the property QSGD (Alistarh et
    al. 2017) builds on, with ℓ levels of |g|/‖g‖ and its variance bound min(n/ℓ², √n/ℓ)·‖g‖². The header is not a
    detail: this min–max code sends n bytes and a header of two numbers (lo and σ: 8 or 16 bytes), the page's symmetric
    8-bit code n + 4 (one scale), and because every worker has its own
    scale the codes cannot be summed along a ring — the reason 8-bit needs an all-gather (this page's section on which
    compressors ride a ring).</p>`,
  starterExpect: /^Rank 0 decoded draw 0 of rank 1's vector: element \[0\] \(of \d+\) should be within one level of the input [^ ]+ \(between .*\), but decode gave 0, more than one level/,   // the starter returns zeros
}, { starter, solution, wrongs, cases, edgeCases, check });
