// ring_choice.js — choice exercise "w6-ring": which compressors compose with ring all-reduce. Each option's flag is
// checked against the core (core.compressionWire(...).composesWithAllReduce, compression.h) in
// tests/exercises/week6_exercises.test.mjs, so it cannot drift from what the page prices.
export const ringChoice = {
  id: "w6-ring",
  kind: "choice",
  title: "Which compressors ride a ring all-reduce?",
  prompt: `<p>A ring all-reduce passes partial sums from rank to rank. Which of these compressed gradients can be
    combined that way, so that each rank sends about 2·message bytes whatever P is? Choose every correct one.</p>`,
  options: [
    { text: "Random-k, with the k coordinates drawn from a seed every worker shares.", compressor: "random-k", correct: true,
      why: "Every worker keeps the same coordinates, so the k values add position by position: all-reduce them like a short dense vector." },
    { text: "PowerSGD, rank r.", compressor: "powersgd", correct: true,
      why: "U = G·V is linear in the gradient G: all-reduce the U's (rows × r), orthogonalise, then all-reduce the V's (cols × r)." },
    { text: "Top-k, each worker keeping its own k largest values.", compressor: "top-k", correct: false,
      why: "Each worker's indices differ: the sum of two top-k messages has up to 2k entries, and it grows at every hop. It is all-gathered, (P − 1)·message per rank." },
    { text: "QSGD, each worker scaling by its own norm.", compressor: "qsgd", correct: false,
      why: "The codes of different workers have different scales; adding them is not the code of the sum. Each worker must decode every message: all-gather." },
    { text: "8-bit quantization with a per-worker scale.", compressor: "int8", correct: false,
      why: "Different scales again, and the sum of int8 codes overflows int8; with one shared scale each hop would have to re-quantise its partial sum, adding error P − 1 times." },
    { text: "SignSGD with majority vote.", compressor: "sign", correct: false,
      why: "A vote needs every worker's sign; a partial sum of signs is not a sign. It goes by all-gather (or to a server)." },
  ],
  hints: [
    "A ring can carry a code only if the sum of two encodings is the encoding of the sum (a linear code).",
    "Ask of each: do two workers' messages line up value for value, with one shared meaning?",
    "Two are linear.",
  ],
  solutionText: `<p>Random-k with a shared seed and PowerSGD are linear and all-reduce; top-k, QSGD, 8-bit with per-worker
    scales and the majority vote need an all-gather, whose bytes per rank grow as (P − 1)·message. That is why PyTorch
    ships PowerSGD as a DDP hook, and why top-k's savings shrink and then reverse as P grows.</p>`,
};
