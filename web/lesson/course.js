// The course manifest: every page of the course in reading order. The index page draws a card per entry,
// and each lesson's prev/next links come from here (body[data-week] names the page: "1" … "6", "planner" or "lab").
// To publish a week: write lessons/<slug>/index.html (+ its module and exercises.js) and flip `available`.

export const COURSE_TITLE = "Distributed Systems for Machine Learning, from first principles";

export const WEEKS = [
  {
    slug: "week1", number: 1, available: true,
    title: "Foundations and communication",
    summary: "Processes and messages, latency and bandwidth, the α–β cost model and its crossover size, a "
      + "message-passing simulator, Amdahl vs Gustafson — and α and β measured in your own browser.",
  },
  {
    slug: "week2", number: 2, available: true,
    title: "Collectives from scratch",
    summary: "Broadcast, reduce, all-reduce (naive, ring, recursive doubling, Rabenseifner, tree), all-gather, "
      + "reduce-scatter and all-to-all; lower bounds, topologies and link contention.",
  },
  {
    slug: "week3", number: 3, available: true,
    title: "Data parallelism and large-batch training",
    summary: "Synchronous SGD on Workers, exact to one device; naive, flat and bucketed DDP with the all-reduce "
      + "overlapped with backward; gradient accumulation, unequal shards, large batches (linear scaling with warm-up, "
      + "LARS, LAMB), weak vs strong scaling.",
  },
  {
    slug: "week4", number: 4, available: true,
    title: "Parameter servers and asynchrony",
    summary: "Parameter servers, asynchronous SGD and staleness, Hogwild!, consistency models (BSP, SSP, ASP), "
      + "stragglers and backup workers.",
  },
  {
    slug: "week5", number: 5, available: true,
    title: "Tensor, pipeline, sharded and expert parallelism",
    summary: "Megatron tensor parallelism; GPipe, 1F1B, interleaved and zero-bubble pipelines timed and trained beside "
      + "one device; micro-batches with overhead and recomputation; ZeRO at real sizes; mixture-of-experts all-to-all; "
      + "every (t, p, d) layout of a 30B model on 64 GPUs priced.",
  },
  {
    slug: "week6", number: 6, available: true,
    title: "Fault tolerance and compression",
    summary: "Checkpointing and the Young/Daly interval, failures and elastic training, gradient compression "
      + "with error feedback, and a capstone training run with failures.",
  },
  {
    slug: "planner", number: null, label: "After Week 6", available: true,
    title: "Plan a real training run",
    summary: "A transformer's training step priced on thousands of GPUs — matmul rooflines, the bubble, tensor, "
      + "pipeline and data-parallel collectives, memory by ZeRO stage and recomputation, MFU and HFU — checked "
      + "against the ten published runs of Narayanan et al. 2021 (1.7B to 1T parameters), and the fastest layouts that fit.",
  },
  {
    slug: "lab", number: null, available: true,
    title: "The parallelism lab",
    summary: "One MLP trained with data, fully-sharded, tensor, FSDP+tensor and pipeline parallelism — every "
      + "forward, backward and collective written out, and each run shown to equal single-device training.",
  },
];

/** "Week 3", "Lab" or an entry's own label ("After Week 6") — the short label shown above a title. */
export function weekLabel(week) {
  if (week.label) return week.label;
  return week.number == null ? "Lab" : `Week ${week.number}`;
}

/** Find an entry by body[data-week] value: a number ("1", 1) or a slug ("week1", "lab"). */
export function findWeek(key) {
  if (key == null || key === "") return undefined;
  const k = String(key).trim();
  return WEEKS.find((w) => w.slug === k || (w.number != null && String(w.number) === k));
}

/** The entries before and after `key` in reading order (undefined at either end). */
export function neighbours(key) {
  const week = findWeek(key);
  if (!week) return { prev: undefined, next: undefined };
  const i = WEEKS.indexOf(week);
  return { prev: WEEKS[i - 1], next: WEEKS[i + 1] };
}
