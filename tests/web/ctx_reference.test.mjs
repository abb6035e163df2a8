// ctx_reference.test.mjs — a code exercise is doable from its own page. One short reference of `ctx`
// (web/cluster/CTX.md, rendered as the guide lessons/ctx/) gives every call's signature, the delivery orders,
// synchronous sends and why sending first deadlocks, and what a Check runs; every page with a code exercise links it
// from its exercises section (the layout writes that paragraph: scripts/page_layout.mjs); it names every ctx member web/README.md's "The Worker cluster" documents.
//   node --test tests/web/ctx_reference.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GUIDES, renderGuide } from "../../scripts/render_guide.mjs";
import { layoutPage } from "../../scripts/page_layout.mjs";
import { COURSE } from "../exercises/course.mjs";   // every page with an exercises.js, from web/lesson/course.js

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

test("the ctx reference is a guide with signatures, delivery orders, synchronous sends and what a Check runs", () => {
  const guide = GUIDES.find((g) => g.slug === "ctx");
  assert.ok(guide, "a guide with slug ctx");
  const html = renderGuide(guide);
  for (const sig of ["ctx.send(to, data, { tag, move })", "ctx.recv(from, { tag })", "ctx.recvAny({ tag })", "ctx.barrier()"]) {
    assert.ok(html.includes(`<code>${sig}</code>`), sig);
  }
  for (const id of ["in-which-order-messages-arrive", "synchronous-sends-and-why-sending-first-can-deadlock", "what-a-check-runs"]) {
    assert.match(html, new RegExp(`<section id="${id}">`), id);
  }
  assert.match(html, /per-pair FIFO/);
  assert.match(html, /MPI_Ssend/);
});

test("the reference names every ctx member web/README.md documents", () => {
  const readme = read("web/README.md");
  const list = readme.slice(readme.indexOf("## The Worker cluster"), readme.indexOf("Runs go through the page's pool"));
  const members = [...list.matchAll(/`(\w+)[(`]/g)].map((m) => m[1]).filter((m) => !["main", "ctx"].includes(m));
  assert.ok(members.length >= 10, members.join());
  const md = read("web/cluster/CTX.md");
  for (const m of members) assert.ok(md.includes(`ctx.${m}`), `ctx.${m} is not in CTX.md`);
});

for (const { week, exercises } of COURSE) {
  test(`${week.slug}: a page with code exercises links the ctx reference from its exercises section`, () => {
    if (!exercises.some((e) => e.kind === "code")) return;
    const html = layoutPage(read(`lessons/${week.slug}/index.html`), { page: `${week.slug}/index.html` });   // as served
    const section = html.slice(html.indexOf('<section id="exercises">'));
    assert.match(section.slice(0, section.indexOf("</section>")), /<a href="\.\.\/ctx\/index\.html">/);
  });
}

test("w3-lars-trust shows ctx.send and ctx.recv and says what a synchronous send does", async () => {
  const { larsTrust } = await import("../../lessons/week3/exercises/lars_trust.js");
  assert.match(larsTrust.prompt, /ctx\.send\(to, data\)/);
  assert.match(larsTrust.prompt, /ctx\.recv\(from\)/);
  assert.match(larsTrust.prompt, /resolves only when its receiver has taken the message/);
  assert.match(larsTrust.prompt, /the <code>ctx<\/code> reference linked above these exercises/);
});
