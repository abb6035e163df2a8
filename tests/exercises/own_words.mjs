// own_words.mjs — an exercise's explanation is its own text: at least `minHints` hints, the prompt, the hints and the
// solution text all different (none a copy of another), none empty, and a solution text of whole paragraphs with every
// tag closed. What "explains well" means is for a reader; these are the mistakes a test can catch.
//   import { assertOwnWords } from "./own_words.mjs";   assertOwnWords(exercise, 3);
import assert from "node:assert/strict";

// True when every opened tag is closed, in order (void tags like <br> are not used in these texts).
export function tagsBalanced(html) {
  const open = [];
  for (const [, slash, name] of html.matchAll(/<(\/?)([a-z][a-z0-9]*)[^>]*>/gi)) {
    if (!slash) open.push(name);
    else if (open.pop() !== name) return false;
  }
  return open.length === 0;
}

export function assertOwnWords(e, minHints) {
  const prompt = typeof e.prompt === "function" ? null : e.prompt;
  const texts = [prompt, ...e.hints, e.solutionText].filter((t) => t !== null).map((t) => t.replace(/\s+/g, " ").trim());
  assert.ok(e.hints.length >= minHints, `${e.id}: ${e.hints.length} hints, at least ${minHints} wanted`);
  assert.equal(new Set(texts).size, texts.length, `${e.id}: the prompt, hints and solution text are not all different`);
  assert.ok(texts.every((t) => t.length > 0), `${e.id}: an empty hint or solution text`);
  assert.match(texts.at(-1), /^<p>.*<\/p>$/, `${e.id}: the solution text is paragraphs`);
  assert.ok(tagsBalanced(e.solutionText), `${e.id}: an unclosed or crossed tag in the solution text`);
}
