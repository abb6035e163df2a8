// step_through.test.mjs — the step-through on a lesson page in Chromium (exercise/step_through.js): on Week 2's
// ring all-reduce, Step pauses every rank at its first statement; "To send/recv" (key n) stops each rank before
// its send, marked in the editor; a rank's variables are shown; Step all puts the chunks in flight; the
// scrubber goes back to before they were sent and forward again; after a failed Check, the link steps through
// the failing run to the message the checker names. axe finds nothing serious, light and dark, with the panel
// open, and at 360 px nothing scrolls sideways. (On every page with code exercises, Step on the first one's
// reference reaches its first pause in the page's Workers: lessons.test.mjs. That every exercise's reference and
// wrong programs step to the same result as Run — ranks that run only the course's part of the program, a trainer
// or a server, included — is proved in Node with the same instrumentation: tests/exercises/step_equivalence.test.mjs.)
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { openSite, axeViolations } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";

const ID = "w2-ring-allreduce";
let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

// Week 2 opened as a learner does, its editors and widgets built as they come near (only the exercise's editor is
// needed here).
const openWeek2 = () => openLesson(site.context, site.url, "week2", { onDemand: true });

// Brings exercise `id` into view, waits for its editor, and puts `code` in it.
async function showCode(page, id, code) {
  const ex = page.locator(`#ex-${id}`);
  await ex.scrollIntoViewIfNeeded();
  await page.waitForFunction((i) => window.dsml.exercises.get(i).code !== undefined, id);
  await page.evaluate(([i, text]) => window.dsml.exercises.get(i).setCode(text), [id, code]);
  return ex;
}

async function stepThrough(page, which) {
  const code = await page.evaluate(([id, w]) => {
    const ex = window.dsml.exercises.get(id).exercise;
    return w === "solution" ? ex.solution : ex.wrongs.find((x) => x.name === w).code;
  }, [ID, which]);
  return showCode(page, ID, code);
}
const where = (ex) => ex.locator(".step-where").innerText();
// The panel is drawn in the next animation frame: wait for the text.
const waitText = (page, selector, re) => page.waitForFunction(([sel, src]) =>
  new RegExp(src).test(document.querySelector(sel)?.textContent ?? ""), [`#ex-${ID} ${selector}`, re.source]);
const pauseCount = async (ex) => Number(/of (\d+)/.exec(await where(ex))[1]);

test("step to a send, inspect a variable, see the messages in flight, scrub back and forth", async () => {
  const { page, problems } = await openWeek2();
  const ex = await stepThrough(page, "solution");
  await ex.getByRole("button", { name: "Step", exact: true }).click();
  await ex.locator(".step-rank").first().waitFor();
  await page.waitForFunction((id) => /paused before line 3/.test(document.querySelector(`#ex-${id} .step-rank .step-state`)?.textContent), ID);
  const ranks = await ex.locator(".step-rank").count();
  assert.ok(ranks >= 2);

  await ex.getByRole("button", { name: /To send\/recv/ }).focus();
  await page.keyboard.press("n");
  await page.waitForFunction((id) => /paused before line 11/.test(document.querySelector(`#ex-${id} .step-rank .step-state`)?.textContent), ID);
  assert.match(await ex.locator(".cm-step-selected").innerText(), /ctx\.send\(next/);
  const rank0 = ex.locator(".step-rank").first();
  assert.equal(await rank0.locator("dt", { hasText: /^r$/ }).locator("xpath=following-sibling::dd[1]").innerText(), "0");
  assert.match(await rank0.locator(".step-vars").innerText(), /buf\s+Float64Array\(\d+\)[\s\S]*shape \[\d+\]/);
  assert.match(await ex.locator(".step-net h4").innerText(), /No message in flight/);

  await page.keyboard.press("a");
  await page.waitForFunction((id) => /In flight \(\d+\)/.test(document.querySelector(`#ex-${id} .step-net h4`)?.textContent), ID);
  assert.match(await ex.locator(".step-messages li").first().innerText(), /^rank 0 → rank 1 · tag 0 · \d+ B · Float64Array/);
  assert.match(await rank0.locator(".step-box").first().innerText(), /→ rank 1, tag 0/);
  const last = await pauseCount(ex);

  await page.keyboard.press(",");
  await waitText(page, ".step-where", new RegExp(`Pause ${last - 1} of ${last} \\(recorded\\)`));
  assert.match(await ex.locator(".step-net h4").innerText(), /No message in flight/);
  assert.match(await ex.locator(".cm-step-selected").innerText(), /ctx\.send\(next/);
  assert.ok(await ex.getByRole("button", { name: /Step all/ }).isDisabled(), "a recorded moment is not moved");
  await page.keyboard.press(".");
  await waitText(page, ".step-where", new RegExp(`Pause ${last} of ${last} ·`));

  await page.keyboard.press("c");
  await page.waitForFunction((id) => /every rank returned/.test(document.querySelector(`#ex-${id} .step-through [role=status]`)?.textContent), ID, { timeout: 30000 });
  assert.ok(await pauseCount(ex) > last);

  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await axeViolations(page), [], scheme);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test("from a failed Check's message to the moment it names", async () => {
  const { page, problems } = await openWeek2();
  const ex = await stepThrough(page, "the ring reversed: send to the left neighbour");
  await page.evaluate((id) => window.dsml.exercises.get(id).check(), ID);
  const verdict = await waitVerdict(page, ID, "fail", 60000);
  const [, src, dst] = /for example rank (\d+) sent to rank (\d+)/.exec(verdict);
  const link = ex.getByRole("button", { name: `Step through this failing run to rank ${src}'s send to rank ${dst}` });
  await link.click();
  await page.waitForFunction((id) => /about to send its message/.test(document.querySelector(`#ex-${id} .step-through [role=status]`)?.textContent), ID, { timeout: 90000 });
  assert.match(await ex.locator(".step-through [role=status]").innerText(), new RegExp(`Rank ${src} is about to send its message 1 \\(to rank ${dst}\\)`));
  assert.match(await ex.locator(".cm-step-selected").innerText(), /ctx\.send\(/);
  assert.match(await ex.locator(".step-rank.selected h4").innerText(), new RegExp(`rank ${src}`));
  await ex.getByRole("button", { name: "Next pause" }).click();
  await waitText(page, ".step-where", /\(recorded\)|·/);
  assert.match(await ex.locator(".step-messages li.marked").innerText(), new RegExp(`^rank ${src} → rank ${dst} `));
  assert.deepEqual(problems, []);
  await page.close();
});

test("at 360 px the step-through fits: nothing scrolls sideways", async () => {
  const { page, problems } = await openWeek2();
  await page.setViewportSize({ width: 360, height: 800 });
  const ex = await stepThrough(page, "solution");
  await ex.getByRole("button", { name: "Step", exact: true }).click();
  await ex.locator(".step-rank").first().waitFor();
  await ex.getByRole("button", { name: /Step all/ }).click();
  await page.waitForFunction(() => document.querySelector(".step-where")?.textContent.startsWith("Pause 2"));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  assert.equal(overflow, false);
  assert.deepEqual(problems, []);
  await page.close();
});
