// scripts/lib.sh's build steps, with cmake and emcmake replaced by stubs that record their arguments: the wasm build
// is configured on every run (a changed option takes effect, as in the native build); a build from nothing is a
// unity build, a build directory keeps the choice it was configured with, DSML_UNITY_BUILD and CI=true choose; and a
// build directory that another checkout configured is refused with a message saying what to delete.
//   node --test tests/web/build_scripts.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

// Runs `body` in bash after sourcing lib.sh, with BUILD in a temporary folder and stub cmake/emcmake that append
// their arguments to calls.log. The cache of BUILD/<dir> (if `cacheHome`) says it was configured for cacheHome.
function runLib(body, { cacheHome = null, dir = "wasm", env = {}, cache = "" } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), "dsml-lib-"));
  try {
    const bin = join(tmp, "bin"), build = join(tmp, "build"), log = join(tmp, "calls.log");
    mkdirSync(bin);
    for (const tool of ["cmake", "emcmake"]) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    if (cacheHome !== null) {
      mkdirSync(join(build, dir), { recursive: true });
      writeFileSync(join(build, dir, "CMakeCache.txt"), `CMAKE_HOME_DIRECTORY:INTERNAL=${cacheHome}\n${cache}`);
    }
    const r = spawnSync("bash", ["-c", `source '${ROOT}scripts/lib.sh'; BUILD='${build}'; ${body}`],
      { encoding: "utf8", env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, CI: "", ...env } });
    let calls = "";
    try { calls = readFileSync(log, "utf8"); } catch { /* nothing was called */ }
    return { status: r.status, stderr: r.stderr, calls };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

test("the wasm build is configured on every run, so a changed option takes effect", () => {
  const perFile = runLib("build_wasm", { cacheHome: ROOT, cache: "DSML_UNITY_BUILD:BOOL=OFF\n" });   // configured before
  assert.equal(perFile.status, 0, perFile.stderr);
  assert.match(perFile.calls, /^emcmake cmake -S .* -DDSML_UNITY_BUILD=OFF /m, "configured although a cache exists");
  const ci = runLib("build_wasm", { cacheHome: ROOT, cache: "DSML_UNITY_BUILD:BOOL=OFF\n", env: { CI: "true" } });
  assert.match(ci.calls, /^emcmake cmake .*-DDSML_UNITY_BUILD=ON /m, "CI=true turns on unity builds in the wasm build too");
  assert.match(ci.calls, /^cmake --build .*\/build\/wasm/m);
});

for (const dir of ["wasm", "native"]) {
  test(`a ${dir} build from nothing is a unity build; a build directory keeps its choice; DSML_UNITY_BUILD chooses`, () => {
    assert.match(runLib(`build_${dir}`, { dir }).calls, /cmake -S .* -DDSML_UNITY_BUILD=ON( |$)/m, "from nothing");
    const kept = runLib(`build_${dir}`, { dir, cacheHome: ROOT, cache: "DSML_UNITY_BUILD:BOOL=OFF\n" });
    assert.match(kept.calls, /cmake -S .* -DDSML_UNITY_BUILD=OFF( |$)/m, "a per-file build stays per file");
    const chosen = runLib(`build_${dir}`, { dir, env: { DSML_UNITY_BUILD: "OFF" } });
    assert.match(chosen.calls, /cmake -S .* -DDSML_UNITY_BUILD=OFF( |$)/m, "the environment chooses");
  });
}

for (const dir of ["wasm", "native"]) {
  test(`a ${dir} build directory configured by another checkout is refused with what to delete`, () => {
    const moved = runLib(`build_${dir}`, { cacheHome: "/elsewhere/dsml", dir });
    assert.notEqual(moved.status, 0);
    assert.match(moved.stderr, /was configured for the checkout at \/elsewhere\/dsml, not this one .* Delete it and run again: rm -rf '.*\/build\/(wasm|native)'/);
    assert.doesNotMatch(moved.calls, /cmake/, "nothing is built in it");
  });
}
