// The lab's expert-parallel axis in real Chromium: with experts and ep set, Train runs MoE blocks across the
// Workers (all-to-all dispatch and combine) and the report shows equality with one device (core.trainSingleMoe),
// the all-to-all row of the bytes table and the tokens each expert wanted and kept — the same as one device's.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { LAB_TRAIN, openLesson, setLabControls } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FIG = LAB_TRAIN;
const configure = setLabControls;

describe("lab expert-parallel axis", () => {
  test("dp 2 × ep 2 × pp 2 with 4 experts and dropped tokens trains to the single-device MoE model", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { "Experts E": "4", ep: "2", dp: "2", tp: "1", "Sharding over dp": "on" });
    assert.match(await page.locator(`${FIG} .widget-readout`).first().innerText(), /FSDP with MoE blocks is not in the lab/);
    assert.ok(await page.locator(FIG).getByRole("button", { name: "Train" }).isDisabled());
    await configure(page, { "Sharding over dp": "off", "Blocks L": "4", "Width D": "16", "Hidden F": "64", "Batch B": "16",
      pp: "2", "Micro-batches m": "2", "Capacity factor": "0.5", "Top-k": "2", Steps: "20" });
    assert.match(await page.locator(`${FIG} .widget-readout`).first().innerText(), /with 2 MoE blocks of 4 experts/);
    await page.locator(FIG).getByRole("button", { name: "Train" }).click();
    assert.ok(await page.locator(FIG).getByLabel("ep", { exact: true }).isDisabled(), "ep is locked while training");
    await page.waitForFunction((sel) => /steps\/s|could not|threw|Deadlock|watchdog/.test(
      document.querySelector(`${sel} .widget-readout`)?.textContent ?? ""), FIG, { timeout: 120000 });
    const text = await page.locator(`${FIG} .widget-readout`).first().innerText();
    assert.match(text, /20 steps on 4 Workers .* differ from single-device training by \d\.\de-1[3-7] \(relative\)/);
    assert.match(text, /the same training/);
    const kinds = await page.locator(`${FIG} .train-bytes tbody td:first-child`).allInnerTexts();
    assert.ok(kinds.includes("all-to-all over ep"), kinds.join(" | "));
    assert.ok(kinds.includes("send over pp"), kinds.join(" | "));
    // The timeline draws the dispatch and combine as their own kind, named in its legend.
    const timeline = page.locator(`${FIG} .train-timeline svg`);
    const legend = await timeline.locator("text.ph-legend").allTextContents();
    assert.ok(legend.includes("all-to-all"), legend.join(" | "));
    assert.ok(await timeline.locator("rect.ph-span.ph-all-to-all").count() > 0, "all-to-all spans drawn");
    // 4 Workers: where they outnumber the cores, the note says most of a collective's box is waiting for a core.
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const note = await page.locator(`${FIG} .train-timeline`).innerText();
    assert.equal(/here 4 Workers share \d+ cores?, so much of it is a member waiting for a core, not data moving/.test(note), cores < 4, note);
    // Load per expert: 2 MoE blocks × 4 experts, wanted = kept + dropped, the same tokens as one device.
    assert.equal(await page.locator(`${FIG} .load-table tbody tr`).count(), 8);
    const experts = await page.locator(`${FIG} .train-experts`).innerText();
    assert.match(experts, /[1-9]\d* of 64 assignments dropped/);
    assert.match(experts, /routed exactly the same tokens/);
    assert.ok(await page.locator(FIG).getByLabel("ep", { exact: true }).isEnabled(), "unlocked after the run");
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("Step through one step runs the MoE blocks' all-to-alls statement by statement to the end", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    await configure(page, { "Experts E": "4", ep: "2", dp: "2", tp: "1", pp: "1", "Blocks L": "2", "Micro-batches m": "1" });
    assert.match(await page.locator(`${FIG} .moves-summary`).last().innerText(),
      /MoE blocks: ep groups \{d0…d1\} of each dp group; ep rank 0 holds e0–e1, ep rank 1 holds e2–e3/);
    await page.locator(FIG).getByRole("button", { name: "Step through one step" }).click();
    const box = page.locator(`${FIG} .train-step`);
    await page.waitForFunction((sel) => /Paused/.test(document.querySelector(`${sel} .train-step .run-status`)?.textContent ?? ""),
      FIG, { timeout: 60000 });
    await box.getByRole("button", { name: /Continue/ }).click();
    await page.waitForFunction((sel) => /The run ended: every rank returned/.test(document.querySelector(`${sel} .train-step .run-status`)?.textContent ?? ""),
      FIG, { timeout: 120000 });
    assert.deepEqual(problems, []);
    await page.close();
  });
});
