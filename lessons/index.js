// The course home: a card per week (from web/lesson/course.js) with the learner's progress, the progress
// notices (e.g. "your saved progress could not be read…"), and export / import of progress.
import { initLesson } from "./web/lesson/lesson.js";
import { WEEKS, weekLabel } from "./web/lesson/course.js";
import { Progress, downloadProgress } from "./web/storage/progress.js";
import { plural } from "./web/units.js";

initLesson({ homeHref: "./index.html" });
const progress = new Progress();
const exerciseIds = new Map();   // slug → [exercise ids] for weeks whose exercises.js loaded

showNotices(document.getElementById("notices"), progress.notices);
renderCards();
progress.onChange(renderCards);
loadExerciseLists().then(renderCards);
wireExportImport();

function showNotices(box, notices) {
  box.replaceChildren(...notices.map(({ level, text }) => {
    const div = document.createElement("div");
    div.className = `notice ${level === "info" ? "info" : "warn"}`;
    div.setAttribute("role", level === "info" ? "status" : "alert");
    div.textContent = text;
    return div;
  }));
}

// Each published week's exercises are data (lessons/<slug>/exercises.js); the count is their length.
// A missing or broken file just leaves the count out.
async function loadExerciseLists() {
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
  const list = document.getElementById("weeks");
  list.replaceChildren(...WEEKS.map((week) => {
    const li = document.createElement("li");
    const card = document.createElement("article");
    card.className = week.available ? "card" : "card pending";
    card.setAttribute("aria-labelledby", `card-${week.slug}`);
    const kicker = text("p", weekLabel(week), "kicker");
    const h3 = document.createElement("h3");
    h3.id = `card-${week.slug}`;
    if (week.available) {
      const a = document.createElement("a");
      a.href = `./${week.slug}/index.html`;
      a.textContent = week.title;
      h3.append(a);
    } else {
      h3.textContent = week.title;
    }
    const foot = document.createElement("div");
    foot.className = "card-foot";
    const ids = exerciseIds.get(week.slug);
    if (!week.available) {
      foot.append(text("span", "In preparation", "badge"));
    } else if (ids) {
      const solved = progress.solvedCount(ids);
      foot.append(text("span", `${solved} of ${ids.length} exercises solved`));
      const meter = document.createElement("div");
      meter.className = "meter";
      meter.setAttribute("aria-hidden", "true");
      const fill = document.createElement("span");
      fill.style.width = `${ids.length ? (100 * solved) / ids.length : 0}%`;
      meter.append(fill);
      foot.append(meter);
    } else {
      foot.append(text("span", "Available now"));
    }
    card.append(kicker, h3, text("p", week.summary), foot);
    li.append(card);
    return li;
  }));
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
  const input = document.getElementById("import-file");
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    try {
      const { exercises, solved } = progress.importJSON(await file.text());
      say("success", `Imported ${file.name}: ${plural(exercises, "exercise record")}, ${solved} solved.`);
    } catch (err) {
      say("error", err.message);
    } finally {
      input.value = "";   // choosing the same file again still fires "change"
    }
  });
}

function text(tag, content, className) {
  const el = document.createElement(tag);
  el.textContent = content;
  if (className) el.className = className;
  return el;
}
