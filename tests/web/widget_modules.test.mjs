// A lesson's widgets by one convention (web/lesson/widget_modules.js): figure[data-widget="pipeline-timeline"] is built
// by widgets/pipeline_timeline.js's mountPipelineTimeline(figure, core, clusters); a page module names only the others.
//   node --test tests/web/widget_modules.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { widgetConvention, widgetsOf } from "../../web/lesson/widget_modules.js";

const ROOT = new URL("../../", import.meta.url);
const page = (names) => ({ querySelectorAll: () => names.map((widget) => ({ dataset: { widget } })) });

test("the convention: the name's words joined by _ name the module, and mount + their capitals the export", () => {
  assert.deepEqual(widgetConvention("pipeline-timeline"), { module: "pipeline_timeline", mount: "mountPipelineTimeline" });
  assert.deepEqual(widgetConvention("fleet"), { module: "fleet", mount: "mountFleet" });
  assert.throws(() => widgetConvention("Pipeline_Timeline"), /lower-case words joined by "-"/);
});

test("widgetsOf imports each widget's module when asked and mounts it with the figure, the core and the clusters", async () => {
  const dir = mkdtempSync(join(tmpdir(), "widgets-"));
  try {
    writeFileSync(join(dir, "tp_split.js"), "export function mountTpSplit(f, core, clusters) { f.got = ['tp', core, clusters]; }\n");
    writeFileSync(join(dir, "cost_table.js"), "export function mountCostCounter(f, core) { f.got = ['counter', core]; }\n"
      + "export function mountTotals(f) { f.got = ['totals']; }\n");
    const own = { load: async () => ({}), mount: () => {} };
    const widgets = widgetsOf(pathToFileURL(`${dir}/`), page(["tp-split", "cost-counter", "totals", "own"]),
      { "cost-counter": "cost_table", "totals": "cost_table#mountTotals", "own": own });
    assert.deepEqual(Object.keys(widgets), ["tp-split", "cost-counter", "totals", "own"]);
    assert.equal(widgets.own, own);
    for (const [name, want] of [["tp-split", ["tp", "core", "clusters"]], ["cost-counter", ["counter", "core"]], ["totals", ["totals"]]]) {
      const figure = {};
      widgets[name].mount(await widgets[name].load(), { figure, core: "core", clusters: "clusters" });
      assert.deepEqual(figure.got, want, name);
    }
    const missing = widgetsOf(pathToFileURL(`${dir}/`), page(["tp-split"]), { "tp-split": "cost_table" })["tp-split"];
    assert.throws(() => missing.mount({}, { figure: {} }), /widget "tp-split": cost_table\.js exports no mountTpSplit/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an exception for a widget the page does not have is refused", () => {
  assert.throws(() => widgetsOf(new URL("file:///w/"), page(["fleet"]), { "flet": "fleet" }), /the page has no widget "flet"/);
});

// Every widget of a page whose module does not name it follows the convention: its module exists and exports its mount.
for (const week of ["week1", "week2", "week3", "week4", "week5", "week6"]) {
  test(`${week}: every widget its page module does not name has widgets/<name>.js exporting mount<Name>`, () => {
    const html = readFileSync(new URL(`lessons/${week}/index.html`, ROOT), "utf8").replace(/<!--[\s\S]*?-->/g, "");
    const moduleText = readFileSync(new URL(`lessons/${week}/${week}.js`, ROOT), "utf8");
    if (!moduleText.includes("widgetsOf(")) return;   // a page module that lists every widget itself
    const names = [...new Set([...html.matchAll(/<figure[^>]*data-widget="([^"]+)"/g)].map((m) => m[1]))];
    assert.ok(names.length >= 5, `${names.length} widgets`);
    for (const name of names.filter((n) => !moduleText.includes(`"${n}":`))) {
      const { module, mount } = widgetConvention(name);
      const file = new URL(`lessons/${week}/widgets/${module}.js`, ROOT);
      assert.ok(existsSync(file), `${name}: no widgets/${module}.js`);
      assert.match(readFileSync(file, "utf8"), new RegExp(`export (async )?function ${mount}\\(`), `${name}: ${module}.js exports no ${mount}`);
    }
  });
}
