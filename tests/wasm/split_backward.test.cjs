// The backward cut in two from JavaScript (blockBackwardInput = B, blockBackwardWeight = W; zero-bubble pipelines):
// B then W gives exactly the full backward's numbers (blockOutBackward + blockInBackward), on a whole block and on a
// tensor-parallel slice, and bad arguments are readable errors naming the function and the argument.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const filled = (n, seed) => Float64Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) % 1);

for (const [activation, fl] of [["gelu", 6], ["tanh", 3], ["relu", 5]]) {
  test(`B then W equals the full backward bit for bit (${activation}, Fl = ${fl})`, async () => {
    const core = await loadCore();
    const rows = 4, width = 3;
    const x = filled(rows * width, 1), wIn = filled(fl * width, 2), wOut = filled(width * fl, 3), dy = filled(rows * width, 4);
    const f = core.blockInForward(x, wIn, rows, width, activation);
    const out = core.blockOutBackward(dy, f.act, wOut, rows, width);
    const full = core.blockInBackward(out.dA, f.pre, x, wIn, rows, width, activation);
    const b = core.blockBackwardInput(dy, f.pre, wIn, wOut, rows, width, activation);
    assert.deepEqual(b.dX, full.dX, "B's dX is the full backward's");
    assert.equal(b.dH.length, rows * fl);
    const w = core.blockBackwardWeight(dy, f.act, b.dH, x, rows, width);
    assert.deepEqual(w.dWOut, out.dWOut, "W's dW_out is the full backward's");
    assert.deepEqual(w.dWIn, full.dWIn, "W's dW_in is the full backward's");
  });
}

test("a wrong W misses: W with another micro-batch's dH is not the full backward", async () => {
  const core = await loadCore();
  const rows = 2, width = 3, fl = 4;
  const x = filled(rows * width, 5), wIn = filled(fl * width, 6), wOut = filled(width * fl, 7);
  const f = core.blockInForward(x, wIn, rows, width, "gelu");
  const b1 = core.blockBackwardInput(filled(rows * width, 8), f.pre, wIn, wOut, rows, width, "gelu");
  const dy2 = filled(rows * width, 9);
  const full = core.blockInBackward(core.blockOutBackward(dy2, f.act, wOut, rows, width).dA, f.pre, x, wIn, rows, width, "gelu");
  assert.notDeepEqual(core.blockBackwardWeight(dy2, f.act, b1.dH, x, rows, width).dWIn, full.dWIn);
});

test("bad arguments are readable errors", async () => {
  const core = await loadCore();
  const rows = 2, width = 3, fl = 4;
  const dy = filled(rows * width, 1), pre = filled(rows * fl, 2), wIn = filled(fl * width, 3), wOut = filled(width * fl, 4);
  assert.throws(() => core.blockBackwardInput(dy, pre, wIn, wOut, rows, width, "swish"), /blockBackwardInput: .*swish/);
  assert.throws(() => core.blockBackwardInput(dy.subarray(1), pre, wIn, wOut, rows, width, "gelu"),
    /blockBackwardInput: dy has 5 numbers, expected rows · width = 2 · 3 = 6/);
  assert.throws(() => core.blockBackwardInput(dy, pre, wIn, wOut.subarray(1), rows, width, "gelu"), /blockBackwardInput: wOut/);
  assert.throws(() => core.blockBackwardWeight(dy, pre, pre.subarray(1), dy, rows, width), /blockBackwardWeight: dH has 7 numbers/);
  assert.throws(() => core.blockBackwardWeight(dy, pre, pre, dy, 0, width), /blockBackwardWeight: rows/);
  assert.throws(() => core.blockBackwardWeight(dy, "x", pre, dy, rows, width), /blockBackwardWeight: act must be a Float64Array/);
});
