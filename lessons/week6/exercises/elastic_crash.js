// elastic_crash.js — Week 6's exercise on elastic training after a crash (elastic.h, WorldChange::crash).
//   w6-crash-redo   the steps a ZeRO-1 run recomputes after ranks crash at step j, checkpoints every Δ   (numeric) #elastic
// The crashed ranks take their shards of the optimizer moments with them, so the survivors roll back to the last
// checkpoint Δ·⌊j/Δ⌋ and recompute the completed steps since: j mod Δ. Answered by core.trainElastic's ResizeEvent.
import { pick } from "../../../web/exercise/params.js";
import { ELASTIC } from "../elastic_setup.js";

// From P workers to q survivors, each dividing the global batch of 24 rows.
const WORLDS = [[4, 3], [4, 2], [6, 4], [8, 6], [6, 3]];

export const crashRedo = {
  id: "w6-crash-redo",
  kind: "numeric",
  title: "Steps redone after a crash",
  params: (rng) => {
    for (;;) {
      const [workers, survivors] = pick(rng, WORLDS);
      const every = pick(rng, [3, 4, 5, 6, 8, 10]), crashAt = pick(rng, [7, 9, 11, 13, 14, 17, 19, 22, 23, 26, 29, 31]);
      if (crashAt > every && crashAt % every !== 0) return { workers, survivors, every, crashAt };
    }
  },
  prompt: (p) => `<p>A data-parallel run keeps its optimizer state sharded as in ZeRO-1: each of its ${p.workers} workers
    owns 1/${p.workers} of the Adam moments. It writes a checkpoint (the parameters and the whole optimizer state) at the
    start of every step whose number is a multiple of ${p.every} (steps 0, ${p.every}, ${2 * p.every}, …; steps count from 0).
    During step ${p.crashAt}, ${p.workers - p.survivors} of the workers crash without handing anything over, and the
    run continues on the ${p.survivors} survivors, the global batch kept.</p>
    <p>How many steps that had already completed must the survivors compute again before they can redo step
    ${p.crashAt}? (Step ${p.crashAt} itself, which was in flight, is not counted.)</p>`,
  answer: (p, core) => core.trainElastic({ model: ELASTIC.model, optimizer: { ...ELASTIC.optimizer }, batch: ELASTIC.batch,
    steps: p.crashAt + 2, seed: ELASTIC.seed, workers: p.workers, checkpointInterval: p.every,
    changes: [{ step: p.crashAt, workers: p.survivors, crash: true }] }).resizes[0].lostSteps,
  // rolled back to the checkpoint at Δ·⌊j/Δ⌋: the steps from there to j − 1
  oracle: (p) => p.crashAt % p.every,
  tolerance: { abs: 0.5 },
  unit: "steps",
  unitSymbol: "",
  // a whole interval, as if a failure always lost one
  wrongAnswer: (p) => p.every,
  slips: [
    { name: "back to the start", value: (p) => p.crashAt,
      explain: "That redoes the run from step 0: the checkpoints written since then hold the whole state." },
    { name: "the step in flight counted", value: (p) => (p.crashAt % p.every) + 1,
      explain: "The prompt does not count the step that was in flight: count only the completed steps after the checkpoint." },
  ],
  hints: [
    "Could the survivors carry on from where they are, as after a graceful leave? What did the crashed ranks hold that nobody else has?",
    "Call the crash step j and the checkpoint period Δ. The run must go back to the last checkpoint written at or before step j: at step Δ·⌊j/Δ⌋.",
    "From that checkpoint, steps Δ·⌊j/Δ⌋ … j − 1 had completed and are lost: j − Δ·⌊j/Δ⌋ = j mod Δ of them.",
  ],
  solutionText: `<p>Under ZeRO-1 rank d alone holds shard d of the optimizer moments. A rank that leaves gracefully hands its
    shard over; one that crashes takes it along, and no survivor can rebuild it. Restoring only that shard from a checkpoint
    would pair old moments with new parameters — a different run. So every survivor reloads the last checkpoint
    (step Δ·⌊j/Δ⌋ for a crash during step j and a checkpoint every Δ steps), re-cuts its state for the smaller world and
    recomputes the j mod Δ completed steps since; the result then
    equals the uninterrupted run's (the core checks it to 1e-12). With plain data parallelism every survivor holds the whole
    state and only the step in flight is redone: elasticity saves the restart, checkpoints save the sharded state.</p>`,
};
