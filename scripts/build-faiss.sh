#!/usr/bin/env bash
# Build the optional faiss-node binding against Debian's libfaiss-dev, offline.
#
# Why: faiss-node's own install script downloads a prebuilt binary and then git-clones faiss,
# both of which fail without network, so package.json denies that script
# ("allowScripts": {"faiss-node": false}) and this script compiles the binding with node-gyp
# against the system library instead. Idempotent: does nothing when the binding already loads.
#
# Always exits 0: faiss is optional and src/index/ falls back to an exact flat index, so a
# machine without apt or a compiler just gets a clear message instead of a failed CI step.
# Set FAISS_BUILD_STRICT=1 to exit 1 on failure instead.
set -u

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pkg="$root/node_modules/faiss-node"
strict="${FAISS_BUILD_STRICT:-0}"

skip() {
  echo "build-faiss: skipped: $1" >&2
  echo "build-faiss: the vector index will use the exact in-process fallback (exact-flat-ip)." >&2
  if [ "$strict" = "1" ]; then exit 1; fi
  exit 0
}

loads() {
  (cd "$root" && node -e "const f=require('faiss-node');const i=new f.IndexFlatIP(2);i.add([1,0]);if(i.search([1,0],1).labels[0]!==0)process.exit(1)") >/dev/null 2>&1
}

[ -d "$pkg" ] || skip "node_modules/faiss-node is not installed (it is an optionalDependency; run npm ci first)"

if loads; then
  echo "build-faiss: faiss-node already loads; nothing to do."
  exit 0
fi

# 1. The system library (Debian bookworm ships faiss 1.7.3 as a static libfaiss.a).
if [ ! -f /usr/include/faiss/IndexFlat.h ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "build-faiss: installing libfaiss-dev with apt-get..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y libfaiss-dev >/dev/null 2>&1 \
      || { apt-get update >/dev/null 2>&1 && apt-get install -y libfaiss-dev >/dev/null 2>&1; } \
      || skip "apt-get install libfaiss-dev failed"
  else
    skip "libfaiss-dev is not installed and apt-get is unavailable or we are not root (run: apt-get install -y libfaiss-dev)"
  fi
fi

# 2. Tools: a C++ compiler, node-gyp (npm bundles one), node headers (no download from nodejs.org).
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler (g++) found"
command -v make >/dev/null 2>&1 || skip "make not found"
npm_root="$(npm root -g 2>/dev/null)"
gyp="$npm_root/npm/node_modules/node-gyp/bin/node-gyp.js"
[ -f "$gyp" ] || gyp="$(command -v node-gyp || true)"
[ -n "$gyp" ] && [ -e "$gyp" ] || skip "node-gyp not found (neither bundled with npm nor on PATH)"
node_prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
nodedir_arg=()
if [ -f "$node_prefix/include/node/node_api.h" ]; then nodedir_arg=("--nodedir=$node_prefix"); fi
(cd "$pkg" && node -e "require('node-addon-api')") >/dev/null 2>&1 \
  || skip "node-addon-api (a faiss-node dependency) is missing from node_modules"

# 3. Our own binding.gyp: the package ships only a cmake-js build that vendors faiss.
#    The force-included header supplies faiss::idx_t, which faiss 1.7.3 only has as
#    faiss::Index::idx_t (1.7.4 moved it; redeclaring the same alias is harmless there).
cat >"$pkg/faiss-idx-compat.h" <<'EOF'
#include <cstdint>
namespace faiss { using idx_t = int64_t; }
EOF
cat >"$pkg/binding.gyp" <<'EOF'
{
  "targets": [{
    "target_name": "faiss-node",
    "sources": ["src/faiss.cc"],
    "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
    "defines": ["NAPI_VERSION=6"],
    "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
    "cflags_cc": ["-std=c++17", "-fexceptions", "-frtti", "-fopenmp", "-w",
                  "-include", "<(module_root_dir)/faiss-idx-compat.h"],
    "libraries": ["-lfaiss", "-fopenmp", "-llapack", "-lblas"]
  }]
}
EOF

echo "build-faiss: compiling the faiss-node binding (about 10 s)..."
log="$(mktemp)"
if ! (cd "$pkg" && node "$gyp" rebuild "${nodedir_arg[@]}") >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  rm -f "$log"
  skip "node-gyp rebuild failed (log tail above)"
fi
rm -f "$log"

loads || skip "the binding compiled but does not load or search correctly"
echo "build-faiss: ok: faiss-node IndexFlatIP built against $(dpkg-query -W -f='libfaiss-dev ${Version}' libfaiss-dev 2>/dev/null || echo 'the system faiss')."
