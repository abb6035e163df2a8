// slider_scale.test.mjs — the positions of a widget slider (web/ui/controls.js sliderScale): a log slider's ends are
// exact; an arrow key on a count's log slider always moves to the next whole number (at k = 1 a 0.01-decade step is
// 1.02, which rounds back to 1); the values the prose names (a 25 MiB bucket, 400 MB) are exactly reachable.
//   node --test tests/web/slider_scale.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { sliderScale } from "../../web/ui/controls.js";

test("a log slider's ends are exactly its min and max", () => {
  const s = sliderScale({ min: 2, max: 1024, log: true });
  assert.equal(s.from(0), 2);
  assert.equal(s.from(s.positions), 1024);
});

test("an arrow on a count's log slider moves to the next whole number, from k = 1 on, both ways", () => {
  // Week 2's pipeline segments k (1 … 1000) and Week 6's nodes N (1 … 100 000).
  for (const max of [1000, 100000]) {
    const s = sliderScale({ min: 1, max, log: true });
    assert.equal(Math.round(s.from(1)), 1, "one plain 0.01-decade step changes nothing at k = 1");
    let k = s.to(1);
    const seen = [1];
    for (let i = 0; i < 9; i++) { k = s.stepFrom(k, 1, true); seen.push(Math.round(s.from(k))); }
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (let i = 0; i < 9; i++) k = s.stepFrom(k, -1, true);
    assert.equal(Math.round(s.from(k)), 1);
    assert.equal(s.stepFrom(s.positions, 1, true), s.positions, "the end stays the end");
  }
});

test("the bucket sliders reach the prose's 25 MiB and 400 MB exactly", () => {
  const plain = sliderScale({ min: 2e6, max: 1e9, log: true });
  assert.notEqual(plain.from(plain.to(4e8)), 4e8, "without snapping, 400 MB falls between two positions");
  const s = sliderScale({ min: 2e6, max: 1e9, log: true, snap: [25 * 2 ** 20, 4e8] });
  for (const v of [25 * 2 ** 20, 4e8]) {
    assert.equal(s.from(s.to(v)), v);
    assert.notEqual(s.from(s.to(v) + 1), v);
  }
});
