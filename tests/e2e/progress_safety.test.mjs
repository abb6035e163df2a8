// No lost code or progress, in real Chromium: "Show solution" leaves the learner's code in the editor (and
// trying the solution sets their code aside, restorable after a reload); keystrokes typed just before a reload
// or a click on "Next" are saved; one unreadable saved record drops only itself, is named in the notice, and
// the backup written for it is listed on the course index, where it can be restored. (A corrupted seed — replaced once,
// saved, backed up and reported, the numbers then the same on every load — is Node's: tests/web/progress_records.test.mjs,
// "a stored seed of … is replaced once, saved, backed up and reported"; the page's notice for a bad record is below.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite, watch } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const ID = "w1-token-ring";
const EX = `#ex-${ID}`;
const editorText = (page) => page.evaluate((id) => window.dsml.exercises.get(id).code, ID);
const savedRecord = (page, id = ID) => page.evaluate((i) => JSON.parse(localStorage.getItem("dsml.progress")).exercises[i], id);

// Runs `action` and waits until no request it started (the page's or a Worker's) has been open for `quietMs`.
async function thenQuiet(page, action, quietMs = 300, timeoutMs = 30000) {
  const open = new Set();
  const add = (r) => open.add(r), done = (r) => open.delete(r);
  page.on("request", add); page.on("requestfinished", done); page.on("requestfailed", done);
  try {
    await action();
    const end = Date.now() + timeoutMs;
    let quietSince = Date.now();
    while (Date.now() < end) {
      await page.waitForTimeout(50);
      if (open.size) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
    }
  } finally {
    page.off("request", add); page.off("requestfinished", done); page.off("requestfailed", done);
  }
}

// Waits until nothing is loading: the page imports its widgets' modules once idle, editors near the viewport load
// CodeMirror and widgets near it start Workers that fetch their modules; a reload or a navigation in the middle would
// abort those requests (the watcher counts a failure). (Not mountAll(): building every widget runs every simulation
// of the page.)
const settle = (page) => thenQuiet(page, () => page.evaluate(() => window.dsml.widgetModules));

async function reload(page) {
  await settle(page);
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
}

// Types at the end of the exercise's editor, as a learner would.
async function typeAtEnd(page, text) {
  await page.locator(EX).scrollIntoViewIfNeeded();   // (its editor is built when it comes near the viewport)
  await page.locator(`${EX} .cm-content`).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

// One visit to Week 1 (its widgets left to build on demand: none is needed here), in order: Show solution, trying the
// solution and restoring the learner's code across reloads; keystrokes just before a reload; keystrokes just before Next.
describe("no lost code", () => {
  test("Show solution keeps the learner's code; trying the solution sets it aside, restorable after a reload; edits typed just before a reload or a click on Next are saved", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "week1", { onDemand: true });
    await page.locator(EX).scrollIntoViewIfNeeded();
    const mine = "async function main(ctx) {\n  // my attempt\n}\n";
    await page.evaluate(([id, c]) => window.dsml.exercises.get(id).setCode(c), [ID, mine]);
    await page.click(`${EX} button:has-text("Show solution")`);   // the confirm is accepted by openLesson
    const solution = await page.evaluate((id) => window.dsml.exercises.get(id).exercise.solution, ID);
    assert.equal(await page.locator(`${EX} .solution-view pre`).textContent(), solution);
    assert.equal(await editorText(page), mine, "the editor still holds the learner's code");
    await page.waitForFunction(([id, c]) => JSON.parse(localStorage.getItem("dsml.progress")).exercises[id]?.code === c, [ID, mine]);

    await page.click(`${EX} button:has-text("Try the solution in the editor")`);
    assert.equal(await editorText(page), solution);
    assert.equal((await savedRecord(page)).ownCode, mine);
    await reload(page);
    assert.equal(await editorText(page), solution, "the solution tried in the editor was saved");
    const bar = page.locator(`${EX} .own-code`);
    assert.ok(await bar.isVisible(), "after a reload the bar still offers the learner's own code");
    await bar.locator("button").click();
    assert.equal(await editorText(page), mine);
    assert.equal(await bar.isVisible(), false);
    await typeAtEnd(page, "// typed right before reload");
    await reload(page);   // at once: well inside the 300 ms debounce
    assert.equal(await editorText(page), `${mine}// typed right before reload`, "the restored code and the keystrokes were saved");
    assert.equal((await savedRecord(page)).ownCode, null);
    assert.deepEqual(problems, []);

    await typeAtEnd(page, "// typed right before Next");
    await Promise.all([page.waitForURL(/week2\//), page.click("nav.prev-next a.next")]);
    assert.match((await savedRecord(page)).code, /\/\/ typed right before reload\/\/ typed right before Next$/);
    await page.close();
  });
});

describe("unreadable saved records", () => {
  const good = { code: "// kept", starterHash: null, solved: true, solvedAt: "2026-11-01T10:00:00.000Z", attempts: 1,
    answer: null, hintsShown: 0 };
  const store = { schema: 2, seed: 777, exercises: { "w1-crossover": { ...good, code: null, answer: "100 kB" },
    [ID]: good, "w1-ping-pong": { ...good, solved: "yes" }, "w1-amdahl": { ...good, code: 123 } } };

  test("a lesson keeps every good record and names the bad ones; the course index restores the backup", async () => {
    const page = await site.context.newPage();
    const problems = watch(page);
    page.on("dialog", (dialog) => dialog.accept());
    await page.goto(`${site.url}index.html`, { waitUntil: "networkidle" });
    await page.evaluate((s) => { localStorage.clear(); localStorage.setItem("dsml.progress", JSON.stringify(s)); }, store);
    await page.goto(`${site.url}week1/`);
    await page.waitForSelector("html[data-ready=true]");
    const notice = await page.locator("main > .notice.warn").innerText();
    assert.match(notice, /Part of the saved progress of 2 exercises could not be read/);
    assert.match(notice, /“w1-ping-pong” \(solved must be true or false; its solved was reset\)/);
    assert.match(notice, /“w1-amdahl” \(code must be text or null; its code was reset\)/);
    assert.match(notice, /Everything else is kept, code included/);
    assert.doesNotMatch(notice, /w1-crossover|w1-token-ring/);
    assert.equal(await editorText(page), "// kept");
    assert.ok(await page.locator(`${EX}.solved`).count() === 1, "a good record keeps its solved state");
    const backupKey = /dsml\.progress\.backup-\S+?(?=;|\s|$)/.exec(notice)[0];
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), backupKey), JSON.stringify(store));

    // The course index lists the backup; restoring it brings back what can be read, after backing up the present.
    await page.evaluate((id) => window.dsml.progress.reset(id), ID);
    await settle(page);   // leaving while a chart's modules load aborts them (failed CI at ea5f3cd)
    await page.goto(`${site.url}index.html`);
    const items = page.locator("#backup-list li");
    assert.equal(await items.count(), 1);
    assert.match(await items.first().innerText(), /4 exercise records, 3 solved; 2 unreadable fields left out/);
    await items.first().locator("button:has-text('Restore')").click();
    await page.waitForSelector("#progress-message.success");
    const restored = JSON.parse(await page.evaluate(() => localStorage.getItem("dsml.progress")));
    assert.deepEqual(Object.keys(restored.exercises).sort(), ["w1-crossover", ID, "w1-ping-pong", "w1-amdahl"].sort());
    assert.equal(restored.exercises["w1-ping-pong"].code, "// kept", "the record with a bad field keeps its code");
    assert.equal(restored.seed, 777);
    assert.equal(await items.count(), 2, "the progress the restore replaced is the newest backup");
    await items.first().locator("button:has-text('Delete')").click();
    assert.equal(await items.count(), 1);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
