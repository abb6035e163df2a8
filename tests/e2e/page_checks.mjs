// page_checks.mjs — what every lesson page must do for a reader with a keyboard or a narrow screen, and for a learner
// stepping through code, checked on an open page (lessons.test.mjs runs each on its one visit per lesson).
import assert from "node:assert/strict";

// Select labels wider than their box at `width` px (each "label: text px in room px"); the viewport is put back after.
export async function clippedSelects(page, width) {
  await page.setViewportSize({ width, height: 900 });
  const clipped = await page.evaluate(() => {
    const ctx = document.createElement("canvas").getContext("2d");
    return [...document.querySelectorAll(".widget-controls select")].flatMap((sel) => {
      const st = getComputedStyle(sel);
      ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
      const widest = Math.max(...[...sel.options].map((o) => ctx.measureText(o.text).width));
      const room = sel.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 16;   // the arrow
      return widest > room ? [`${sel.labels[0]?.textContent}: ${Math.round(widest)} px in ${Math.round(room)} px`] : [];
    });
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  return clipped;
}

// Every cross-reference ("section 4") reads its section's number in the contents; `inExercises` of them are in
// exercises' prompts.
export async function assertCrossReferences(page, inExercises) {
  const refs = await page.evaluate(() => {
    const contents = [...document.querySelectorAll("nav.toc li a")].map((a) => a.getAttribute("href"));
    return [...document.querySelectorAll("a[data-ref]")].map((a) => ({
      href: a.getAttribute("href"), text: a.textContent, inExercise: Boolean(a.closest(".exercise")),
      expected: `${a.dataset.ref || "section"}\u00a0${contents.indexOf(a.getAttribute("href")) + 1}` }));
  });
  for (const ref of refs) assert.equal(ref.text, ref.expected, ref.href);
  assert.equal(refs.filter((r) => r.inExercise).length, inExercises, "references in exercises' prompts");
}

// Every section with exercises has a skip link to them that shows when focused, each exercise links back, and Enter
// on the first skip link lands on its exercise.
export async function assertSkipLinks(page) {
  const sections = await page.locator("section[data-practise]").evaluateAll((all) => all.map((s) => s.id));
  assert.ok(sections.length >= 4, `${sections.length} sections link to exercises`);
  for (const id of sections) {
    const skip = page.locator(`#${id} > a.section-skip`);
    const href = await skip.getAttribute("href");
    assert.match(href, /^#ex-/);
    assert.equal(await page.locator(`${href} .exercise-section a[href="#${id}"]`).count(), 1, `${href} links back to #${id}`);
    await skip.focus();
    const box = await skip.boundingBox();
    assert.ok(box && box.x >= 0 && box.width > 50, `the skip link of #${id} shows when focused`);
  }
  const skip = page.locator(`#${sections[0]} > a.section-skip`);
  const target = await skip.getAttribute("href");
  await skip.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.hash === target, { timeout: 5000 });   // the jump is applied after the key press
}

// Step on code exercise `id` holding its reference solution reaches a first frame in the page's Workers — every rank
// paused at its first statement, blocked or done — and a rank can be stepped, unless the code has nowhere to pause.
// Returns what went wrong, or null. The panel is closed after.
export async function firstPause(page, id) {
  const ex = page.locator(`#ex-${id}`);
  await ex.scrollIntoViewIfNeeded();
  await page.waitForFunction((i) => window.dsml.exercises.get(i).code !== undefined, id);
  await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setCode(c.exercise.solution); }, id);
  await ex.getByRole("button", { name: "Step", exact: true }).click();
  const reached = await page.waitForFunction((i) => /^Pause \d+ of/.test(document.querySelector(`#ex-${i} .step-where`)?.textContent ?? ""),
    id, { timeout: 30000 }).then(() => true, () => false);
  const status = await ex.locator(".step-through [role=status]").innerText();
  let stuck = null;
  if (!reached) stuck = `${id}: ${status}`;
  else if (!/nowhere to pause/.test(status)) {
    const movable = await page.waitForFunction((i) => [...document.querySelectorAll(`#ex-${i} .step-controls button`)]
      .some((b) => b.textContent.startsWith("Step all") && !b.disabled), id, { timeout: 15000 }).then(() => true, () => false);
    if (!movable) stuck = `${id}: a first frame, but no rank to step (${status})`;
  }
  await ex.getByRole("button", { name: "Close" }).click();
  return stuck;
}
