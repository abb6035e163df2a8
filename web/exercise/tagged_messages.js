// tagged_messages.js — reading a collective's messages back from the cluster's trace. The trainers' groups
// (web/programs/comm_group.js) tag every message "<kind>:<group>|<step>|<call>"; a checker selects one kind of
// collective in one step by that tag — what the ranks sent, never what a rank says it did.

// Messages of one kind ("all-reduce:dp", …) in step s, from the cluster's trace (the tag the trainer sets).
export function messagesOf(trace, label, step) {
  return (trace ?? []).filter((m) => {
    const [l, s] = String(m.tag).split("|");
    return l === label && Number(s) === step;
  });
}
