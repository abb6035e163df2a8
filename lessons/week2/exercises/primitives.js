// primitives.js — choice exercise "w2-primitives": what each collective promises, and which one a training
// system calls where (DDP, ZeRO/FSDP, mixture-of-experts). Every option carries its explanation.

export const primitives = {
  id: "w2-primitives",
  kind: "choice",
  title: "Which collective, where?",
  prompt: `<p>p GPUs each hold a vector of n bytes. Which statements are true? Choose every correct one.</p>`,
  options: [
    {
      text: "A reduce-scatter followed by an all-gather leaves every rank with the same result as an all-reduce.",
      correct: true,
      why: "After the reduce-scatter rank r holds block r of the sum; the all-gather gives every rank every block. " +
        "That is exactly the all-reduce result, and it is how ring and Rabenseifner's all-reduce are built.",
    },
    {
      text: "ZeRO-3 and FSDP all-gather a layer's parameter shards before using the layer, and reduce-scatter its " +
        "gradients so that each rank keeps the summed gradient of its own shard only.",
      correct: true,
      why: "Each rank stores 1/p of the parameters, gradients and optimizer state. The all-gather rebuilds a full layer " +
        "just in time; the reduce-scatter is the half of an all-reduce that the sharded update needs (the lab; Week 5).",
    },
    {
      text: "A mixture-of-experts layer sends each token to the GPU that holds its expert with an all-to-all, and " +
        "brings the outputs back with a second all-to-all.",
      correct: true,
      why: "In an all-to-all rank i sends a different block to every rank j — here, the tokens routed to j's experts. " +
        "The blocks' sizes depend on the routing, so the busiest rank sets the pace.",
    },
    {
      text: "After a reduce-scatter every rank holds the full sum, split into p blocks.",
      correct: false,
      why: "Rank r holds only block r of the sum: n/p bytes. Getting the whole sum everywhere needs the all-gather as well.",
    },
    {
      text: "An all-gather that produces n bytes moves as many bytes per rank as an all-reduce of n bytes.",
      correct: false,
      why: "An all-gather is half of an all-reduce: each rank receives the (p − 1)/p·n bytes it lacks. An all-reduce " +
        "needs a reduce-scatter too, 2(p − 1)/p·n per rank in all.",
    },
    {
      text: "PyTorch DDP broadcasts the updated weights from rank 0 to the other ranks after every optimizer step.",
      correct: false,
      why: "DDP broadcasts the parameters once, when the model is wrapped. After that every replica all-reduces the " +
        "gradients (averaged) and applies the same update itself, so the weights stay identical without further " +
        "broadcasts. (What DDP does broadcast before every forward pass, by default, is rank 0's <em>buffers</em> — " +
        "batch norm's running statistics, not weights: <code>broadcast_buffers=True</code>.)",
    },
  ],
  hints: [
    "Write down, for each collective, what rank r holds before and after (the table at the top of the page).",
    "The sharded systems (ZeRO, FSDP) never hold a full gradient after the step: which collective leaves 1/p of a sum on each rank?",
    "Three statements are true.",
  ],
  solutionText: `<p>True: the first three. All-reduce = reduce-scatter + all-gather (and = reduce + broadcast). ZeRO-3/FSDP
    use the two halves separately — all-gather parameters, reduce-scatter gradients — split around the computation
    (ZeRO-3 all-gathers each layer twice, for the forward and the backward pass, so it moves 1.5× the bytes of data
    parallelism's all-reduce; Rajbhandari et al. 2020). Mixture-of-experts layers route tokens with
    all-to-all. DDP broadcasts the weights only once, at start-up (its per-step broadcast is of buffers); a reduce-scatter leaves 1/p of the sum per rank; and an
    all-gather moves half the bytes of an all-reduce.</p>`,
};
