// Offline, in real Chromium: after one visit to the course, served under a base path as GitHub Pages serves a
// project site, every file of the site is cached; pages load with every widget's module and one runs a code exercise
// on its Workers, with the server stopped and the browser offline; the old URLs and a lesson's URL without its slash
// still lead to their pages; and a new deploy (any file changed) installs a new service worker that replaces the old
// cache when the learner accepts the update.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assembleSite, stampServiceWorker } from "../../scripts/assemble_site.mjs";
import { openSite, watch } from "./harness.mjs";

const BASE = "course/";   // the site is served under /course/, not at the root
// Every file of the site is in the cache after one visit (checked below), so every page's modules are there: two
// pages stand for all when opened offline — Week 2, whose code exercise runs on the Workers, and Week 6, the page
// with the most widget modules.
const OPENED = ["week2/", "week6/"];
const RUN_ON = "week2/";

let dir;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "dsml-offline-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

// Polls `fn(arg)` in the page until it returns something truthy (page.waitForFunction does not await promises).
async function poll(page, fn, arg, timeoutMs = 60000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn.toString().slice(0, 80)}…`);
    await page.waitForTimeout(250);
  }
}

// Opens `path` and waits until the service worker controls the page and has cached every file of its version.
async function visitUntilCached(context, url, path) {
  const page = await context.newPage();
  await page.goto(url + path);
  const state = await poll(page, async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    if (!registration?.active || !navigator.serviceWorker.controller) return false;
    const names = (await caches.keys()).filter((n) => n.startsWith(`dsml ${registration.scope} `));
    const cached = names.length === 1 ? (await (await caches.open(names[0])).keys()).length : 0;
    return cached > 0 && { scope: registration.scope, names, cached };
  });
  return { page, state };
}

// Nothing can come from the network any more: the server is gone and the browser is offline.
async function goOffline(site) {
  site.server.close();
  site.server.closeAllConnections();
  await site.context.setOffline(true);
}

describe("offline", () => {
  test("after one visit every file is cached; pages load, and one runs a code exercise, with no network, under a base path; old URLs and a lesson's URL without its slash lead to it", async () => {
    const root = join(dir, "a");
    const { version, files } = await assembleSite(join(root, BASE), { requireWasm: true });
    const site = await openSite({ dir: root });
    try {
      const { page, state } = await visitUntilCached(site.context, site.root, BASE);
      assert.equal(state.scope, `${site.root}${BASE}`, "the worker's scope is the site's folder");
      assert.match(state.names[0], new RegExp(`${version}$`));
      assert.equal(state.cached, files.length, "every file of the site is cached");
      await page.close();
      // …/lessons/week6 (no slash) must load offline too. Online the server redirects a folder's URL to its
      // slash form as GitHub Pages does (below, offline, the service worker does), so relative imports resolve.
      const plain = await fetch(`${site.root}${BASE}lessons/week6?x=1`, { redirect: "manual" });
      assert.equal(plain.status, 301, "the server redirects a folder without its slash");
      assert.equal(plain.headers.get("location"), `/${BASE}lessons/week6/?x=1`);
      await goOffline(site);

      const index = await site.context.newPage();
      const problems = watch(index);
      // (the index imports every week's exercises to count them: let those finish before reloading, or the
      // reload aborts them and the watcher reports the aborted requests)
      await index.goto(`${site.root}${BASE}lessons/`, { waitUntil: "networkidle" });
      await index.waitForSelector("#weeks a");
      await index.reload({ waitUntil: "networkidle" });
      await index.waitForSelector("#weeks a");
      assert.deepEqual(problems, []);
      await index.close();

      for (const slug of OPENED) {
        const lesson = await site.context.newPage();
        const seen = watch(lesson);
        lesson.on("dialog", (d) => d.accept());
        await lesson.goto(`${site.root}${BASE}lessons/${slug}`);
        await lesson.waitForSelector("html[data-ready=true]", { timeout: 60000 });
        await lesson.evaluate(() => window.dsml.widgetModules);   // every widget's module, from the cache
        assert.ok(await lesson.locator(".katex").count() > 10, `${slug}: math`);
        // One page runs a code exercise's reference solution on the Workers: the core, the Worker script and the
        // learner's module load from the cache. (Run, not Check: a Check's many runs test the checker, which the Node
        // tests do; every page's Workers start the same web/worker/ scripts and core from the same cache.)
        if (slug === RUN_ON) {
          const id = await lesson.evaluate(() => [...window.dsml.exercises.values()].find((c) => c.exercise.kind === "code").exercise.id);
          await lesson.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setCode(c.exercise.solution); return c.run(); }, id);
          await lesson.waitForFunction((i) => /Finished \(ok\)/.test(document.querySelector(`#ex-${i} .run-status`)?.textContent),
            id, { timeout: 120000 });
        }
        assert.deepEqual(seen, [], slug);
        await lesson.close();
      }

      // The URLs of the layout before lessons/ was a folder of the site, and the site's root, still lead to their
      // pages (offline too: the redirects are files of the site), keeping the fragment; and a lesson's URL without
      // its trailing slash leads to the lesson, its relative imports resolved (the service worker redirects it).
      const old = await site.context.newPage();
      for (const [from, to] of [["week3/#ddp", "lessons/week3/#ddp"], ["lab/", "lessons/lab/"], ["", "lessons/"],
                                ["cluster/index.html", "lessons/cluster/"]]) {
        await old.goto(`${site.root}${BASE}${from}`);
        await old.waitForURL(`${site.root}${BASE}${to}`, { timeout: 30000 });
      }
      await old.close();
      for (const slug of ["week4"]) {
        const lesson = await site.context.newPage();
        const seen = watch(lesson);
        await lesson.goto(`${site.root}${BASE}lessons/${slug}#exercises`);
        await lesson.waitForURL(`${site.root}${BASE}lessons/${slug}/#exercises`, { timeout: 30000 });
        await lesson.waitForSelector("html[data-ready=true]", { timeout: 60000 });
        await lesson.evaluate(() => window.dsml.widgetModules);
        assert.deepEqual(seen, [], `${slug} without its slash`);
        await lesson.close();
      }
    } finally {
      await site.close();
    }
  });

  test("a new deploy replaces the old version and its cache once the learner accepts it", async () => {
    const root = join(dir, "b");
    const site = join(root, BASE);
    await assembleSite(site, { requireWasm: true });
    const browser = await openSite({ dir: root });
    try {
      const { page, state: first } = await visitUntilCached(browser.context, browser.root, BASE);
      appendFileSync(join(site, "lessons", "week1", "index.html"), "\n<!-- deploy 2 -->\n");
      const { version } = stampServiceWorker(site);
      assert.ok(!first.names[0].endsWith(version), "the changed file gave a new version");

      await page.reload();
      const notice = page.locator(".notice.update-ready");
      await notice.waitFor({ timeout: 60000 });
      assert.match(await notice.innerText(), /new version of the course/);
      await Promise.all([page.waitForEvent("load"), notice.locator("button").click()]);
      const names = await poll(page, async (v) => {
        const keys = await caches.keys();
        return keys.length === 1 && keys[0].endsWith(v) && navigator.serviceWorker.controller ? keys : false;
      }, version);
      assert.equal(names.length, 1, "the old cache is gone");

      await goOffline(browser);
      const text = await page.evaluate(async () => (await fetch("week1/index.html")).text());
      assert.match(text, /<!-- deploy 2 -->/, "offline, the new version's files are served");
      await page.close();
    } finally {
      await browser.close();
    }
  });
});
