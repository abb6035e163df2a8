// regime_choice.js — choice exercise "w4-regime": which consistency regime for ten workers of which any one is 4× slow
// in a given round (probability 0.1), dense gradients. Every option's claim is a number from the core
// (ps_closed_forms.h: expectedRoundCompute, hogwildCollisionProbability), so the flags cannot drift from it;
// tests/exercises/week4_exercises.test.mjs checks each claim against its flag.
const SLOW = { distribution: "slow-node", slowProbability: 0.1, slowdown: 4 };
const round = (core, workers, quota) => core.expectedRoundCompute(SLOW, workers, quota);

export const regimeChoice = {
  id: "w4-regime",
  kind: "choice",
  title: "Pick the regime: one worker in ten is 4× slow",
  prompt: `<p>Ten workers train a dense model (every gradient touches every parameter). In any round each worker,
    independently, is 4× slower than usual with probability 0.1 (a noisy neighbour, a GC pause); a normal
    compute takes 1 s. Which statements are true? Choose every correct one.</p>`,
  options: [
    { text: "Under BSP the expected round takes about 3 s, although nine workers in ten finish in 1 s.",
      claim: (core) => Math.abs(round(core, 10, 10) - 3) < 0.1,
      correct: true,
      why: "E[round] = 1 + 3·P(some worker slow) = 1 + 3·(1 − 0.9¹⁰) ≈ 2.95 s: with ten workers a slow one is in most rounds." },
    { text: "Synchronous SGD with two backup workers (12 machines, the first 10 gradients win) brings the expected round under 1.4 s and keeps the update exactly synchronous SGD's.",
      claim: (core) => round(core, 12, 10) < 1.4,
      correct: true,
      why: "The round now waits only if 3 or more of 12 are slow: E = 1 + 3·P(≥ 3 slow) ≈ 1.33 s, for 20% more machines; the update is still the mean of 10 fresh gradients. This is the pick for this case." },
    { text: "ASP removes all waiting at no cost in accuracy, because the gradients are dense.",
      claim: () => false,
      correct: false,
      why: "Dense gradients make staleness worse, not harmless: every update is computed on parameters about W − 1 = 9 updates old on every coordinate, and <a href=\"#staleness\">the staleness section</a> shows what τ ≈ 9 does at a rate tuned for τ = 0." },
    { text: "Hogwild!-style lock-free updates fit well: threads rarely touch the same parameters.",
      claim: (core) => core.hogwildCollisionProbability(10, 1000, 1000) < 0.5,
      correct: false,
      why: "With dense gradients every update touches every coordinate: the collision probability is 1 − q^(T−1) with q = 0, i.e. 1. Hogwild!'s analysis needs sparse updates." },
    { text: "SSP with s = 2 lets the nine fast workers run up to two clocks ahead while a slow round passes, so a transient straggler costs them little.",
      claim: () => true,
      correct: true,
      why: "A slow round is transient here (probability 0.1, independent): a slack of a few clocks absorbs it, as the SSP widget's noisy setting shows. With one worker that is always slow it would not help: the fast ones would only wait later." },
  ],
  hints: [
    "E[max] under the slow-node model: the round is 4 s if any worker is slow, else 1 s.",
    "With P + b workers and a quota of P, the round is slow only if more than b are slow in it.",
    "Three statements are true; dense gradients rule out two of the asynchronous shortcuts.",
  ],
  solutionText: `<p>True: BSP's round is ≈ 2.95 s; two backups bring it to ≈ 1.33 s with synchronous SGD's exact update;
    SSP with a small s absorbs transient stragglers. False: ASP with dense gradients applies updates about nine steps
    stale on every coordinate, and Hogwild!'s collision rate is 1 when every update touches every parameter. Backup
    workers are the pick: they keep the maths of synchronous SGD and pay in machines (20%), not in staleness.</p>`,
};
