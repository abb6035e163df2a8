// download.js — offering text the page made (an export, a backup, a submission) as a file download.

/** "2026-12-07": a date in the learner's own time zone, for a file name. */
export function dateStamp(d = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Save `text` as the file `name` through a download link. Returns the name. */
export function downloadText(name, text, doc = document, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(doc.createElement("a"), { href: url, download: name, hidden: true });
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
