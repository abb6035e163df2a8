// site_fresh.mjs — is the built site/ older than what it is built from? Page tests (tests/e2e/harness.mjs) serve the
// prebuilt site; after an edit of a lesson, the runtime, a script or the core they would test the old one. The site
// is stale when any file of lessons/, web/, scripts/ or the wasm core is newer than its sw.js (written last by
// assemble_site.mjs), or when it has none; ensureFreshSite then assembles it again (≈ 1–3 s).
//   staleReason(siteDir, { root, wasmDir }) → null, or why the site must be rebuilt
//   await ensureFreshSite(siteDir, { root, wasmDir }) → true if it rebuilt
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SOURCES = ["lessons", "web", "scripts"];

function newest(dir, best = { file: null, mtimeMs: -Infinity }) {
  if (!existsSync(dir)) return best;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, d.name);
    if (d.isDirectory()) newest(path, best);
    else if (d.isFile()) {
      const { mtimeMs } = statSync(path);
      if (mtimeMs > best.mtimeMs) Object.assign(best, { file: path, mtimeMs });
    }
  }
  return best;
}

export function staleReason(siteDir, { root = ROOT, wasmDir = join(root, "build/wasm/wasm") } = {}) {
  const stamp = join(siteDir, "sw.js");
  if (!existsSync(stamp)) return `${siteDir} has no sw.js (not assembled yet)`;
  const built = statSync(stamp).mtimeMs;
  const best = { file: null, mtimeMs: -Infinity };
  for (const dir of SOURCES) newest(join(root, dir), best);
  for (const f of ["dsml.mjs", "dsml.wasm"]) {
    const path = join(wasmDir, f);
    if (existsSync(path) && statSync(path).mtimeMs > best.mtimeMs) Object.assign(best, { file: path, mtimeMs: statSync(path).mtimeMs });
  }
  return best.mtimeMs > built ? `${relative(root, best.file)} is newer than the site` : null;
}

// Page-test files start side by side and each may find the site stale: one assembles it while the others wait on a
// lock beside it (a directory: mkdir is atomic), then look again — two assemblies writing site/ at once would each
// read the other's half-written pages. A lock left by a killed run is taken over after two minutes.
const LOCK_STALE_MS = 120000;

export async function ensureFreshSite(siteDir, options = {}) {
  if (!staleReason(siteDir, options)) return false;
  const lock = `${siteDir.replace(/\/+$/, "")}.assembling`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  try {
    const reason = staleReason(siteDir, options);  // another file may have assembled it while this one waited
    if (!reason) return false;
    process.stderr.write(`reassembling ${siteDir}: ${reason}\n`);
    const { assembleSite } = await import("./assemble_site.mjs");
    await assembleSite(siteDir, { requireWasm: true, ...(options.wasmDir ? { wasmDir: options.wasmDir } : {}) });
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
