// lab_moe.js — one MoE block on one rank of the lab (dsml/moe.h across the ep group, as dsml/expert_parallel.h
// runs it): the rank routes its micro-batch with its replica of the router, all-to-all dispatches fixed-size
// capacity buffers to the ranks that hold the experts, each expert runs on the R·C rows that arrived, and an
// all-to-all combines the outputs back; backward mirrors it. Every member of the ep group runs the same schedule,
// so its micro-batch mb meets the others' mb in the all-to-all: the experts see exactly the token groups the
// single-device reference cuts (dsml/moe_mlp.h, groups = dp·m). Shipped into the Workers as source text (see
// lab_grid.js): self-contained functions only.
//
// Buffers: member q of the ep group holds experts [q·E/R, (q+1)·E/R); the buffer for q has C slots of D values per
// expert of q, expert by expert — assignment (t, j) to expert e in slot s sits at ((e mod E/R)·C + s)·D. Empty
// slots stay zero, and act(0) = 0, so they come out zero and add nothing to a gradient.

// Each kept assignment of the micro-batch as [t, j, member q, position in q's buffer], in the order moe_forward
// adds them onto a token (its experts in index order), so the sums round as the reference's do.
export function keptAssignments(route, rows, topK, perMember) {
  const out = [];
  for (let t = 0; t < rows; t++) {
    const js = topK === 2 && route.expert[2 * t + 1] < route.expert[2 * t] ? [1, 0] : Array.from({ length: topK }, (_, j) => j);
    for (const j of js) {
      const a = t * topK + j, e = route.expert[a], s = route.slot[a];
      if (s >= 0) out.push([t, j, Math.floor(e / perMember), ((e % perMember) * route.capacity + s)]);
    }
  }
  return out;
}

// For each local expert l, rows l·C … of every member's buffer, stacked member after member (R·C rows), and back.
export function expertRows(buffers, l, C, D) {
  const out = new Float64Array(buffers.length * C * D);
  buffers.forEach((b, q) => out.set(b.subarray(l * C * D, (l + 1) * C * D), q * C * D));
  return out;
}
export function memberBuffers(perExpert, R, C, D) {
  const out = Array.from({ length: R }, () => new Float64Array(perExpert.length * C * D));
  perExpert.forEach((rows, l) => {
    for (let q = 0; q < R; q++) out[q].set(rows.subarray(q * C * D, (q + 1) * C * D), l * C * D);
  });
  return out;
}

// block: { router, experts: [{ wIn, wOut }] } (this rank's tensors: the replicated router and its E/R experts).
export async function moeBlockForward(x, block, ep, k) {
  const { rows, width: D } = k, R = ep.size, per = block.experts.length;
  const route = k.moeRoute(x, block.router.w);
  const C = route.capacity, kept = keptAssignments(route, rows, k.topK, per);
  const dispatch = Array.from({ length: R }, () => new Float64Array(per * C * D));
  for (const [t, , q, at] of kept) dispatch[q].set(x.subarray(t * D, (t + 1) * D), at * D);
  const arrived = await ep.allToAll(dispatch);
  const xs = [], pre = [], ys = [];
  block.experts.forEach((e, l) => {
    xs.push(expertRows(arrived, l, C, D));
    const f = k.expertForward(xs[l], e.wIn.w, e.wOut.w, R * C);
    pre.push(f.pre);
    ys.push(f.y);
  });
  const outputs = await ep.allToAll(memberBuffers(ys, R, C, D));
  const y = Float64Array.from(x);                                  // the residual
  for (const [t, j, q, at] of kept) {
    const g = route.gate[t * k.topK + j], o = outputs[q];
    for (let i = 0; i < D; i++) y[t * D + i] += g * o[at * D + i];
  }
  const bytes = [x, route.probs, ...xs, ...pre, ...outputs].reduce((n, a) => n + a.byteLength, 0);
  return { y, saved: { moe: true, x, route, kept, xs, pre, outputs, bytes } };
}

// Backward: dY → the gates' gradients and, scaled by the gates, the experts' output gradients (all-to-all out),
// the experts' backward (their weight gradients added into this rank's tensors), the input gradients back
// (all-to-all), then the router: dlogits through the gating and softmax, dW_r = dlogitsᵀ·x, dx += dlogits·W_r.
export async function moeBlockBackward(dy, saved, block, ep, k) {
  const { rows, width: D, topK } = k, R = ep.size, per = block.experts.length;
  const { x, route, kept, xs, pre, outputs } = saved, C = route.capacity;
  const dGate = new Float64Array(rows * topK);
  const dispatch = Array.from({ length: R }, () => new Float64Array(per * C * D));
  for (const [t, j, q, at] of kept) {
    const g = route.gate[t * topK + j], o = outputs[q], d = dispatch[q];
    let dot = 0;
    for (let i = 0; i < D; i++) { dot += dy[t * D + i] * o[at * D + i]; d[at * D + i] = g * dy[t * D + i]; }
    dGate[t * topK + j] = dot;
  }
  const arrived = await ep.allToAll(dispatch);
  const dxs = block.experts.map((e, l) => {
    const b = k.expertBackward(expertRows(arrived, l, C, D), pre[l], xs[l], e.wIn.w, e.wOut.w, R * C);
    for (let i = 0; i < b.dWIn.length; i++) e.wIn.g[i] += b.dWIn[i];
    for (let i = 0; i < b.dWOut.length; i++) e.wOut.g[i] += b.dWOut[i];
    return b.dX;
  });
  const back = await ep.allToAll(memberBuffers(dxs, R, C, D));
  const dx = Float64Array.from(dy);                                // the residual
  for (const [t, , q, at] of kept) {
    const b = back[q];
    for (let i = 0; i < D; i++) dx[t * D + i] += b[at * D + i];
  }
  const dLogits = k.moeRouterBackward(route.probs, route.expert, dGate);
  const { dWOut: dRouter, dA } = k.routerBackward(dLogits, x, block.router.w);
  for (let i = 0; i < dRouter.length; i++) block.router.g[i] += dRouter[i];
  for (let i = 0; i < dx.length; i++) dx[i] += dA[i];
  return dx;
}

// What the rank's router did with one micro-batch, added into per-expert counts (the page's load per expert).
export function countLoad(load, route, rows, topK) {
  for (let a = 0; a < rows * topK; a++) {
    load.wanted[route.expert[a]] += 1;
    if (route.slot[a] >= 0) load.kept[route.expert[a]] += 1;
  }
}
