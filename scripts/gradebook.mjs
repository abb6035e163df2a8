// gradebook.mjs — the rows of a lecturer's gradebook (scripts/grade.mjs): one row per learner and exercise of the
// course, each judged afresh from the learner's saved code or answer and their seed (never from the `solved` flag the
// file carries: that is only reported when it disagrees), and rows about a file itself (exercise "(file)"): a file
// that cannot be read, fields that could not be read, records of exercises this course does not have, two files
// with one seed (one learner's progress handed in twice).
//   COLUMNS                                  the CSV's header
//   await submissionRows(file, text, { exercises, courseIds, core, judgeCode })   → { rows (objects keyed by COLUMNS), seed, student }
//   fileRow(file, student, message)          one row about a file
//   toCSV(rows)                              RFC 4180 text, messages as plain text
import { readSubmission } from "../web/exercise/submission.js";
import { judgeSavedAnswer } from "../web/exercise/judge_record.js";
import { describeDropped } from "../web/storage/progress_schema.js";

export const COLUMNS = ["student", "file", "exercise", "passed", "attempts", "message"];
export const FILE_ROW = "(file)";

export const fileRow = (file, student, message) =>
  ({ student, file, exercise: FILE_ROW, passed: "no", attempts: "", message });

// `judgeCode(exercise, code, seed)` → Promise<{ pass, message }>: a Check of the code (grade_worker.mjs).
// `exercises`: those to grade; `courseIds`: every exercise id of the course (records of others are reported).
export async function submissionRows(file, text, { exercises, courseIds = exercises.map((e) => e.id), core, judgeCode }) {
  const fallbackName = file.replace(/\.json$/i, "");
  let sub;
  try {
    sub = readSubmission(text);
  } catch (err) {
    return { rows: [fileRow(file, fallbackName, `Unreadable: ${err.message}. Nothing in this file was graded; ask the `
      + "learner to export it again from the course page.")], seed: null, student: fallbackName };
  }
  const student = sub.student ?? fallbackName;
  const rows = [];
  const notes = [];
  if (!sub.student) notes.push("the file names no student (a progress export, not a submission): named after the file");
  if (sub.dropped.length) notes.push(`fields that could not be read were left out: ${describeDropped(sub.dropped)}`);
  const known = new Set(courseIds);
  const unknown = Object.keys(sub.exercises).filter((id) => !known.has(id));
  if (unknown.length) notes.push(`records of exercises this course does not have were ignored: ${unknown.join(", ")}`);
  if (notes.length) rows.push(fileRow(file, student, `${notes.join("; ").replace(/^./, (c) => c.toUpperCase())}.`));

  const judged = await Promise.all(exercises.map((e) => judgeRecord(e, sub.exercises[e.id], sub.seed, { core, judgeCode })));
  exercises.forEach((e, i) => {
    const record = sub.exercises[e.id];
    const { pass, message } = judged[i];
    const claim = record?.solved && !pass ? " The file says this exercise was solved: the grader's judging of its "
      + `${e.kind === "code" ? "code" : "answer"} did not pass.` : "";
    rows.push({ student, file, exercise: e.id, passed: pass ? "yes" : "no", attempts: record?.attempts ?? 0,
      message: message + claim });
  });
  return { rows, seed: sub.seed, student };
}

async function judgeRecord(exercise, record, seed, { core, judgeCode }) {
  if (exercise.kind === "code") {
    const code = record?.code;
    if (typeof code !== "string" || !code.trim()) return { pass: false, message: "Not attempted: no code saved." };
    if (code === exercise.starter) return { pass: false, message: "Not attempted: the starter code, unchanged." };
    const { pass, message } = await judgeCode(exercise, code, seed);
    const copied = code === exercise.solution ? " (The code is the reference solution, verbatim.)"
      : record.ownCode !== null ? " (The learner had put the reference solution in the editor.)" : "";
    return { pass, message: message + copied };
  }
  if (record?.answer === null || record?.answer === undefined) return { pass: false, message: "Not attempted: no answer saved." };
  try {
    return judgeSavedAnswer(exercise, record.answer, seed, core);
  } catch (err) {
    return { pass: false, message: `The grader could not judge this answer: ${err.message}` };
  }
}

// HTML (the checkers' messages) as plain text for a spreadsheet cell.
const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };
export const plainText = (html) => String(html).replace(/<[^>]*>/g, "")
  .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name) => ENTITIES[name]).replace(/\s+/g, " ").trim();

const cell = (value) => {
  const text = String(value ?? "");
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function toCSV(rows) {
  const lines = [COLUMNS.join(",")];
  for (const row of rows) lines.push(COLUMNS.map((c) => cell(c === "message" ? plainText(row[c]) : row[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
