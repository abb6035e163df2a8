// consensus.js — Week 1's choice exercise: why synchronous training needs collectives, not consensus.
// Every option carries its explanation; the page shows it for each option the learner picked.

export const consensus = {
  id: "w1-consensus",
  kind: "choice",
  title: "Why training needs no consensus protocol",
  prompt: `<p>Every step of synchronous data-parallel training on 64 GPUs ends with all 64 holding the same averaged
    gradient. Databases reach agreement like that with a consensus protocol such as Paxos or Raft. Training uses an
    all-reduce instead. Which statements explain why that is enough? Choose every correct one.</p>`,
  options: [
    {
      text: "There is nothing to choose between: the 64 ranks are fixed at launch and run the same program, so the " +
        "result (the sum of their gradients) is determined by the inputs. A fixed pattern of messages computes it.",
      correct: true,
      why: "Consensus exists to pick <em>one</em> of several competing proposals (which write comes first, who leads) " +
        "among processes that may fail or be slow. An all-reduce has no competing proposals: every rank contributes " +
        "and every rank gets the same deterministic result. It is a data-movement schedule, not a vote.",
    },
    {
      text: "When a rank fails, the job stops and every rank restarts from the last checkpoint, so the ranks never " +
        "have to agree mid-step on who is still alive.",
      correct: true,
      why: "Training treats failures as fail-stop for the whole job: detect, stop, restart from a checkpoint " +
        "(Week 6). A replicated database must keep serving through failures, which is what forces it " +
        "to run consensus. Agreement does appear at job start-up — <code>torchrun</code>'s rendezvous — but even " +
        "there it is a key–value store (a <code>TCPStore</code>) served by one host, with the <code>c10d</code> or " +
        "the default <code>static</code> backend; only the optional etcd backend runs a consensus protocol (Raft). " +
        "It is the control plane, not every step.",
    },
    {
      text: "Consensus is impossible in an asynchronous system (the FLP result), so training could not use it anyway.",
      correct: false,
      why: "Fischer, Lynch and Paterson (1985) show that no <em>deterministic</em> protocol can <em>guarantee</em> " +
        "termination in a fully asynchronous system if even one process may crash. Paxos and Raft stay safe under any " +
        "timing and make progress in practice using timeouts; etcd runs Raft and ZooKeeper a Paxos-like protocol (Zab) " +
        "every day. Training avoids consensus " +
        "because it does not need it, not because it cannot have it.",
    },
    {
      text: "All-reduce tolerates failures: if one GPU dies, the others finish the sum without it.",
      correct: false,
      why: "The opposite. A ring all-reduce needs every rank: if one dies, its neighbours wait forever (in practice " +
        "until a timeout, after which the job aborts). Collectives buy speed by assuming everyone is alive.",
    },
    {
      text: "Gradients are noisy anyway, so it does no harm if the ranks end the step with slightly different averages.",
      correct: false,
      why: "In synchronous data parallelism every replica must apply the identical update, or the model copies drift " +
        "apart and the job is no longer training one model. Asynchronous methods (Week 4) accept <em>stale</em> " +
        "gradients by design, with a price in convergence — that is a different algorithm, not a free tolerance.",
    },
    {
      text: "Consensus protocols need synchronised clocks, which a cluster does not have.",
      correct: false,
      why: "Paxos and Raft need no synchronised clocks: their safety holds whatever the timing, and the timeouts that " +
        "give liveness use each machine's local timer. Ordering without clocks is exactly what Lamport (1978) and the " +
        "protocols built on his ideas provide.",
    },
  ],
  hints: [
    "Ask what a consensus protocol decides. Is there anything in a training step that could come out two ways?",
    "Ask what happens to a training job when a machine crashes, and what happens to a replicated database.",
    "Two options are correct. Of the others, check each claim against what it says about failures or clocks.",
  ],
  solutionText: `<p>The correct options are the first two. Synchronous training is a <em>friendly</em> distributed system:
    fixed membership, one program, a deterministic result, and failures handled by stopping everyone. So it needs only
    collectives — fixed schedules of messages — whose cost is what the rest of this course optimises. Consensus appears
    only around the edges: launching and re-forming the job (rendezvous), and in the cluster's own bookkeeping.</p>`,
};
