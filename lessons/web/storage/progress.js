// Learner progress, kept in this browser's localStorage under "dsml.progress".
//
// Stored shape (SCHEMA_VERSION 2):
//   { schema: 2, seed: <int>, exercises: { "<id>": { code, starterHash, solved, solvedAt, attempts, answer, hintsShown } } }
// `seed` is drawn once per learner and varies exercise parameters (lessons/web/README.md, "Exercises are data").
// `starterHash` (hashString of the starter the code was edited from) lets a page notice that an exercise's
// starter changed in a new version and *offer* it, while the learner's own code is kept.
//
// Nothing is ever silently lost: data that cannot be read (bad JSON, wrong shape, a newer schema) is
// copied to "dsml.progress.backup-<ISO time>" before the store is reset, and a notice says so; when
// storage is unavailable everything works in memory and a notice says progress will not be kept.
// Older schemas are upgraded one step at a time by MIGRATIONS[v] (v → v+1).

export const SCHEMA_VERSION = 2;
export const STORAGE_KEY = "dsml.progress";

const EMPTY_RECORD = Object.freeze({
  code: null, starterHash: null, solved: false, solvedAt: null, attempts: 0, answer: null, hintsShown: 0,
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

export class Progress {
  /** @param storage a Storage (localStorage by default); anything throwing makes this work in memory. */
  constructor(storage = defaultStorage()) {
    this.storage = storage;
    this.notices = [];          // [{ level: "info" | "warn", text }] for the page to show
    this.listeners = new Set();
    this.data = this.#load();
    if (storage && storage === globalThis.localStorage) {
      // Another tab saved: pick it up so two open lessons don't overwrite each other's progress.
      globalThis.addEventListener?.("storage", (e) => {
        if (e.key !== STORAGE_KEY || e.newValue == null) return;
        try { this.data = parseProgress(e.newValue); this.#emit(null); } catch { /* keep ours */ }
      });
    }
  }

  get seed() { return this.data.seed; }

  /** A copy of the record for exercise `id`, or undefined if the learner never touched it. */
  get(id) {
    const r = this.data.exercises[id];
    return r ? { ...r } : undefined;
  }

  /** Merge `patch` into the record for `id` (created if needed) and save. Returns the new record. */
  update(id, patch) {
    if (typeof id !== "string" || !id) throw new Error("Progress.update: exercise id must be a non-empty string");
    const next = { ...EMPTY_RECORD, ...this.data.exercises[id], ...patch };
    const problem = recordProblem(next);
    if (problem) throw new Error(`Progress.update(${id}): ${problem}`);
    if (next.solved && !next.solvedAt) next.solvedAt = new Date().toISOString();
    if (!next.solved) next.solvedAt = null;
    this.data.exercises[id] = next;
    this.#save();
    this.#emit(id);
    return { ...next };
  }

  /** Forget everything about exercise `id`. */
  reset(id) {
    if (!(id in this.data.exercises)) return;
    delete this.data.exercises[id];
    this.#save();
    this.#emit(id);
  }

  /** How many of `ids` are solved (all recorded exercises when `ids` is omitted). */
  solvedCount(ids) {
    const list = ids ?? Object.keys(this.data.exercises);
    return list.filter((id) => this.data.exercises[id]?.solved === true).length;
  }

  /** Everything, as pretty JSON with the schema and the export time. */
  exportJSON() {
    return JSON.stringify({ schema: SCHEMA_VERSION, exportedAt: new Date().toISOString(),
      seed: this.data.seed, exercises: this.data.exercises }, null, 2);
  }

  /**
   * Replace the progress with an export (or an older schema). Throws an Error with a readable message
   * and leaves the current progress untouched if the text is not a dsml progress file.
   * Returns { exercises, solved } counts.
   */
  importJSON(text) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`That file is not valid JSON (${err.message}). Choose a file made by "Export progress".`);
    }
    let data;
    try {
      data = upgrade(parsed);
    } catch (err) {
      throw new Error(`That file could not be imported: ${err.message}. Your current progress is unchanged.`);
    }
    this.data = data;
    this.#save();
    this.#emit(null);
    return { exercises: Object.keys(data.exercises).length, solved: this.solvedCount() };
  }

  /** Call `cb(progress, id)` after every change (id null for whole-store changes). Returns an unsubscribe. */
  onChange(cb) {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  #emit(id) {
    for (const cb of this.listeners) cb(this, id);
  }

  #load() {
    let raw;
    try {
      if (!this.storage) throw new Error("no storage");
      raw = this.storage.getItem(STORAGE_KEY);
    } catch {
      this.storage = null;
      this.notices.push({ level: "warn", text: "This browser is not letting dsml save anything, so your progress "
        + "will be lost when you close the page. Use “Export progress” on the course page to keep a copy." });
      return freshData();
    }
    if (raw == null) {
      const data = freshData();
      this.data = data;
      this.#save();
      return data;
    }
    try {
      const data = parseProgress(raw);
      if (storedSchema(JSON.parse(raw)) !== SCHEMA_VERSION) { this.data = data; this.#save(); }   // migrated
      return data;
    } catch (err) {
      return this.#recover(raw, err);
    }
  }

  // Unreadable data: back it up under a timestamped key, then start afresh (or, if even the backup
  // cannot be written, keep the original untouched and work in memory).
  #recover(raw, err) {
    const key = `${STORAGE_KEY}.backup-${new Date().toISOString()}`;
    try {
      this.storage.setItem(key, raw);
    } catch {
      this.storage = null;
      this.notices.push({ level: "warn", text: `Your saved progress could not be read (${err.message}), and there `
        + "was no room to back it up, so it was left as it is and nothing will be saved during this visit." });
      return freshData();
    }
    const data = freshData();
    this.data = data;
    this.#save();
    this.notices.push({ level: "warn", text: `Your saved progress could not be read; it was backed up as ${key} `
      + `and reset. (${err.message})` });
    return data;
  }

  #save() {
    if (!this.storage) return;
    try {
      this.storage.setItem(STORAGE_KEY, JSON.stringify(this.data));
    } catch {
      this.storage = null;
      this.notices.push({ level: "warn", text: "Saving your progress failed (the browser's storage is full or "
        + "blocked); from now on it is kept only until you close the page. Use “Export progress” to keep a copy." });
    }
  }
}

/** Parse and upgrade a stored/exported progress string. Throws a readable Error if it is not one. */
export function parseProgress(text) {
  let parsed;
  try { parsed = JSON.parse(text); } catch { throw new Error("the saved text is not valid JSON"); }
  return upgrade(parsed);
}

function upgrade(parsed) {
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
  return validate(data);
}

// Schema 1 called the field "version"; from schema 2 on it is "schema".
function storedSchema(obj) {
  return isObject(obj) ? (obj.schema ?? obj.version) : undefined;
}

function validate(data) {
  if (!isObject(data.exercises)) throw new Error("this progress has no \"exercises\" object");
  const exercises = {};
  for (const [id, rec] of Object.entries(data.exercises)) {
    if (!isObject(rec)) throw new Error(`exercise "${id}" is not an object`);
    const full = { ...EMPTY_RECORD, ...pick(rec, Object.keys(EMPTY_RECORD)) };
    const problem = recordProblem(full);
    if (problem) throw new Error(`exercise "${id}": ${problem}`);
    exercises[id] = full;
  }
  return { schema: SCHEMA_VERSION, seed: isSeed(data.seed) ? data.seed : newSeed(), exercises };
}

function recordProblem(r) {
  if (r.code !== null && typeof r.code !== "string") return "code must be text or null";
  if (r.starterHash !== null && typeof r.starterHash !== "string") return "starterHash must be text or null";
  if (typeof r.solved !== "boolean") return "solved must be true or false";
  if (r.solvedAt !== null && typeof r.solvedAt !== "string") return "solvedAt must be a date string or null";
  if (!Number.isInteger(r.attempts) || r.attempts < 0) return "attempts must be a whole number ≥ 0";
  if (!Number.isInteger(r.hintsShown) || r.hintsShown < 0) return "hintsShown must be a whole number ≥ 0";
  try { JSON.stringify(r.answer); } catch { return "answer must be plain JSON data"; }
  return null;
}

function freshData() {
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

function defaultStorage() {
  try { return globalThis.localStorage ?? null; } catch { return null; }
}

/** Save the progress as "dsml-progress-YYYY-MM-DD.json" through a download link. Returns the file name. */
export function downloadProgress(progress, doc = document) {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  const name = `dsml-progress-${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}.json`;
  const url = URL.createObjectURL(new Blob([progress.exportJSON()], { type: "application/json" }));
  const a = doc.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** FNV-1a (32-bit) of a string's UTF-16 code units, as 8 hex digits. Stable, tiny, not cryptographic. */
export function hashString(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}
