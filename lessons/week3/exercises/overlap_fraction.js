// overlap_fraction.js — numeric exercise "w3-overlap-fraction" (section #partial-overlap): the overlap fraction o that bucketed
// DDP achieves, from one priced step of the worked example: compute C, the buckets' all-reduces M end to end, and the
// step T (core.stepCost with overlap, read through overlap_setup.js). o = 1 − (T − C)/M. The usual slip is the
// exposed share (T − C)/M itself; another divides what hid by C instead of M.
import { pick } from "../../../web/exercise/params.js";
import { formatBytes, formatNumber } from "../../../web/units.js";
import { LINK_CHOICES, measuredOverlap } from "../overlap_setup.js";

const priced = (p, core) => measuredOverlap(core, { ...LINK_CHOICES[p.link], bucketBytes: p.bucket });

// The prompt's numbers: [C, M, T] in ms to 4 significant digits, as the core prices them (measuredOverlap). A prompt
// is drawn before the core is at hand, so they are written here; tests/exercises/week3_overlap.test.mjs checks every
// entry against the core.
export const PRICED = Object.freeze({
  "nvlink 8000000": [49.48, 22.58, 51.45],
  "nvlink 26214400": [49.48, 16.7, 50.98],
  "nvlink 100000000": [49.48, 14.81, 51.45],
  "nvlink 400000000": [49.48, 14.3, 53.15],
  "ib 8000000": [49.48, 141, 160.3],
  "ib 26214400": [49.48, 121.4, 140.7],
  "ib 100000000": [49.48, 115.1, 134.4],
  "ib 400000000": [49.48, 113.4, 138.2],
  "ethernet 8000000": [49.48, 282, 301.3],
  "ethernet 26214400": [49.48, 242.8, 262.1],
  "ethernet 100000000": [49.48, 230.2, 249.5],
  "ethernet 400000000": [49.48, 226.9, 251.6],
});
export const BUCKETS = [8e6, 25 * 2 ** 20, 100e6, 400e6];
const ms = (x) => `${formatNumber(x, 4)} ms`;

export const overlapFraction = {
  id: "w3-overlap-fraction",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { link: (v) => LINK_CHOICES[v].name, bucket: (v) => formatBytes(v) },
  kind: "numeric",
  title: "What overlap does a bucket size achieve?",
  params: (rng) => ({ link: pick(rng, Object.keys(LINK_CHOICES)), bucket: pick(rng, BUCKETS) }),
  prompt: (p) => {
    const [C, M, T] = PRICED[`${p.link} ${p.bucket}`];
    return `<p>The worked example of <a href="#ddp" data-ref></a> (8 GPUs, 403 M parameters, fp32 gradients) with bucketed DDP, buckets of
      ${formatBytes(p.bucket)}, on ${LINK_CHOICES[p.link].name}. The core prices one step: forward and backward compute
      C = ${ms(C)}; the buckets' all-reduces, end to end, M = ${ms(M)}; the whole step, with each bucket
      launched during backward, T = ${ms(T)}.</p>
      <p>In the model T = C + (1 − o)·M, what overlap fraction o does this bucket size achieve? (A number between 0 and 1.)</p>`;
  },
  answer: (p, core) => priced(p, core).o,
  // The answer is one step of the step cost model (the buckets' schedule beside backward): no closed form to repeat.
  exempt: { oracle: "one priced step of the bucketed step cost model; week3_overlap.test.mjs checks the prompt's C, M, T against the core and o = 1 − (T − C)/M from them" },
  tolerance: { abs: 0.005 },
  unit: "fraction",
  unitSymbol: "",
  // The exposed share of the communication instead of the hidden one.
  wrongAnswer: (p, core) => 1 - priced(p, core).o,
  hints: [
    "T − C is the communication left over after the compute: the exposed part, (1 − o)·M.",
    "Solve T = C + (1 − o)·M for o: o = 1 − (T − C)/M.",
    "Check against the cap: o can never exceed C/M — nothing hides when there is no compute left to hide behind.",
  ],
  solutionText: `<p>o = 1 − (T − C)/M: the share of the all-reduces that ran while backward still computed. On fast links
    bucketed DDP hides most of it (about 0.9 with 25 MiB buckets on a node's NVLink, 200 GB/s); on slow ones M exceeds C, o is capped at
    C/M, and the buckets reach less than that because the forward pass and the last bucket's all-reduce cannot overlap
    anything. The partial-overlap widget draws this line and the achieved point for every link and bucket size.</p>`,
};
