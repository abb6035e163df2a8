// progress_schema.js — the stored shape of a learner's progress, its upgrades, and how it is read.
//
// Stored shape (SCHEMA_VERSION 2):
//   { schema: 2, seed: <int>, exercises: { "<id>": { code, starterHash, solved, solvedAt, attempts, answer, hintsShown,
//                                                    ownCode } } }
// `seed` is drawn once per learner and varies exercise parameters (web/README.md, "Exercises are data").
// `starterHash` (hashString of the starter the code was edited from) lets a page notice that an exercise's
// starter changed in a new version and *offer* it, while the learner's own code is kept. `ownCode` is the
// learner's code set aside when they copied the reference solution into the editor (exercise/solution_view.js).
// Older schemas are upgraded one step at a time by MIGRATIONS[v] (v → v+1).
//
// Reading is per field: a field of an exercise record that is not of this shape (`solved: "yes"`, `attempts:
// "garbage"`) is reset to its empty value and reported — { id, field, problem } in `dropped` — while the record's
// other fields (its code above all) and every other record are kept; a record that is not an object at all is
// dropped whole ({ id, field: null, problem }). A `seed` that is not a
// seed ("junk", 0, 2.5) is a bad record too: a new seed is drawn and reported as `seedProblem`, so that it is saved
// once (with a backup and a notice) rather than drawn afresh on every load, which would change every exercise's
// numbers each time. The answers typed for the old numbers are cleared with it (solved stays solved). Only text
// that is not a progress store at all (not JSON, no schema, a newer schema, no exercises) is refused as a whole.
//
// A renamed exercise keeps its progress: a record stored under one of its previous ids (web/lesson/exercise_aliases.js)
// is read as the new id's (carryAliases, reported in `carried`). When both ids have a record, neither is lost; they are
// merged into one (mergeRecords): solved if either was, first solved at the earlier time, attempts added, the most
// hints shown, and the code, answer and set-aside code of the better record — the solved one, else the one with more
// attempts, else the new id's — each taken from the other record where the better one has none. An answer typed under
// the old id is not carried: an exercise's numbers are drawn from its id, so it answered other numbers.
import { ALIASES } from "../lesson/exercise_aliases.js";

export const SCHEMA_VERSION = 2;

export const EMPTY_RECORD = Object.freeze({
  code: null, starterHash: null, solved: false, solvedAt: null, attempts: 0, answer: null, hintsShown: 0,
  ownCode: null,
});

/** Upgrades: MIGRATIONS[v](data) turns schema v into schema v + 1. */
export const MIGRATIONS = {
  // Schema 1 (the first release): { version: 1, solved: { id: true }, code: { id: "..." } }.
  1(old) {
    const solved = isObject(old.solved) ? old.solved : {};
    const code = isObject(old.code) ? old.code : {};
    const exercises = {};
    for (const id of new Set([...Object.keys(solved), ...Object.keys(code)])) {
      exercises[id] = { ...EMPTY_RECORD, solved: solved[id] === true,
        code: typeof code[id] === "string" ? code[id] : null };
    }
    return { schema: 2, seed: isSeed(old.seed) ? old.seed : newSeed(), exercises };
  },
};

/**
 * Read stored or exported progress text. Returns { data, dropped: [{ id, problem }], seedProblem, migrated,
 * carried: [{ from, to, merged }] }; throws a readable Error if the text is not a dsml progress store at all.
 * `aliases` ({ old id: new id }) is the course's table unless a test gives its own.
 */
export function readProgress(text, { aliases = ALIASES } = {}) {
  let parsed;
  try { parsed = JSON.parse(text); } catch { throw new Error("the saved text is not valid JSON"); }
  const { data, dropped, seedProblem, carried } = upgrade(parsed, { aliases });
  return { data, dropped, seedProblem, carried, migrated: storedSchema(parsed) !== SCHEMA_VERSION };
}

/** Like readProgress, for an already parsed object. */
export function upgrade(parsed, { aliases = ALIASES } = {}) {
  if (!isObject(parsed)) throw new Error("this is not a dsml progress file (expected a JSON object)");
  let v = storedSchema(parsed);
  if (!Number.isInteger(v) || v < 1) {
    throw new Error("this is not a dsml progress file (it has no \"schema\" number)");
  }
  if (v > SCHEMA_VERSION) {
    throw new Error(`this progress was saved by a newer version of dsml (schema ${v}); this page reads schema `
      + `${SCHEMA_VERSION} and older`);
  }
  let data = parsed;
  for (; v < SCHEMA_VERSION; v++) data = MIGRATIONS[v](data);
  const read = validate(data);
  return { ...read, carried: carryAliases(read.data.exercises, aliases) };
}

/**
 * Moves every record stored under an old id of `aliases` ({ old: new }, followed to its end) to the new id, merged
 * with the record already there (mergeRecords). Changes `exercises` in place; returns [{ from, to, merged }].
 */
export function carryAliases(exercises, aliases) {
  const carried = [];
  for (const from of Object.keys(exercises)) {
    const to = currentId(from, aliases);
    if (to === from) continue;
    const old = { ...exercises[from], answer: null };   // typed for the numbers drawn from the old id
    const merged = to in exercises;
    exercises[to] = merged ? mergeRecords(exercises[to], old) : old;
    delete exercises[from];
    carried.push({ from, to, merged });
  }
  return carried;
}

// The id an exercise has today: `id` followed through `aliases` (a cycle stops where it would repeat).
function currentId(id, aliases) {
  const seen = new Set([id]);
  while (Object.hasOwn(aliases, id) && !seen.has(aliases[id])) seen.add(id = aliases[id]);
  return id;
}

/**
 * One record from two of the same exercise, losing neither (the rule is the file's opening comment): `current`
 * under the exercise's id, `previous` under an old one.
 */
export function mergeRecords(current, previous) {
  const better = rank(previous) > rank(current) ? previous : current;
  const other = better === current ? previous : current;
  const solvedAts = [current, previous].filter((r) => r.solved && r.solvedAt).map((r) => r.solvedAt).sort();
  const codeOf = better.code != null ? better : other;   // the code with the starter it was edited from
  return {
    ...EMPTY_RECORD,
    code: codeOf.code, starterHash: codeOf.starterHash,
    ownCode: better.ownCode ?? other.ownCode,
    answer: better.answer ?? other.answer,
    solved: current.solved || previous.solved,
    solvedAt: current.solved || previous.solved ? (solvedAts[0] ?? null) : null,
    attempts: current.attempts + previous.attempts,
    hintsShown: Math.max(current.hintsShown, previous.hintsShown),
  };
}

// Which record is better: solved first, then more attempts; a tie keeps `current` (it is compared second).
const rank = (r) => (r.solved ? 1e12 : 0) + r.attempts;

// Schema 1 called the field "version"; from schema 2 on it is "schema".
function storedSchema(obj) {
  return isObject(obj) ? (obj.schema ?? obj.version) : undefined;
}

function validate(data) {
  if (!isObject(data.exercises)) throw new Error("this progress has no \"exercises\" object");
  const exercises = {};
  const dropped = [];
  for (const [id, rec] of Object.entries(data.exercises)) {
    if (!isObject(rec)) { dropped.push({ id, field: null, problem: "it is not an object" }); continue; }
    const full = { ...EMPTY_RECORD, ...pick(rec, Object.keys(EMPTY_RECORD)) };
    for (const { field, problem } of fieldProblems(full)) {
      full[field] = EMPTY_RECORD[field];
      dropped.push({ id, field, problem });
    }
    if (!full.solved) full.solvedAt = null;   // a solvedAt without solved (its solved was reset) means nothing
    exercises[id] = full;
  }
  if (isSeed(data.seed)) return { data: { schema: SCHEMA_VERSION, seed: data.seed, exercises }, dropped, seedProblem: null };
  // Every exercise's parameters change with the seed: an answer typed for the old numbers no longer applies.
  for (const rec of Object.values(exercises)) rec.answer = null;
  return { data: { schema: SCHEMA_VERSION, seed: newSeed(), exercises }, dropped, seedProblem: seedProblem(data.seed) };
}

// Why a stored seed cannot be used, in words.
function seedProblem(value) {
  const shown = JSON.stringify(value) ?? String(value);
  return `the seed must be a whole number from 1 to 2147483647, not ${shown.length > 24 ? `${shown.slice(0, 24)}…` : shown}`;
}

// What each field must be: a test of the value, and the rule in words.
const textOrNull = (v) => v === null || typeof v === "string";
const count = (v) => Number.isInteger(v) && v >= 0;
const FIELDS = {
  code: [textOrNull, "code must be text or null"],
  ownCode: [textOrNull, "ownCode must be text or null"],
  starterHash: [textOrNull, "starterHash must be text or null"],
  solved: [(v) => typeof v === "boolean", "solved must be true or false"],
  solvedAt: [textOrNull, "solvedAt must be a date string or null"],
  attempts: [count, "attempts must be a whole number ≥ 0"],
  hintsShown: [count, "hintsShown must be a whole number ≥ 0"],
  answer: [(v) => { try { JSON.stringify(v); return true; } catch { return false; } }, "answer must be plain JSON data"],
};

/** The fields of a full record that are not of their shape: [{ field, problem }] (problem in words). */
export function fieldProblems(r) {
  return Object.entries(FIELDS).flatMap(([field, [ok, problem]]) => (ok(r[field]) ? [] : [{ field, problem }]));
}

/** What is wrong with a full record, in words (its first bad field), or null. */
export function recordProblem(r) {
  return fieldProblems(r)[0]?.problem ?? null;
}

/** `"w1-x" (solved must be true or false; reset), "w2-y" (it is not an object; removed)` — for a notice. */
export function describeDropped(dropped) {
  return dropped.map(({ id, field, problem }) => `“${id}” (${problem}; ${field ? `its ${field} was reset` : "removed"})`).join(", ");
}

export function freshData() {
  return { schema: SCHEMA_VERSION, seed: newSeed(), exercises: {} };
}

function newSeed() {
  const a = new Uint32Array(1);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(a);
  else a[0] = Math.floor(Math.random() * 2 ** 32);
  return (a[0] % 2147483646) + 1;   // 1 … 2^31 − 1
}

function isSeed(v) { return Number.isInteger(v) && v > 0 && v < 2 ** 31; }
function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
function pick(obj, keys) { return Object.fromEntries(keys.filter((k) => k in obj).map((k) => [k, obj[k]])); }
