// lesson_errata.test.mjs — statements of Weeks 3–6 and the lab held to the papers they cite and to the course's own
// code: a form presented as what it is, one name per quantity, the paper's own numbers. Each test pins one statement.
//   node --test tests/web/lesson_errata.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { sspStall } from "../../lessons/week4/exercises/ps_numeric.js";

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
// What a learner reads on a page: the HTML without comments, scripts and tags, whitespace collapsed.
const prose = (week) => read(`lessons/${week}/index.html`).replace(/<!--[\s\S]*?-->/g, "")
  .replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&").replace(/\s+/g, " ");
// The sentence(s) around the first match of `anchor` (± `span` characters).
const around = (text, anchor, span = 400) => {
  const i = text.search(anchor);
  assert.ok(i >= 0, `no ${anchor} on the page`);
  return text.slice(Math.max(0, i - span), i + span);
};

test("Zhang et al.'s rate is η/τ (η at τ = 0); the course's η/(τ + 1) is said to be its shifted form", () => {
  const page = prose("week4");
  const section = around(page, /Zhang et al\. \(2016\) divide/);
  assert.match(section, /\\eta_t = \\eta\/\\tau_t/, "the paper's form η/τ");
  assert.match(section, /shifted by one/, "the course's η/(τ + 1) named as the shift it is");
  assert.match(around(page, /Staleness-aware async-SGD/, 200), /η\/τ \(η for a fresh gradient\); this course uses it shifted by one/);
});

test("SSP's closed form states its convention (the wait after the last clock counts) and the other reading", () => {
  const section = around(prose("week4"), /One convention is in that formula/, 900);
  assert.match(section, /server answers its last push/);
  assert.match(section, /\(I - s - 1\)\\,t_\{\\max\} \+ t_w/, "the other reading, by the page's own gate rule");
  // w4-ssp-stall's two readings differ by more than its 1% tolerance (40.0% and 37.5% at [1,1,1,1,3,5], I 20, s 8).
  const prompt = sspStall.prompt({ speeds: [1, 1, 1, 1, 3, 5], iterations: 20, bound: 8 });
  assert.match(prompt, /finished when the server answers its\s+last push/);
  assert.match(prompt, /wait after the last clock counts/);
});

test("Goyal et al.'s batch and 5-epoch ramp, LAMB's 64k/32k and decay term, 25 MiB, no week 'in preparation'", () => {
  const page = prose("week3");
  const goyal = around(page, /Goyal et al\.'s batch/, 600);
  assert.match(goyal, /8192/);
  assert.match(goyal, /5 epochs/);
  assert.match(goyal, /first step is \\eta\/t_\\text\{w\}/, "the course's ramp said to differ from the paper's");
  const lamb = around(page, /LAMB \(You et al\. 2019\) puts/, 700);
  assert.match(lamb, /\\lambda\\,w_l/, "LAMB's direction with its weight-decay term");
  assert.match(lamb, /64k .* 32k/);
  for (const [file, text] of [["week3/index.html", page], ["week3/exercises/bucket_size.js", read("lessons/week3/exercises/bucket_size.js")]]) {
    assert.doesNotMatch(text, /25 MB\b/, `${file}: PyTorch's bucket_cap_mb = 25 is 25 MiB`);
  }
  for (const week of ["week1", "week2", "week3", "week4", "week5", "week6", "lab"]) {
    assert.doesNotMatch(prose(week), /in preparation/, `${week}: every week is published`);
  }
});

test("Week 5 attributes t, then d, then p to Megatron-LM as the lab numbers ranks, and names its pricer's order", () => {
  const page = prose("week5"), lab = prose("lab");
  assert.doesNotMatch(page, /nests them: t innermost in a node, then p , then d/);
  const design = around(page, /Megatron-LM numbers the ranks/, 500);
  assert.match(design, /t fastest, then d , then p/);
  assert.match(design, /r = \(i_p\\cdot d \+ i_d\)\\cdot t \+ i_t/, "the lab's numbering, in this page's letters");
  assert.match(lab, /r = \(p\\cdot d_p \+ d\)\\cdot t_p \+ t/);
});

test("MoE bytes sent exclude the own share; t_b is defined once per meaning; Qi et al. is the 2024 paper", async () => {
  const page = prose("week5");
  const moe = around(page, /each rank's send buffer holds/, 500);
  assert.match(moe, /\(R-1\)\\,\(E\/R\)/);
  assert.doesNotMatch(page, /each rank sends E \\cdot C \\cdot D \\cdot 2/);
  assert.match(around(page, /a flushed pipeline/, 300), /t_\{bw\} = t_b \+ t_w/);
  assert.doesNotMatch(page, /\(m \+ P - 1\)\(t_f \+ t_b\)/, "§2's whole backward is t_bw, not §4's input-gradient t_b");
  assert.doesNotMatch(page, /Qi et al\. \(2023/);
});

test("Week 6 names its two 8-bit codes apart, says whose SignSGD and Daly term it is, one symbol per meaning, Llama 3's own numbers", async () => {
  const page = prose("week6");
  assert.match(page, /8-bit, symmetric/);
  const { quantizeInt8 } = await import("../../lessons/week6/exercises/quantize_int8.js");
  assert.match(quantizeInt8.title, /min–max/);
  assert.match(quantizeInt8.prompt, /not the page's symmetric 8-bit compressor/);
  const choices = around(page, /Three of these are the course's choices/, 900);
  assert.match(choices, /Bernstein et al\.'s majority vote \(2018\), which sends and returns signs only/);
  assert.match(choices, /Karimireddy et al\./);
  assert.match(choices, /previous step's V \(a warm start\)/);
  assert.match(page, /detection term .* is this course's extension/);
  assert.doesNotMatch(page, /\(1 - \\delta\)\\\|v\\\|\^2/, "δ is the checkpoint time on this page, not the contraction constant");
  assert.doesNotMatch(page, /often written C \)/, "C is the compressor on this page");
  assert.match(page, /466 interruptions in 54 days of pre-training on 16,384 H100 GPUs, 419 of them unexpected/);
  assert.doesNotMatch(page, /counts 419 unexpected interruptions/);
  const lars = read("lessons/week3/exercises/lars_trust.js");
  assert.doesNotMatch(lars, /λ = η·‖w‖/, "Week 3 writes the trust coefficient η_trust");
});

test("the lab says its first exercise writes one all-reduce of all tensors, as lab-dp-sync asks", async () => {
  const lab = prose("lab");
  assert.doesNotMatch(lab, /write that all-reduce, bucketed/);
  assert.match(lab, /one all-reduce of all the tensors together/);
  const { dpSync } = await import("../../lessons/lab/exercises/dp_sync.js");
  assert.match(dpSync.prompt, /<strong>one<\/strong> <code>dp\.allReduce<\/code> per step for all\s+tensors together/);
});

test("Week 3 explains, where the Workers' DDP measurement is shown, why it differs from GPUs, with the model beside it", async () => {
  const { measuredAgainstModel } = await import("../../lessons/week3/ddp_measured.js");
  const priced = { flat: { total: 0.0777 }, bucketed: { total: 0.0521 } };
  const flat = measuredAgainstModel({ best: "flat", workers: 4, cores: 2, priced });
  assert.match(flat, /bucketing does not win on this machine, though it does on GPUs/);
  assert.match(flat, /flat 77\.7 ms and bucketed with overlap 52\.1 ms/);
  assert.match(flat, /4 Workers share 2 cores/);
  assert.match(measuredAgainstModel({ best: "bucketed", workers: 2, cores: null, priced }), /by less than the model predicts/);
  const widget = read("lessons/week3/widgets/ddp_workers.js");
  assert.match(widget, /measuredAgainstModel\(/, "the readout beside the measurement uses it");
  const page = prose("week3");
  assert.match(page, /on GPUs, bucketing alone buys nothing/);
  assert.match(around(page, /When the Workers disagree/, 600), /the same few cores backward needs/);
});

test("Week 3 defines its terms where it uses them and says its numeric parameters are drawn per learner", async () => {
  const page = prose("week3");
  assert.match(page, /for an MLP of L blocks, each with its two weight matrices, 2L collectives/);
  const html = read("lessons/week3/index.html");
  assert.match(html, /Under ZeRO or FSDP \(<a href="\.\.\/week5\/index\.html#zero">Week 5<\/a>: each rank\s+keeps only a shard/);
  assert.match(around(page, /From warm-up to implementation/, 700), /drawn for you, per learner/);
  const { bucketCrossover } = await import("../../lessons/week3/exercises/bucket_size.js");
  const prompt = bucketCrossover.prompt(bucketCrossover.params(() => 0.5));
  assert.doesNotMatch(prompt, /γ = 0/);
  assert.match(prompt, /Week 1's γ — is ignored/);
});

test("the capstone's prose says error feedback is a visible setting with a per-compressor default", async () => {
  const section = around(prose("week6"), /Error feedback is a setting of its own/, 600);
  const { EF_DEFAULT } = await import("../../lessons/week6/capstone_setup.js");
  for (const [c, name] of [["top-k", "top-k"], ["powersgd", "PowerSGD"], ["sign", "SignSGD"]]) {
    assert.equal(EF_DEFAULT[c], true, c);
    assert.match(section.split("off for")[0], new RegExp(name));
  }
  for (const c of ["random-k", "int8", "qsgd"]) assert.equal(EF_DEFAULT[c], false, c);
  assert.match(section, /off for random-k/);
});

test("Week 6 sends the learner to the widget that has the “crash” choice, by its id", () => {
  const html = read("lessons/week6/index.html");
  const sentence = /[^.]*“crash”[^.]*\./.exec(html)?.[0] ?? "";
  const target = /href="#(widget-[\w-]+)"/.exec(sentence)?.[1];
  assert.equal(target, "widget-elastic", sentence);
  const widget = new RegExp(`id="${target}" data-widget="([\\w-]+)"`).exec(html)[1];
  assert.match(read(`lessons/week6/widgets/${widget}.js`), /\["crash", "crash"\]/, "that widget offers “crash”");
  assert.match(sentence, /“They”/, "and names the control");
});

test("Week 2's broadcast widget is captioned with as many ways as it draws algorithms", () => {
  const caption = /data-widget="broadcast">\s*<figcaption>(\w+) ways to broadcast/.exec(read("lessons/week2/index.html"))?.[1];
  const widget = read("lessons/week2/widgets/broadcast.js");
  // The closed-form algorithms it lists, plus the pipelined schedules it runs.
  const listed = JSON.parse(/const ALGORITHMS = (\[[^\]]*\])/.exec(widget)[1].replace(/'/g, '"')).length;
  const pipelined = new Set([...widget.matchAll(/run\("(pipelined-[a-z]+)"\)/g)].map((m) => m[1])).size;
  const words = ["Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven"];
  assert.equal(caption, words[listed + pipelined]);
});
