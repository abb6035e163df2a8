// Learner progress, kept in this browser's localStorage under "dsml.progress" (its shape, upgrades and how a
// record is validated: progress_schema.js).
//
// Nothing is ever silently lost. Saved text that cannot be read as a whole (bad JSON, a newer schema) is copied
// to "dsml.progress.backup-<ISO time>" before the store is reset; one unreadable field of an exercise record is
// reset on its own — the record's other fields and every other record are kept — after the same backup. Either way a notice names the backup and what
// was dropped, and the course index lists backups to restore or download (progress_backups.js). When storage
// is unavailable everything works in memory and a notice says progress will not be kept.
import { EMPTY_RECORD, SCHEMA_VERSION, describeDropped, freshData, readProgress, recordProblem, upgrade }
  from "./progress_schema.js";
import { BACKUP_PREFIX, backupKey } from "./progress_backups.js";
import { dateStamp, downloadText } from "./download.js";

export { SCHEMA_VERSION, MIGRATIONS } from "./progress_schema.js";
export const STORAGE_KEY = "dsml.progress";

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
        try { this.data = readProgress(e.newValue).data; this.#emit(null); } catch { /* keep ours */ }
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
   * and leaves the current progress untouched if the text is not a dsml progress file. Records that cannot
   * be read are reset, the others imported. Returns { exercises, solved, dropped: [{ id, field, problem }] }.
   */
  importJSON(text) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`That file is not valid JSON (${err.message}). Choose a file made by "Export progress".`);
    }
    let read;
    try {
      read = upgrade(parsed);
    } catch (err) {
      throw new Error(`That file could not be imported: ${err.message}. Your current progress is unchanged.`);
    }
    this.data = read.data;
    this.#save();
    this.#emit(null);
    return { exercises: Object.keys(read.data.exercises).length, solved: this.solvedCount(), dropped: read.dropped };
  }

  /**
   * Replace the progress with the backup stored under `key` (see progress_backups.js), after backing up the
   * current progress so the restore can be undone. Throws a readable Error, changing nothing, if the backup
   * cannot be read. Returns what importJSON returns, plus `savedAs`: the key of the backup of what was
   * replaced (null when there was nothing to replace).
   */
  restoreBackup(key) {
    if (!key.startsWith(BACKUP_PREFIX)) throw new Error(`${key} is not a dsml progress backup`);
    const text = this.storage?.getItem(key);
    if (text == null) throw new Error(`The backup ${key} is no longer in this browser.`);
    try {
      readProgress(text);
    } catch (err) {
      throw new Error(`This backup cannot be restored by this page (${err.message}); download it to keep it.`);
    }
    let savedAs = null;
    if (Object.keys(this.data.exercises).length) {   // nothing to keep when the current progress is empty
      savedAs = backupKey(this.storage);
      this.storage.setItem(savedAs, JSON.stringify(this.data));
    }
    return { ...this.importJSON(text), savedAs };
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
    let read;
    try {
      read = readProgress(raw);
    } catch (err) {
      return this.#recover(raw, err);
    }
    if (read.seedProblem) return this.#replaceSeed(raw, read);
    if (read.dropped.length) return this.#dropRecords(raw, read);
    if (read.migrated) { this.data = read.data; this.#save(); }
    return read.data;
  }

  // Unreadable data: back it up under a timestamped key, then start afresh (or, if even the backup
  // cannot be written, keep the original untouched and work in memory).
  #recover(raw, err) {
    const key = this.#backUp(raw, `Your saved progress could not be read (${err.message})`);
    if (!key) return freshData();
    const data = freshData();
    this.data = data;
    this.#save();
    this.notices.push({ level: "warn", text: `Your saved progress could not be read; it was backed up as ${key} `
      + `and reset. (${err.message}) The course page lists the backup to restore or download.` });
    return data;
  }

  // Some fields unreadable: back up the whole saved text, keep every good field and record, reset only the bad
  // fields (a record that is not an object at all is removed).
  #dropRecords(raw, { data, dropped }) {
    const n = new Set(dropped.map((d) => d.id)).size;
    const what = n === 1 ? "1 exercise" : `${n} exercises`;
    const key = this.#backUp(raw, `Part of the saved progress of ${what} could not be read: ${describeDropped(dropped)}`);
    if (!key) return data;
    this.data = data;
    this.#save();
    this.notices.push({ level: "warn", text: `Part of the saved progress of ${what} could not be read: `
      + `${describeDropped(dropped)}. Everything else is kept, code included. What was saved before is backed up as `
      + `${key}; the course page lists the backup to restore or download.` });
    return data;
  }

  // A seed that is not a seed: the new one drawn by readProgress is saved once (after backing up the text as it
  // was), so the exercises' numbers change once, with a notice, and not again on every reload.
  #replaceSeed(raw, { data, dropped, seedProblem }) {
    const also = dropped.length ? ` Part of the saved progress could not be read either: ${describeDropped(dropped)}.` : "";
    const key = this.#backUp(raw, `Your saved progress has a bad seed (${seedProblem})`);
    if (!key) return data;
    this.data = data;
    this.#save();
    this.notices.push({ level: "warn", text: `Your saved progress had no usable seed (${seedProblem}), so a new one `
      + "was drawn and saved: the numbers in numeric exercises are new, and answers typed for the old numbers were "
      + `cleared (solved exercises stay solved).${also} What was saved before is backed up as ${key}; the course `
      + "page lists the backup to restore or download." });
    return data;
  }

  // Copies `raw` to a new backup key; on failure works in memory and says why (`reason`). Returns the key or null.
  #backUp(raw, reason) {
    const key = backupKey(this.storage);
    try {
      this.storage.setItem(key, raw);
      return key;
    } catch {
      this.storage = null;
      this.notices.push({ level: "warn", text: `${reason}, and there was no room to back it up, so it was left as `
        + "it is and nothing will be saved during this visit." });
      return null;
    }
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

/** Parse and upgrade a stored/exported progress string (records that cannot be read are left out). */
export function parseProgress(text) {
  return readProgress(text).data;
}

function defaultStorage() {
  try { return globalThis.localStorage ?? null; } catch { return null; }
}

/** Save the progress as "dsml-progress-YYYY-MM-DD.json" through a download link. Returns the file name. */
export function downloadProgress(progress, doc = document) {
  return downloadText(`dsml-progress-${dateStamp()}.json`, progress.exportJSON(), doc);
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
