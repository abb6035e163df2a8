// submission.js — what a learner hands in for grading, and how a grader reads it back. A submission is the
// learner's exported progress (web/storage/progress_schema.js: their seed and, per exercise, the code, the answer
// and the attempts) with two more fields:
//   { schema, exportedAt, seed, exercises,          exactly what "Export progress" saves (Progress.exportJSON)
//     student: "<the name the learner typed>",
//     site: { version, commit } }                    the build the learner worked on (web/lesson/site_version.js)
// so one file format serves both: "Import progress" reads a submission (ignoring the two fields), and the grader
// (scripts/grade.mjs) reads a plain export too (the student is then named after the file). The grader judges each
// exercise afresh from its code or answer and the seed; a record's `solved` flag is only reported, never believed.
import { readProgress } from "../storage/progress_schema.js";
import { dateStamp, downloadText } from "../storage/download.js";
import { SITE } from "../lesson/site_version.js";

export const MAX_NAME = 120;

/** The submission's text: the progress export with the student's name and the site's version. */
export function submissionJSON(progress, student, site = SITE) {
  const name = cleanName(student);
  if (!name) throw new Error("Type your name first: your lecturer's gradebook lists you by it.");
  return JSON.stringify({ ...JSON.parse(progress.exportJSON()), student: name, site }, null, 2);
}

/** "dsml-submission-ada-lovelace-2026-12-07.json" */
export function submissionFileName(student, date = new Date()) {
  const slug = cleanName(student).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `dsml-submission-${slug || "learner"}-${dateStamp(date)}.json`;
}

/** Offer the submission as a download. Returns the file name. */
export function downloadSubmission(progress, student, doc = document) {
  return downloadText(submissionFileName(student), submissionJSON(progress, student), doc);
}

/**
 * A submission's (or a progress export's) text → { student, site, seed, exercises, dropped }; `student` and `site`
 * are null when the file has none. Throws a readable Error when the file is not a dsml progress file at all, or
 * when its seed is unusable: every parameter is drawn from the seed, so the learner's exercises cannot be re-drawn.
 */
export function readSubmission(text) {
  const { data, dropped, seedProblem } = readProgress(text);
  if (seedProblem) throw new Error(`${seedProblem}, so the learner's exercises cannot be drawn again`);
  const raw = JSON.parse(text);
  const site = isObject(raw.site) ? { version: stringOr(raw.site.version), commit: stringOr(raw.site.commit) } : null;
  return { student: cleanName(raw.student) || null, site, seed: data.seed, exercises: data.exercises, dropped };
}

function cleanName(name) {
  return typeof name === "string" ? name.replace(/\s+/g, " ").trim().slice(0, MAX_NAME) : "";
}
const stringOr = (v) => (typeof v === "string" ? v : null);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
