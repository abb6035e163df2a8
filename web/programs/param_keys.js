// param_keys.js — how a parameter server splits the model: the parameters as one flat vector of keys 0 … Ψ−1
// (mlpInit's tensors end to end), cut into K contiguous key ranges, one per server shard (as in Li et al. 2014's
// parameter server, which partitions the key space by range). Shipped into the Workers as source text
// (ps_program.js), so each function is self-contained.

// K contiguous ranges [begin, end) covering keys 0 … total−1 in order, sizes differing by at most one key:
// the first total mod K shards hold one key more.
export function keyRanges(total, servers) {
  const base = Math.floor(total / servers), extra = total % servers;
  const ranges = [];
  let begin = 0;
  for (let k = 0; k < servers; k++) {
    const end = begin + base + (k < extra ? 1 : 0);
    ranges.push({ begin, end });
    begin = end;
  }
  return ranges;
}

// The tensors end to end, as one Float64Array.
export function flattenParams(tensors) {
  const flat = new Float64Array(tensors.reduce((n, t) => n + t.length, 0));
  let offset = 0;
  for (const t of tensors) { flat.set(t, offset); offset += t.length; }
  return flat;
}

// The flat vector cut back into tensors of the given sizes (views: no copy).
export function splitParams(flat, sizes) {
  const tensors = [];
  let offset = 0;
  for (const n of sizes) { tensors.push(flat.subarray(offset, offset + n)); offset += n; }
  return tensors;
}
