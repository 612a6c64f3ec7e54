import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * State that outlives a run belongs in the run's context, with its owner, not in a module-level
 * Map, WeakMap or Set (a constant lookup table, UPPER_CASE or typed Readonly*, is not state): a
 * memo is declared with runCache and reached with cached() (src/util/run-scope.ts). What is left
 * at module level is the process's own, each with why it is not a run's: the list may only
 * shrink. A new one fails here; one moved into a run's context must leave the list.
 */
const PROCESS_RESOURCES: Readonly<Record<string, string>> = {
  'src/util/process-shared.ts buffers': 'shared memory every thread of the process views',
  'src/util/ts-worker.ts compiled': 'the compiled worker modules, files named by the hash of their text',
  'src/report/charts/png.ts rsvgCache': 'whether the rsvg-convert fallback runs here, probed once',
  'src/retrieval/score-store.ts unwritten': 'scores not yet written to disk, held only until written',
  'src/embed/worker-pool.ts pools': 'live embedding threads, ended when the process ends',
  'src/index/optional-native.ts loaded': 'optional native packages, loaded once per process',
  'src/mcp/process-group-transport.ts liveGroups': 'live child process groups, killed when the process ends',
};
const MODULE_CACHES_LEFT = Object.keys(PROCESS_RESOURCES);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Module-level (unindented) `const x = new Map(…)` and the like, by file and name. */
const MODULE_COLLECTION = /^(?:export )?(?:const|let) ([A-Za-z_][A-Za-z0-9_]*)(: [^=]+)? = new (?:Map|WeakMap|Set|WeakSet)\b/gm;

function moduleCaches(): string[] {
  return sourceFiles('src').flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(MODULE_COLLECTION)]
      .filter((m) => !/^[A-Z][A-Z0-9_]*$/.test(m[1]!) && !/Readonly/.test(m[2] ?? ''))
      .map((m) => `${file.split('\\').join('/')} ${m[1]}`),
  );
}

describe('module-level caches', () => {
  const found = moduleCaches();

  it('sees the ones it lists (the check is not looking at nothing)', () => {
    expect(found.length).toBeGreaterThan(0);
  });

  it('adds none: run state lives in the run', () => {
    expect(found.filter((c) => !MODULE_CACHES_LEFT.includes(c))).toEqual([]);
  });

  it('lists only the ones still there (the list shrinks with the code)', () => {
    expect(MODULE_CACHES_LEFT.filter((c) => !found.includes(c))).toEqual([]);
  });
});
