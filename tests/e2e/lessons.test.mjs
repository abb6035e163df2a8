// Every published lesson in real Chromium: it loads cleanly; one exercise of each kind is answered through the page
// (the reference passes, a wrong answer fails) and shows solved (after a reload, on Week 1); Step on its first code
// exercise reaches a first pause in the page's Workers; its controls and links work for a keyboard and a narrow
// screen (page_checks.mjs); axe finds nothing serious in light or dark mode; nothing scrolls sideways at 360 px; and
// nothing of it trips the Content-Security-Policy: the core compiled from wasm, the Workers, the learner's module
// loaded from a Blob URL inside a Worker (the code exercise below), KaTeX's fonts and the inline styles of KaTeX,
// CodeMirror and Chart.js. (That the policy is enforced at all: csp.test.mjs.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { axeViolations, openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";
import { assertCrossReferences, assertSkipLinks, clippedSelects, firstPause } from "./page_checks.mjs";
import { WEEKS } from "../../web/lesson/course.js";
import { COURSE } from "../exercises/course.mjs";

// Pages written and tested before they are published on the index (course.js: available false).
const IN_PREPARATION = [];
const LESSONS = WEEKS.filter((w) => w.available || IN_PREPARATION.includes(w.slug)).map((w) => w.slug);
// Cross-references in exercises' prompts, per page (the others have none); the planner has no sections of exercises.
const REFS_IN_EXERCISES = { week3: 1, week4: 2, week5: 1 };
const WITHOUT_PRACTICE = ["planner"];
// The page whose exercises are checked solved again after a reload: one stands for all, as every page keeps them in
// the same store (web/progress.js; its records, migrations and damaged data: tests/web/progress_*.test.mjs,
// progress_safety.test.mjs).
const RELOADED = "week1";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

for (const slug of LESSONS) {
  // One visit per lesson (opening a page and mounting its widgets is most of a lesson's time): the checks run in
  // order on the same page — load, exercises (and on Week 1 the reload that keeps them solved), then Step, the
  // controls and links, and axe in light and dark, switching the colour scheme in place.
  describe(slug, () => {
    let page, problems, codeId;
    before(async () => { ({ page, problems } = await openLesson(site.context, site.url, slug, { watchCsp: true })); });
    after(async () => { await page?.close(); });

    test("loads with no console error or failed request; math, numbers, charts render", async () => {
      assert.ok(await page.locator(".katex").count() > 10, "KaTeX rendered");
      assert.equal(await page.locator(".katex-error").count(), 0, "no TeX errors");
      assert.ok(await page.locator("canvas").count() >= (slug === "lab" ? 1 : 2), "charts present");   // the lab: its loss chart
      assert.ok(await page.locator("nav.toc a").count() >= 5, "table of contents");
      // (The page recomputes its prose numbers with the core before it sets data-ready, and a failure there is a console
      // error; that the texts written in the HTML are those numbers is checked in Node: prose_numbers.test.mjs.)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
      assert.equal(overflow, false, "no sideways scrolling");
      await page.evaluate(() => document.fonts.ready);
      assert.ok(await page.evaluate(() => document.fonts.check("16px KaTeX_Main")), "KaTeX's font loaded");
      assert.deepEqual(problems, []);
    });

    // One exercise of each kind the page has (its first numeric, first choice and first code exercise), through the
    // page's own controls: what only a browser shows — the controls, the verdict's rendering, the real Workers and
    // the learner's Blob module for code, the solved state (kept across a reload). Every exercise is judged for every
    // draw in Node (tests/exercises/exercise_rules.test.mjs: the reference passes and every listed wrong answer
    // fails, with its message; judging.test.mjs runs each code exercise's reference and wrong programs on the
    // judge cluster); csp.test.mjs runs a learner's module on every page.
    test(`one exercise of each kind through the page: the reference passes, a wrong answer fails${slug === RELOADED ? "; solved survives a reload" : ""}`, async () => {
      const all = await page.evaluate(() => [...window.dsml.exercises].map(([id, c]) => ({ id, kind: c.exercise.kind })));
      assert.ok(all.length >= 4, `at least four exercises, found ${all.length}`);
      const ids = [...new Set(all.map((e) => e.kind))].map((kind) => all.find((e) => e.kind === kind).id);
      codeId = all.find((e) => e.kind === "code")?.id;
      for (const id of ids) {
        // wrong first, then right, so the exercise ends solved
        await page.evaluate((i) => {
          const c = window.dsml.exercises.get(i), ex = c.exercise;
          if (ex.kind === "code") { c.setCode(ex.wrong); return c.check(); }
          if (ex.kind === "choice") { c.choose(ex.options.flatMap((o, k) => (o.correct ? [] : [k])).slice(0, 1)); return c.submit(); }
          c.setAnswer(ex.wrongAnswer(c.params, window.dsml.core)); return c.submit();
        }, id);
        await waitVerdict(page, id, "fail", 60000);
        await page.evaluate((i) => {
          const c = window.dsml.exercises.get(i), ex = c.exercise;
          if (ex.kind === "code") { c.setCode(ex.solution); return c.check(); }
          if (ex.kind === "choice") { c.showSolution(); return c.submit(); }
          c.setAnswer(c.expected()); return c.submit();
        }, id);
        assert.match(await waitVerdict(page, id, "pass", 60000), /Correct/, id);
      }
      assert.deepEqual(problems, []);
      assert.deepEqual(await page.evaluate(() => window.__csp), [], "no Content-Security-Policy violation");
      if (slug === RELOADED) {
        await page.reload();
        await page.waitForSelector("html[data-ready=true]");
        await page.evaluate(() => window.dsml.mountAll());   // the whole page again, as openLesson leaves it, for axe
      }
      assert.equal(await page.locator(".exercise.solved").count(), ids.length);
    });

    // Step instruments the learner's module in the page's Workers (that stepping computes what Run computes, for
    // every program of every exercise, is proved in Node: tests/exercises/step_equivalence.test.mjs).
    const hasCode = COURSE.some(({ week, exercises }) => week.slug === slug && exercises.some((e) => e.kind === "code"));
    if (hasCode) {
      test("Step on the first code exercise's reference reaches a first pause in the page's Workers", async () => {
        assert.equal(await firstPause(page, codeId), null);
        assert.deepEqual(problems, []);
      });
    }

    if (!WITHOUT_PRACTICE.includes(slug)) {
      test("controls and keyboard: no select label is clipped at 1280 or 360 px; cross-references read their section's number; skip links to the exercises and back", async () => {
        for (const width of [1280, 360]) assert.deepEqual(await clippedSelects(page, width), [], `${width} px`);
        await assertCrossReferences(page, REFS_IN_EXERCISES[slug] ?? 0);
        await assertSkipLinks(page);
      });
    }

    for (const scheme of ["light", "dark"]) {
      test(`axe: no serious or critical violation (${scheme})${scheme === "dark" ? "; nothing scrolls sideways at 360 px" : ""}`, async () => {
        await page.emulateMedia({ colorScheme: scheme });
        assert.deepEqual(await axeViolations(page), []);
        if (scheme !== "dark") return;
        await page.setViewportSize({ width: 360, height: 800 });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `scrolls sideways by ${overflow} px at 360 px`);
      });
    }
  });
}
