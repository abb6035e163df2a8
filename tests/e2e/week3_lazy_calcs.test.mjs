// week3_lazy_calcs.test.mjs — Week 3's §6 numbers come from 16 training runs: the page is ready without them, and
// they are computed (in a Worker, by the core) when the section nears the screen (web/lesson/calc.js
// fillLazyCalcs, lessons/week3/week3.js). The numbers are the ones the HTML holds.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITE, openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

test("week 3 is ready before §6's training runs; they run when §6 nears the screen and match the HTML", async () => {
  const { page, problems } = await openLesson(site.context, site.url, "week3", { onDemand: true });
  const section = page.locator("section#large-batch");
  assert.equal(await section.getAttribute("data-calc-lazy"), "", "not computed while the reader is at the top");
  const html = readFileSync(join(SITE, "lessons", "week3", "index.html"), "utf8").replace(/<!--[\s\S]*?-->/g, "");
  const part = html.slice(html.indexOf('<section id="large-batch"'), html.indexOf("</section>", html.indexOf('<section id="large-batch"')));
  const written = Object.fromEntries([...part.matchAll(/<span data-calc="([^"]+)">([^<]*)</g)].map((m) => [m[1], m[2]]));
  assert.ok(Object.keys(written).length >= 20, "§6 states its numbers");
  // Rewrite them, so that only the core's computing can put them back.
  await page.evaluate(() => document.querySelectorAll("#large-batch [data-calc]").forEach((el) => { el.textContent = "?"; }));
  await section.scrollIntoViewIfNeeded();
  await page.waitForSelector("section#large-batch[data-calc-lazy=done]", { timeout: 60000 });
  const computed = await page.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll("#large-batch [data-calc]")].map((el) => [el.dataset.calc, el.textContent])));
  assert.deepEqual(computed, written);
  assert.deepEqual(problems, []);
});
