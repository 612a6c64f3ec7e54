#!/usr/bin/env bash
# The installable CLI as a user gets it: `npm pack` (which builds dist/), the tarball's file list,
# then an install of the tarball into an empty project from the npm registry alone, and the CLI
# run there through npx with no tsx anywhere on the PATH: budget --from-config (the three MCP
# servers of the devDependencies), lint, catalog and bench --quick. A second project installs
# without the optional dependencies (no encoder, no chart stack) and runs budget, lint and every
# command's --help. Then the GitHub Action's steps run against the tarball (scripts/check-action.ts).
# Usage: bash scripts/check-pack.sh [scratch folder]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-${TMPDIR:-/tmp}/tooltax-pack}"
rm -rf "$work"
mkdir -p "$work"
say() { echo "check-pack: $*"; }

tarball="$(cd "$repo" && npm pack --silent --pack-destination "$work" | tail -n 1)"
say "packed $tarball ($(du -h "$work/$tarball" | cut -f1))"
tar -tzf "$work/$tarball" | sed 's|^package/||' | sort > "$work/files.txt"
# Exactly what `files` names (plus what npm always adds): nothing of the repository's tests, results or sources.
unexpected="$(grep -Ev '^(dist/.*\.js|assets/fonts/.*|catalogs/(synthetic-120|real|livemcpbench)/.*|tasks/(calibration\.jsonl|real/.*|livemcpbench/.*)|scripts/postinstall\.mjs|docs/(budget|lint)\.md|CHANGELOG\.md|README\.md|package\.json)$' "$work/files.txt" || true)"
if [ -n "$unexpected" ]; then echo "check-pack: the tarball holds files outside 'files':"; echo "$unexpected" | head -20; exit 1; fi
grep -qx 'dist/cli.js' "$work/files.txt" || { say "no dist/cli.js in the tarball"; exit 1; }
say "$(wc -l < "$work/files.txt") files, all under 'files'"

# An MCP client config naming the repository's three test servers by absolute path.
mkdir -p "$work/served"
echo "a file to list" > "$work/served/note.txt"
cat > "$work/mcp.json" <<JSON
{"mcpServers": {
  "filesystem": {"command": "node", "args": ["$repo/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "$work/served"]},
  "memory": {"command": "node", "args": ["$repo/node_modules/@modelcontextprotocol/server-memory/dist/index.js"], "env": {"MEMORY_FILE_PATH": "$work/memory.jsonl"}},
  "everything": {"command": "node", "args": ["$repo/node_modules/@modelcontextprotocol/server-everything/dist/index.js"]}
}}
JSON

# node and npm, and the project's own .bin: no tsx (it is a devDependency of the repository only).
node_dir="$(dirname "$(command -v node)")"
run_in() { # <project> <command...>
  local dir="$1"
  shift
  (cd "$dir" && env PATH="$dir/node_modules/.bin:$node_dir:/usr/bin:/bin" "$@")
}

install_into() { # <project> [npm install flags...]
  local dir="$1"
  shift
  mkdir -p "$dir"
  (cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund "$@" "$work/$tarball" > "$dir/install.log" 2>&1) || {
    say "install into $dir failed:"
    tail -n 30 "$dir/install.log"
    exit 1
  }
  if run_in "$dir" sh -c 'command -v tsx' >/dev/null; then say "tsx is on the PATH in $dir"; exit 1; fi
  say "installed into $dir ($(du -sh "$dir/node_modules" | cut -f1), $(find "$dir/node_modules" -name package.json -path '*/node_modules/*/package.json' -not -path '*/node_modules/*/node_modules/*/node_modules/*' | wc -l) package.json files)"
}

full="$work/full"
install_into "$full"
run_in "$full" npx --no-install @tooltax/cli budget --from-config "$work/mcp.json" --max-tool-tokens 100000 --badge "$work/badge.json" > "$work/budget.txt"
head -n 1 "$work/budget.txt"
run_in "$full" npx --no-install @tooltax/cli lint --catalog "$repo/catalogs/real/github.json" --fail-on never > "$work/lint.txt"
head -n 1 "$work/lint.txt"
run_in "$full" npx --no-install @tooltax/cli catalog > "$work/catalog.txt"
run_in "$full" npx --no-install @tooltax/cli bench --quick --out "$work/results" --reports "$work/reports" > "$work/bench.txt"
ls "$work/reports/tables.md" >/dev/null
say "full install: budget, lint, catalog and bench --quick ran"

light="$work/light"
install_into "$light" --omit=optional
run_in "$light" npx --no-install @tooltax/cli budget --from-config "$work/mcp.json" --host all > "$work/budget-light.txt"
run_in "$light" npx --no-install @tooltax/cli lint --from-config "$work/mcp.json" --fail-on never > "$work/lint-light.txt"
# Every command starts there; one that needs an omitted package names it in one line.
for args in "--help" "--version" "bench --help" "retrieval --help" "live --help" "report --help"; do
  # shellcheck disable=SC2086
  run_in "$light" npx --no-install @tooltax/cli $args > "$work/help-light.txt" 2>&1 || { say "light install: tooltax $args failed:"; cat "$work/help-light.txt"; exit 1; }
done
if run_in "$light" npx --no-install @tooltax/cli bench --quick --out "$work/light-results" --reports "$work/light-reports" > "$work/bench-light.txt" 2>&1; then
  say "light install: bench --quick ran without its optional packages"; exit 1
fi
grep -q 'needs the optional package @energetic-ai/embeddings' "$work/bench-light.txt" || { say "light install: bench did not name the package to add:"; tail -n 5 "$work/bench-light.txt"; exit 1; }
say "light install (--omit=optional): budget and lint ran, every command's --help starts, bench names the package it needs"

# The GitHub Action's steps in a scratch repository: this tarball, and the CLI built from the action's own checkout.
(cd "$repo" && npx tsx scripts/check-action.ts "$work/$tarball" "$work/action")
