// progress_backups.js — the copies of saved progress that Progress writes before it resets or drops anything
// ("dsml.progress.backup-<ISO time>" in localStorage), listed for the course index, where the learner can
// restore one (Progress.restoreBackup), download it as a file, or delete it.
import { describeDropped, upgrade } from "./progress_schema.js";
import { downloadText } from "./download.js";

export const BACKUP_PREFIX = "dsml.progress.backup-";

/** A new backup key for `now`, unique in `storage` (two backups in one millisecond get a suffix). */
export function backupKey(storage = null, now = new Date()) {
  const base = `${BACKUP_PREFIX}${now.toISOString()}`;
  let key = base;
  for (let i = 2; storage?.getItem(key) != null; i++) key = `${base}-${i}`;
  return key;
}

/**
 * Every backup in `storage`, newest first: [{ key, savedAt: Date | null, summary }], where summary says in
 * words what restoring it would bring back ("3 exercise records, 1 solved") or why it cannot be restored.
 */
export function listBackups(storage) {
  const keys = [];
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(BACKUP_PREFIX)) keys.push(key);
    }
  } catch {
    return [];
  }
  return keys.sort().reverse().map((key) => {
    const text = storage.getItem(key) ?? "";
    const iso = key.slice(BACKUP_PREFIX.length).replace(/-\d+$/, "");
    const savedAt = Number.isNaN(Date.parse(iso)) ? null : new Date(iso);
    return { key, savedAt, ...summarise(text) };
  });
}

/** { restorable, summary } for the text of a backup. */
export function summarise(text) {
  let read;
  try {
    read = upgrade(JSON.parse(text));
  } catch (err) {
    const why = err instanceof SyntaxError ? "the saved text is not valid JSON" : err.message;
    return { restorable: false, summary: `cannot be restored here: ${why}` };
  }
  const records = Object.values(read.data.exercises);
  const solved = records.filter((r) => r.solved).length;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  let summary = `${plural(records.length, "exercise record")}, ${solved} solved`;
  if (read.dropped.length) summary += `; ${plural(read.dropped.length, "unreadable field")} left out: ${describeDropped(read.dropped)}`;
  return { restorable: true, summary };
}

export function deleteBackup(storage, key) {
  if (!key.startsWith(BACKUP_PREFIX)) throw new Error(`${key} is not a dsml progress backup`);
  storage.removeItem(key);
}

/** Offer the backup's text, exactly as it was saved, as a download. Returns the file name. */
export function downloadBackup(storage, key, doc = document) {
  const text = storage.getItem(key);
  if (text == null) throw new Error(`The backup ${key} is no longer in this browser.`);
  return downloadText(`dsml-progress-backup-${key.slice(BACKUP_PREFIX.length).replace(/[:.]/g, "-")}.json`, text, doc);
}
