// moe_balance.js — Switch Transformer's load-balancing loss, α·E·Σ f_i·P_i (Fedus et al. 2021, eq. 4), for one token
// group whose first choices and mean router probabilities are drawn per learner. The answer is the core's
// moeBalanceLoss, the function every MoE block of the core's trainer adds to its loss.
import { intBetween, pick } from "../../../web/exercise/params.js";

const ALPHA = 0.01;  // Switch's coefficient

// Counts of first choices (summing to the group's tokens, skewed towards a favourite expert) and mean probabilities
// in hundredths (summing to exactly 1, the favourite's largest), so the prompt shows the exact numbers used.
function draw(rng) {
  const experts = pick(rng, [4, 8]), tokens = pick(rng, [32, 64, 128]);
  const favourite = intBetween(rng, 0, experts - 1);
  const weights = Array.from({ length: experts }, (_, i) => (i === favourite ? 6 : 1) + intBetween(rng, 0, 3));
  const total = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((w * tokens) / total));
  counts[favourite] += tokens - counts.reduce((a, b) => a + b, 0);
  const hundredths = weights.map((w) => Math.max(1, Math.floor((w * 100) / total)));
  hundredths[favourite] += 100 - hundredths.reduce((a, b) => a + b, 0);
  return { experts, tokens, counts, hundredths };
}

const fractions = (p) => p.counts.map((c) => c / p.tokens);
const probabilities = (p) => p.hundredths.map((h) => h / 100);

export const balanceLoss = {
  id: "w5-balance-loss",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { counts: (v) => v.map((c, i) => `${i}: ${c}`).join(", "),
    hundredths: (v) => v.map((h, i) => `${i}: ${(h / 100).toFixed(2)}`).join(", ") },
  kind: "numeric",
  title: "Switch's load-balancing loss",
  params: draw,
  prompt: (p) => `<p>A Switch router (top-1) sends a group of T = ${p.tokens} tokens to E = ${p.experts} experts. The
    tokens' first choices fall on the experts ${p.counts.map((c, i) => `${i}: ${c}`).join(", ")}; the router's
    probabilities, averaged over the group's tokens, are ${probabilities(p).map((x, i) => `${i}: ${x.toFixed(2)}`).join(", ")}.
    These numbers are drawn for you.</p>
    <p>What is the load-balancing loss this group adds to the training loss, with Switch's coefficient α = ${ALPHA}?</p>`,
  answer: (p, core) => core.moeBalanceLoss(ALPHA, fractions(p), probabilities(p)),
  // Without the core: Fedus et al.'s eq. 4 as written, α·E·Σ_i f_i·P_i.
  oracle: (p) => ALPHA * p.experts * fractions(p).reduce((s, f, i) => s + f * probabilities(p)[i], 0),
  tolerance: { rel: 0.01 },
  unit: "loss",
  unitSymbol: "",
  // The factor E forgotten: α·Σ f_i·P_i, which is α/E when balanced — not α, so it would not be comparable across E.
  wrongAnswer: (p) => ALPHA * fractions(p).reduce((s, f, i) => s + f * probabilities(p)[i], 0),
  hints: [
    "f_i is a fraction of the group's tokens: the count for expert i divided by T.",
    "The loss is α·E·Σ_i f_i·P_i. Check your scale on a perfectly balanced router: f_i = P_i = 1/E gives exactly α.",
  ],
  solutionText: `<p>f_i = count_i / T and P_i as given; the loss is α·E·Σ_i f_i·P_i. The factor E makes a perfectly
    balanced router (f_i = P_i = 1/E) cost exactly α whatever E is, and a collapsed one (every token to one expert, all
    probability on it) cost α·E. Only P carries a gradient — f counts discrete choices — so the loss lowers the
    probability of experts that receive more than their share of tokens (∂/∂P_i ∝ f_i), which is what moves tokens
    elsewhere and empties the overflow that the capacity would drop.</p>`,
};
