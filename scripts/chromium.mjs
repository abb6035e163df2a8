// chromium.mjs — Debian's Chromium as the page tests and the browser benchmarks launch it (headless, no sandbox as
// root, and nothing that would reach the network on its own).
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
