// checkpoint_numeric.js — Week 6's numeric exercises on failures and checkpointing, each answered by the core's
// closed forms (checkpointing.h) and each with the usual mistake as its wrongAnswer:
//   w6-fleet    the fleet's MTBF M = m/N, in hours                          (mistake: the node's MTBF m)
//   w6-young    Young's interval √(2δM), in seconds                           (mistake: √(δM), the 2 forgotten)
//   w6-daly     Daly's higher-order interval when δ is not small against M   (mistake: Young's √(2δM))
import { pick } from "../../../web/exercise/params.js";
import { formatCount, formatSeconds } from "../../../web/units.js";

const HOUR = 3600, YEAR = 365 * 24 * HOUR;

export const fleet = {
  id: "w6-fleet",
  kind: "numeric",
  title: "The fleet's MTBF",
  params: (rng) => ({ years: pick(rng, [2, 3, 5, 8]), nodes: pick(rng, [512, 2048, 4096, 16384, 24576]) }),
  prompt: (p) => `<p>Each of ${formatCount(p.nodes)} GPUs (with its share of host, NIC and switch) fails independently,
    with exponentially distributed time between failures of mean ${p.years} years (365-day years). A synchronous job uses
    all of them and stops when any one fails. What is the job's mean time between failures, in hours?</p>`,
  answer: (p, core) => core.fleetMtbf(p.years * YEAR, p.nodes) / HOUR,
  // M_fleet = M_node / N, in hours
  oracle: (p) => (p.years * 8760) / p.nodes,
  tolerance: { rel: 0.02 },
  unit: "hours",
  unitSymbol: "",
  wrongAnswer: (p) => p.years * YEAR / HOUR,   // the node's own MTBF: "each GPU is reliable, so the job is"
  hints: [
    "The job survives to time t only if every GPU does: multiply the survival probabilities.",
    "e^{−t/m} multiplied N times is e^{−Nt/m}: an exponential clock with N times the rate.",
    "M = m/N; convert years to hours with 8760 h per year.",
  ],
  solutionText: `<p>The minimum of N independent exponential times of mean m is exponential with mean m/N, so
    M = m/N. Five-year GPUs give 4.38 h at 10 000 GPUs. The job's reliability falls linearly with its size, which is why
    large runs checkpoint every few tens of minutes.</p>`,
};

export const young = {
  id: "w6-young",
  kind: "numeric",
  title: "Young's checkpoint interval",
  params: (rng) => ({ checkpoint: pick(rng, [30, 60, 120, 300]), mtbfHours: pick(rng, [2, 4, 6, 12, 24]) }),
  prompt: (p) => `<p>Writing a checkpoint stops training for δ = ${formatSeconds(p.checkpoint)}; the job's MTBF is
    M = ${p.mtbfHours} h. By Young's first-order argument, how many seconds of work should separate two checkpoints?</p>`,
  answer: (p, core) => core.checkpointIntervals(p.checkpoint, p.mtbfHours * HOUR).young,
  // Young 1974: √(2δM)
  oracle: (p) => Math.sqrt(2 * p.checkpoint * p.mtbfHours * HOUR),
  tolerance: { rel: 0.02 },
  unit: "seconds",
  unitSymbol: "s",
  wrongAnswer: (p) => Math.sqrt(p.checkpoint * p.mtbfHours * HOUR),   // √(δM): the half-interval lost per failure forgotten
  slips: [
    { name: "a whole interval lost per failure", value: (p) => Math.sqrt(p.checkpoint * p.mtbfHours * HOUR),
      explain: "It matches the interval if a failure lost a whole interval of work: on average it strikes halfway through one." },
    { name: "M left in hours", value: (p) => Math.sqrt(2 * p.checkpoint * p.mtbfHours),
      explain: "Is M still in hours? Put δ and M in one unit (seconds) before combining them." },
  ],
  hints: [
    "Per interval τ you pay δ; a failure loses half an interval on average, and there are 1/M failures per second.",
    "overhead(τ) ≈ δ/τ + τ/(2M). Set its derivative to zero.",
    "τ* = √(2·δ·M), with δ and M in seconds.",
  ],
  solutionText: `<p>τ* = √(2δM). For δ = 60 s and M = 6 h that is 1610 s = 26.8 min, and the overhead there is
    √(2δ/M) = 7.45%. The factor 2 comes from the failure losing half an interval on average; without it the answer is
    √2 too small.</p>`,
};

export const daly = {
  id: "w6-daly",
  kind: "numeric",
  title: "Daly's interval when failures are frequent",
  params: (rng) => ({ checkpoint: pick(rng, [120, 300, 600]), mtbfMinutes: pick(rng, [10, 20, 30, 60]) }),
  prompt: (p) => `<p>A very large job has an MTBF of only M = ${p.mtbfMinutes} min, and a checkpoint takes
    δ = ${formatSeconds(p.checkpoint)}. Use Daly's higher-order estimate
    τ* = √(2δM)·[1 + ⅓·√(δ/(2M)) + (1/9)·δ/(2M)] − δ (valid for δ &lt; 2M). What is τ*, in seconds?</p>`,
  answer: (p, core) => core.checkpointIntervals(p.checkpoint, p.mtbfMinutes * 60).daly,
  // Daly 2006: √(2δM)·(1 + √(δ/2M)/3 + δ/(18M)) − δ
  oracle: (p) => {
    const d = p.checkpoint, M = p.mtbfMinutes * 60, x = d / (2 * M);
    return Math.sqrt(2 * d * M) * (1 + Math.sqrt(x) / 3 + x / 9) - d;
  },
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  wrongAnswer: (p, core) => core.checkpointIntervals(p.checkpoint, p.mtbfMinutes * 60).young,   // Young's first order
  hints: [
    "Work in seconds: M and δ both.",
    "Compute x = δ/(2M) first; then √(2δM), the bracket 1 + √x/3 + x/9, and subtract δ.",
    "It comes out below Young's √(2δM): checkpoint more often when failures can hit the checkpoint and the restart too.",
  ],
  solutionText: `<p>τ* = √(2δM)·(1 + √x/3 + x/9) − δ with x = δ/(2M). For δ = 5 min and M = 15 min, Young gives 12.2 min and
    Daly 9.14 min; running at Young's interval then costs 2.77% more wall time than the true optimum. When δ ≪ M the
    two agree to within a few per cent.</p>`,
};
