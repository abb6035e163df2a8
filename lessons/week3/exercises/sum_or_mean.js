// sum_or_mean.js — choice exercise "w3-sum-or-mean": what happens if the replicas' gradients are summed instead of
// averaged, under SGD and under Adam. Every option explains itself; the page's exactness widget shows the numbers.

export const sumOrMean = {
  id: "w3-sum-or-mean",
  kind: "choice",
  title: "Summed instead of averaged",
  prompt: `<p>P replicas each compute the mean gradient of their B/P rows. A bug all-reduces them with a sum and never
    divides by P. Which statements are true? Choose every correct one.</p>`,
  options: [
    { text: "With plain SGD every update is P times too large — as if the learning rate had been multiplied by P.",
      correct: true,
      why: "SGD's update is −η·g, linear in g: a gradient P× too large is a learning rate P× too large. With a rate tuned for one device, P = 8 can diverge." },
    { text: "With Adam the updates barely change: m/√v is unchanged when every gradient is scaled by the same factor, up to ε.",
      correct: true,
      why: "m scales by P and √v by P, so their ratio is the same; only ε (1e-8) is now relatively smaller. The bug hides — until weight decay, gradient clipping or a switch of optimizer makes the scale matter." },
    { text: "The replicas drift apart, because each one applies a different gradient.",
      correct: false,
      why: "They all receive the same sum, so they stay identical to each other — identically wrong. A checker that compares replicas with each other cannot see this bug; one that compares with a single device can." },
    // Judged under the prompt's own premise (each replica's gradient is the MEAN over its rows): an option
    // may not change the setup ("summing is right if the loss is a sum") and be graded as if it had not.
    { text: "In this setup the summed all-reduce gives P times the gradient of the global batch's mean loss.",
      correct: true,
      why: "Replica r sends (P/B)·Σ over its B/P rows; the sum over the P replicas is (P/B)·Σ over all B rows, P times the " +
        "global mean's (1/B)·Σ. (A sum would be right in another setup — each replica summing over its rows and the loss a " +
        "sum over the global batch — but here every replica computes a mean.)" },
    { text: "Gradient clipping by global norm makes the sum harmless, because it rescales the gradient anyway.",
      correct: false,
      why: "Clipping changes the gradient only when its norm exceeds the threshold; a P× larger norm is clipped more often and differently from single-device training. The runs are no longer the same." },
  ],
  hints: [
    "Write the update of each optimizer as a function of g and ask what happens to it when g becomes P·g.",
    "Adam: m ← β₁m + (1 − β₁)g, v ← β₂v + (1 − β₂)g², update −η·m/(√v + ε).",
  ],
  solutionText: `<p>SGD is linear in the gradient, so a missing 1/P is a P× learning rate. Adam divides by √v, which scales with
    the gradient, so the bug is almost invisible in the loss — the section's widget shows the difference after one step
    for both. Replicas stay equal to each other either way; only a comparison with one device catches it, which is what every
    checker on this page does.</p>`,
};
