// lab_shards.js — what one rank of the lab holds: its tensors (with their gradient and optimizer state) and the
// stage's blocks built from them. Shipped into the Workers as source text (see lab_grid.js): self-contained
// functions only.

// This rank's tensors: its stage's blocks, its tp slice of each, and with FSDP its dp shard of the slice. With
// interleaving the stage's blocks are its chunks p, p + pp, … (chunk c = global blocks c·chunkBlocks …), in order.
// Every Worker draws the whole initial model from the seed and keeps its part (a real job would load only its
// shard from a checkpoint); n is the length of the full tp slice, which FSDP gathers before use. An MoE block is
// whole on every tp rank (computed redundantly: Megatron slicing is for the dense blocks) and keeps the router and
// this ep rank's E/ep experts.
export function initShards(core, config, layout, me) {
  const { model } = config;
  const shape = { layers: model.layers, width: model.width, hidden: model.hidden, activation: model.activation, seed: config.seed + 1 };
  const { experts, topK, capacityFactor, every } = layout;
  const full = experts ? core.moeMlpInit({ model: shape, moe: { experts, topK, capacityFactor, every }, seed: shape.seed }) : core.mlpInit(shape);
  const all = modelTensors(config, layout), per = layout.experts / layout.ep, mine = me.d % layout.ep;
  const tensors = [];
  for (let j = 0; j < layout.blocks; j++) {
    const chunk = Math.floor(j / layout.chunkBlocks) * config.grid.pp + me.p;
    const block = chunk * layout.chunkBlocks + j % layout.chunkBlocks;
    for (const { index, which, expert } of all.filter((t) => t.block === block)) {
      if (expert >= 0 && Math.floor(expert / per) !== mine) continue;   // another ep rank's expert
      const moe = isMoeBlock(block, layout);
      let w = moe ? full[index].slice() : tpSlice(full[index], which, me.t, model, layout.hidden);
      const n = w.length;
      if (config.fsdp) {
        const sizes = shardSizes(n, config.grid.dp);
        const start = sizes.slice(0, me.d).reduce((a, b) => a + b, 0);
        w = w.slice(start, start + sizes[me.d]);
      }
      // The optimizer's state, updated in place: m unless SGD, v for Adam (zeros = the state it starts from).
      const kind = config.optimizer.kind, state = (used) => new Float64Array(used ? w.length : 0);
      tensors.push({ index, j, block, which, expert, n, w, g: new Float64Array(w.length), m: state(kind !== "sgd"), v: state(kind === "adam") });
    }
  }
  return tensors;
}

// The stage's blocks j = 0 … from its tensors: dense {wIn, wOut} or MoE {moe, router, experts: [{wIn, wOut}]}.
export function stageBlocks(tensors, layout) {
  return Array.from({ length: layout.blocks }, (_, j) => {
    const own = tensors.filter((t) => t.j === j);
    if (own[0].which !== "router") return { moe: false, wIn: own[0], wOut: own[1] };
    const experts = [];
    for (let e = 1; e < own.length; e += 2) experts.push({ wIn: own[e], wOut: own[e + 1] });
    return { moe: true, block: own[0].block, router: own[0], experts };
  });
}
