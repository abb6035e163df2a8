# Shared by scripts/serve.sh, scripts/test.sh and the Pages workflow: install what is missing, build.
# Every step is idempotent: a second run only rebuilds what changed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build"
SITE="$ROOT/site"
export NODE_PATH=/usr/share/nodejs   # emscripten 3.1.6's tools need acorn from here

# Each step says how long the script has run (bash's SECONDS): CI's log then shows where its minutes go.
log() { printf '\033[1m==> [%dm%02ds] %s\033[0m\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# apt packages the build and tests need; only missing ones are installed.
ensure_apt() {
  local want=(cmake make g++ libeigen3-dev libgtest-dev libbenchmark-dev emscripten chromium
              openmpi-bin libopenmpi-dev libsimgrid-dev    # dsml-mpi: Open MPI, and SimGrid's SMPI (smpicxx, smpirun)
              time                                         # GNU time: the collective benches' peak memory
              openssl)                                     # the Lighthouse bench's HTTPS (HTTP/2, as Pages serves)
  command -v node >/dev/null && command -v npm >/dev/null || want+=(nodejs npm)
  local missing=()
  for pkg in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing apt packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# npm packages from the lockfile; re-run `npm ci` only when the lockfile changed.
ensure_npm() {
  local stamp="$ROOT/node_modules/.dsml-lock.sha"
  local want; want="$(sha256sum "$ROOT/package-lock.json" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "npm ci"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > "$stamp"
  fi
}

# Unity builds (DSML_UNITY_BUILD: the core compiled in batches of 8 files, about half the CPU time of a per-file
# build) for every build from nothing — a fresh clone's first build, and CI's. A build directory keeps the choice it
# was configured with, so a working copy built per file stays per file. DSML_UNITY_BUILD=OFF (or ON) in the
# environment chooses for this and later builds: OFF when you edit the core all day (an edit then recompiles one
# file, not its batch of 8).
unity_build() {
  local dir="$1" cached
  if [ -n "${DSML_UNITY_BUILD:-}" ]; then echo "$DSML_UNITY_BUILD"; return; fi
  if [ "${CI:-}" = true ]; then echo ON; return; fi
  cached="$(sed -n 's/^DSML_UNITY_BUILD:BOOL=//p' "$dir/CMakeCache.txt" 2>/dev/null || true)"
  echo "${cached:-ON}"
}

# A build directory configured for another checkout (the clone was moved, or build/ copied from elsewhere) cannot be
# reused: CMake refuses it with a message that does not say what to do. Say it, and leave the directory alone (it
# may be another checkout's build).
check_build_dir() {
  local dir="$1" home
  [ -f "$dir/CMakeCache.txt" ] || return 0
  home="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt")"
  if [ "$(cd "$home" 2>/dev/null && pwd -P)" != "$(cd "$ROOT" && pwd -P)" ]; then
    echo "error: $dir was configured for the checkout at ${home:-an unknown path}, not this one ($ROOT):" \
         "the checkout moved or build/ was copied. Delete it and run again: rm -rf '$dir'" >&2
    return 1
  fi
}

build_native() {
  log "native build (core, tests, CLI, benchmarks)"
  check_build_dir "$BUILD/native"
  cmake -S "$ROOT" -B "$BUILD/native" -DCMAKE_BUILD_TYPE=Release -DDSML_UNITY_BUILD="$(unity_build "$BUILD/native")" >/dev/null
  cmake --build "$BUILD/native" -j"$(nproc)"
}

build_wasm() {
  log "wasm build (emscripten)"
  check_build_dir "$BUILD/wasm"
  # Configured on every run, as the native build is: a changed option (CI's unity build, -D… in CMakeLists.txt)
  # takes effect; an unchanged configuration costs CMake a few seconds and rebuilds nothing.
  emcmake cmake -S "$ROOT" -B "$BUILD/wasm" -DCMAKE_BUILD_TYPE=Release -DDSML_UNITY_BUILD="$(unity_build "$BUILD/wasm")" \
    -DEigen3_DIR=/usr/share/eigen3/cmake \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
  cmake --build "$BUILD/wasm" -j"$(nproc)"
}

# Assemble the static site from lessons/ (laid out as the site is served) plus the vendor bundles and the core.
# DSML_NO_SOLUTIONS=1 assembles the site of a graded term: the reference solutions left out (scripts/withhold_solutions.mjs).
build_site() {
  local flags=()
  if [ "${DSML_NO_SOLUTIONS:-0}" = 1 ]; then flags+=(--no-solutions); log "assembling site/ without the reference solutions"
  else log "assembling site/"; fi
  node "$ROOT/scripts/assemble_site.mjs" "$SITE" --wasm "$BUILD/wasm/wasm" "${flags[@]}"
}

build_all() {
  ensure_apt
  ensure_npm
  build_native
  build_wasm
  build_site
}

# What the course itself needs — the wasm core and site/ — without the native core, its tests, the CLI and the
# benchmarks: serving the course, and an author's loop of editing lessons and their exercises.
build_course() {
  ensure_apt
  ensure_npm
  build_wasm
  build_site
}
