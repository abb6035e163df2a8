// lower_bounds.js — choice exercise "w2-lower-bound": what the lower bounds of Chan et al. (2007) and
// Patarasuk & Yuan (2009) say, and which algorithms meet them. Options whose truth is a computation carry
// `claim(core)`, evaluated by the tests against the core's collectiveCost and lowerBound.

const GRID = { ranks: [4, 8, 16, 64, 256, 1024], bytes: [0, 1e2, 1e4, 1e6, 1e8, 1e10] };
const NET = { alpha: 5e-6, beta: 1 / 25e9, gamma: 0 };
const everywhere = (test) => GRID.ranks.every((ranks) => GRID.bytes.every((bytes) => test({ ranks, bytes, ...NET })));

export const lowerBounds = {
  id: "w2-lower-bound",
  kind: "choice",
  title: "Lower bounds and who meets them",
  prompt: `<p>In the single-port α–β model (each rank sends one message and receives one at a time; γ = 0), which
    statements are true? Choose every correct one.</p>`,
  options: [
    {
      text: "In an all-gather each rank must receive the p − 1 blocks it lacks, so no algorithm takes less than ((p − 1)/p)·nβ.",
      correct: true,
      why: "Those (p − 1)/p·n bytes exist nowhere else and must all come in through the rank's one receiving port, at " +
        "β seconds per byte. Ring, recursive doubling and Bruck all meet this bound.",
    },
    {
      text: "Ring all-reduce's bandwidth term 2((p − 1)/p)·nβ equals the all-reduce bandwidth lower bound.",
      correct: true,
      why: "Follow one element. Let r* be the rank whose first message about it leaves last. By then the other p − 1 " +
        "ranks have each sent once (messages that cannot carry r*'s value); afterwards each of them must receive something " +
        "that does: 2(p − 1) transfers per element, 2(p − 1)·n bytes in all, through p receiving ports. So T ≥ 2((p − 1)/p)·nβ, " +
        "and the ring meets it exactly.",
    },
    {
      text: "The ring is within a factor 2 of the all-reduce lower bound for every message size.",
      claim: (core) => everywhere((q) => core.collectiveCost("all-reduce", "ring", q) <= 2 * core.lowerBound("all-reduce", q)),
      correct: false,
      why: "Only for large messages. For small ones its 2(p − 1) rounds face a bound of ⌈log₂p⌉ rounds: at p = 64 and 8 kB " +
        "the ring takes about 20× the bound. The ring is bandwidth-optimal, not latency-optimal.",
    },
    {
      text: "For p a power of two, Rabenseifner's all-reduce is within a factor 2 of the lower bound at every message size.",
      claim: (core) => everywhere((q) => core.collectiveCost("all-reduce", "rabenseifner", q) <= 2 * core.lowerBound("all-reduce", q)),
      correct: true,
      why: "Its cost is 2 log₂p·α + 2((p − 1)/p)·nβ: exactly twice the latency bound and exactly the bandwidth bound, so the " +
        "total is at most twice the bound — for every n.",
    },
    {
      text: "The tight bandwidth lower bound for all-reduce is nβ, because each rank only needs to receive one value per element.",
      correct: false,
      why: "nβ is a valid bound but not a tight one for p &gt; 2: counting transfers per element (the second option) gives " +
        "2((p − 1)/p)·nβ, which the ring attains. The two agree only at p = 2.",
    },
    {
      text: "A binomial-tree broadcast meets the broadcast lower bound ⌈log₂p⌉α + nβ.",
      claim: (core) => [8, 64].every((ranks) => {
        const q = { ranks, bytes: 1e9, ...NET };
        return core.collectiveCost("broadcast", "binomial-tree", q) <= 1.01 * core.lowerBound("broadcast", q);
      }),
      correct: false,
      why: "It meets the latency part only. Each of its ⌈log₂p⌉ rounds forwards the whole n bytes, so its bandwidth term is " +
        "⌈log₂p⌉·nβ. Scatter + all-gather (≈ 2nβ) and pipelined chains or trees (→ nβ) do far better for large n.",
    },
  ],
  hints: [
    "A lower bound must hold for <em>every</em> algorithm: argue from what must cross each rank's port, or how fast information can spread.",
    "Compare each algorithm's α coefficient with ⌈log₂p⌉ and its β coefficient with the bound's; a factor of 2 overall needs both to be within 2.",
    "Three statements are true.",
  ],
  solutionText: `<p>True: the all-gather receive argument; the ring's bandwidth term is the all-reduce bound (a counting
    argument over the transfers of one element); Rabenseifner's algorithm is within 2× of the bound everywhere. False: the
    ring is latency-suboptimal by 2(p − 1)/⌈log₂p⌉ for small messages; nβ is a bound for all-reduce but not the tight one;
    the binomial tree has a bandwidth term ⌈log₂p⌉ times too large. Bounds tell you which term of an algorithm has room
    to improve — and that no algorithm can beat the ring's bandwidth.</p>`,
};
