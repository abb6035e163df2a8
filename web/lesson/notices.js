// notices.js — shows Progress notices (migrated, backed up, storage unavailable) at the top of <main>.
export function showNotices(notices) {
  const main = document.querySelector("main");
  for (const { level, text } of notices ?? []) {
    const box = document.createElement("div");
    box.className = `notice ${level === "warn" ? "warn" : "info"}`;
    box.setAttribute("role", level === "warn" ? "alert" : "status");
    box.textContent = text;
    main.prepend(box);
  }
}
