// The course home: a card per week (from web/lesson/course.js) with the learner's progress, the progress
// notices (e.g. "your saved progress could not be read…"), export / import of progress, a submission for grading
// (web/exercise/submission.js), and the backups that Progress wrote before resetting or dropping anything (restore,
// download, delete).
import { initLesson } from "../web/lesson/lesson.js";
import { registerOffline } from "../web/lesson/offline.js";
import { WEEKS } from "../web/lesson/course.js";
import { cardsHTML } from "../web/lesson/course_cards.js";
import { Progress, downloadProgress } from "../web/storage/progress.js";
import { downloadSubmission } from "../web/exercise/submission.js";
import { plural } from "../web/units.js";
import { deleteBackup, downloadBackup, listBackups } from "../web/storage/progress_backups.js";
import { describeDropped } from "../web/storage/progress_schema.js";

initLesson({ homeHref: "./index.html" });
const progress = new Progress();
const exerciseIds = new Map();   // slug → [exercise ids] for weeks whose exercises.js loaded

showNotices(document.getElementById("notices"), progress.notices);
renderCards();
progress.onChange(renderCards);
// The counts only fill the cards' feet (their height is reserved): load the weeks' exercise modules when idle.
(globalThis.requestIdleCallback ?? setTimeout)(() => loadExerciseLists().then(renderCards));
wireExportImport();
renderBackups();
registerOffline();

function showNotices(box, notices) {
  box.replaceChildren(...notices.map(({ level, text }) => {
    const div = document.createElement("div");
    div.className = `notice ${level === "info" ? "info" : "warn"}`;
    div.setAttribute("role", level === "info" ? "status" : "alert");
    div.textContent = text;
    return div;
  }));
}

// Each published week's exercises are data (lessons/<slug>/exercises.js); the count is their length. The built
// index carries every week's exercise ids (scripts/assemble_site.mjs), so it need not load the weeks' modules —
// a hundred files, a second of script on a phone; served from the source tree, it imports them.
// A missing or broken file just leaves the count out.
async function loadExerciseLists() {
  const built = document.getElementById("weeks").dataset.exerciseIds;
  if (built) {
    for (const [slug, ids] of Object.entries(JSON.parse(built))) exerciseIds.set(slug, ids);
    return;
  }
  await Promise.all(WEEKS.filter((w) => w.available).map(async (w) => {
    try {
      const mod = await import(`./${w.slug}/exercises.js`);
      if (Array.isArray(mod.default)) exerciseIds.set(w.slug, mod.default.map((e) => e.id));
    } catch {
      // Not written yet, or failed to load: the card still links to the lesson.
    }
  }));
}

function renderCards() {
  document.getElementById("weeks").innerHTML = cardsHTML(WEEKS, (week) => {
    const ids = exerciseIds.get(week.slug);
    return ids ? { solved: progress.solvedCount(ids), total: ids.length } : null;
  });
}

function wireExportImport() {
  const message = document.getElementById("progress-message");
  const say = (kind, msg) => {
    message.className = `status-message notice ${kind}`;
    message.textContent = msg;
  };
  document.getElementById("export-progress").addEventListener("click", () => {
    try {
      const name = downloadProgress(progress);
      say("success", `Saved ${name}. Use “Import progress” with this file to restore it here or in another browser.`);
    } catch (err) {
      say("error", `Export failed: ${err.message}`);
    }
  });
  document.getElementById("submission-form").addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      const name = downloadSubmission(progress, document.getElementById("student-name").value);
      say("success", `Saved ${name}. Send this file to your lecturer: it holds your code, answers and attempts.`);
    } catch (err) {
      say("error", err.message);
    }
  });
  const input = document.getElementById("import-file");
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    try {
      const { exercises, solved, dropped } = progress.importJSON(await file.text());
      say("success", `Imported ${file.name}: ${plural(exercises, "exercise record")}, ${solved} solved.` + skipped(dropped));
    } catch (err) {
      say("error", err.message);
    } finally {
      input.value = "";   // choosing the same file again still fires "change"
    }
  });
}

function skipped(dropped) {
  if (!dropped.length) return "";
  return ` ${dropped.length === 1 ? "One field" : `${dropped.length} fields`} could not be read: ${describeDropped(dropped)}.`;
}

// One line per backup: when it was saved, what restoring it brings back, and Restore / Download / Delete.
function renderBackups() {
  const storage = progress.storage;
  const backups = storage ? listBackups(storage) : [];
  const box = document.getElementById("backups");
  box.hidden = backups.length === 0;
  const message = document.getElementById("progress-message");
  const say = (kind, msg) => {
    message.className = `status-message notice ${kind}`;
    message.textContent = msg;
  };
  document.getElementById("backup-list").replaceChildren(...backups.map(({ key, savedAt, summary, restorable }) => {
    const li = document.createElement("li");
    const when = savedAt ? savedAt.toLocaleString() : key;
    const label = text("span", `Saved ${when}: ${summary}.`);
    const actions = text("span", "", "backup-actions");
    const button = (name, onClick) => {
      const b = text("button", name, "secondary");
      b.type = "button";
      b.setAttribute("aria-label", `${name} the backup saved ${when}`);
      b.addEventListener("click", onClick);
      actions.append(b);
      return b;
    };
    button("Restore", () => {
      if (!window.confirm("Replace your current progress with this backup? Your current progress is backed up first.")) return;
      try {
        const { exercises, solved, savedAs } = progress.restoreBackup(key);
        say("success", `Restored the backup saved ${when}: ${exercises} exercise record${exercises === 1 ? "" : "s"}, `
          + `${solved} solved.${savedAs ? " Your progress before the restore is the newest backup." : ""}`);
      } catch (err) {
        say("error", err.message);
      }
      renderBackups();
    }).disabled = !restorable;
    button("Download", () => {
      try { say("success", `Saved ${downloadBackup(storage, key)}.`); } catch (err) { say("error", err.message); }
    });
    button("Delete", () => {
      if (!window.confirm("Delete this backup? It cannot be brought back.")) return;
      deleteBackup(storage, key);
      renderBackups();
    });
    li.append(label, actions);
    return li;
  }));
}

function text(tag, content, className) {
  const el = document.createElement(tag);
  el.textContent = content;
  if (className) el.className = className;
  return el;
}
