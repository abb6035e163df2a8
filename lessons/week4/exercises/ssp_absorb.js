// ssp_absorb.js — w4-ssp-absorb (numeric, #regimes "What a bound can absorb"): stragglers drawn per clock from a list,
// and the seconds per clock a large enough SSP bound saves over BSP: E[max of W draws] − E[one draw], times the base
// (core.sspClockLimits, ps_closed_forms.h). The usual mistake treats the list's slowest entry as a machine that is
// always slow — the fixed model, where nothing can be absorbed — and takes max(list) for the barrier.
import { pick } from "../../../web/exercise/params.js";
import { formatSeconds } from "../../../web/units.js";

// Lists whose slowest entry is rare enough that E[max of W] stays clearly below it for every W drawn here (so
// "the slowest is always in the clock" is a wrong answer for every draw, by more than the tolerance).
const LISTS = [[1, 1, 1, 1, 3, 5], [1, 1, 1, 1, 1, 6], [1, 1, 2, 2, 2, 8], [1, 2, 1, 2, 1, 2, 1, 6]];
const speed = (p) => ({ distribution: "per-round", base: p.base, roundSpeeds: p.list });
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
// E[max of W independent draws from the list] by hand: Σ over the distinct values v of v·(F(v)^W − F(v⁻)^W).
function expectedMax(list, workers) {
  const values = [...new Set(list)].sort((a, b) => a - b);
  let below = 0, sum = 0;
  for (const v of values) {
    const at = list.filter((x) => x <= v).length / list.length;
    sum += v * (at ** workers - below ** workers);
    below = at;
  }
  return sum;
}

export const sspAbsorb = {
  id: "w4-ssp-absorb",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { base: (v) => formatSeconds(v) },
  kind: "numeric",
  title: "What SSP can absorb from stragglers that come and go",
  params: (rng) => ({ list: pick(rng, LISTS), workers: pick(rng, [3, 4, 6, 8]), base: pick(rng, [0.05, 0.1, 0.2]) }),
  prompt: (p) => `<p>${p.workers} workers run SSP; ignore the network. Every clock, every worker draws its compute time
    afresh and independently: ${formatSeconds(p.base)} × one entry of [${p.list.join(", ")}], each entry equally likely
    (a value listed twice is twice as likely). So no machine is slow for good: any worker is slow in some clocks.</p>
    <p>At s = 0 (BSP) every clock waits for the slowest of the ${p.workers} draws. As s grows, nobody waits for anybody,
    and over a long run the time per clock approaches the mean pace of the slowest worker on average (<a href="#regimes" data-ref="§"></a>, what a bound
    can absorb). How many seconds per clock can a large enough bound s save at most, over a long run, compared with
    s = 0? Answer in seconds.</p>`,
  answer: (p, core) => core.sspClockLimits(speed(p), p.workers).absorbableSeconds,
  // base · (E[max of W draws] − E[one draw])
  oracle: (p) => p.base * (expectedMax(p.list, p.workers) - mean(p.list)),
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  // the fixed model's reasoning: the slowest entry in every clock, max(list) − mean
  wrongAnswer: (p) => p.base * (Math.max(...p.list) - mean(p.list)),
  slips: [
    { name: "the slowest entry in every clock",
      value: (p) => p.base * (Math.max(...p.list) - mean(p.list)),
      explain: "It matches a clock that always holds the list's slowest entry — a machine that is slow for good. Here a " +
        "clock is that slow only when some worker drew it: the barrier is the expected maximum of the draws." },
    { name: "the barrier's whole clock",
      value: (p) => p.base * expectedMax(p.list, p.workers),
      explain: "It matches BSP's whole clock time. A bound cannot remove the work itself: as s grows, each worker still " +
        "computes its own draws, at the mean pace." },
    { name: "the distinct values equally likely",
      value: (p) => {
        const values = [...new Set(p.list)];
        return p.base * (expectedMax(values, p.workers) - mean(values));
      },
      explain: "It matches a list without its repeats. Each entry is equally likely, so a value listed four times is " +
        "drawn four times as often as one listed once." },
  ],
  hints: [
    "Two limits: at s = 0 a clock lasts E[max of the W draws]; as s → ∞ it lasts the mean of one draw (every worker is alike).",
    "E[max] = Σ over the distinct values v of v·(P(draw ≤ v)^W − P(draw < v)^W): the maximum is v when all draws are ≤ v but not all are < v.",
    "Multiply the difference E[max] − E[draw] by the base time.",
  ],
  solutionText: `<p>Saving = base·(E[max of W draws] − E[draw]). For six workers and [1, 1, 1, 1, 3, 5]:
    E[max] = 1 + 2·(1 − (4/6)⁶) + 2·(1 − (5/6)⁶) ≈ 4.15 against a mean of 2, so a bound can remove about half of BSP's
    clock. The same list as <em>fixed</em> speeds (worker w always list[w]) leaves nothing: the 5× worker is in every
    clock, at any s, and the run goes at its pace. SSP absorbs slowness that comes and goes, not a slow machine.</p>`,
};
