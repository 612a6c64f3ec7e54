import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * State that outlives a run belongs in the run's context, with its owner, not at module level: a
 * module-level Map, WeakMap or Set (a constant lookup table, UPPER_CASE or typed Readonly*, is
 * not state), or a module-level `let`, which a memo of the last answer or a value read once
 * becomes. A memo is declared with runCache and reached with cached() (src/util/run-scope.ts).
 * What is left at module level is the process's own, each with why it is not a run's: the list
 * may only shrink. A new one fails here; one moved into a run's context must leave the list.
 */
const PROCESS_RESOURCES: Readonly<Record<string, string>> = {
  'src/util/process-shared.ts buffers': 'shared memory every thread of the process views',
  'src/util/ts-worker.ts compiled': 'the compiled worker modules, files named by the hash of their text',
  'src/report/charts/png.ts rsvgCache': 'whether the rsvg-convert fallback runs here, probed once',
  'src/retrieval/score-store.ts unwritten': 'scores not yet written to disk, held only until written',
  'src/embed/worker-pool.ts pools': 'live embedding threads, ended when the process ends',
  'src/index/optional-native.ts loaded': 'optional native packages, loaded once per process',
  'src/mcp/process-group-transport.ts liveGroups': 'live child process groups, killed when the process ends',
  // Module-level `let`s.
  'src/util/sgemm-addon.ts loaded': 'the native sgemm addon, loaded once per thread (or why it cannot be)',
  'src/report/charts/png.ts resvgCache': 'the resvg native package with its fonts, loaded once (or why it cannot be)',
  'src/live/sandbox.ts compiled': "QuickJS's WebAssembly module, compiled once per process and handed to each thread",
  'src/mcp/capture.ts sdk': "the MCP SDK's modules, imported once",
  'src/embed/use-lite.ts kernelsRouted': "this thread's tfjs kernel routing: tfjs's kernel registry is global to the thread",
  'src/embed/embed-worker.ts queue': "the embedding thread's requests, answered in order",
  'src/util/json-file.ts ajv': "one Ajv, holding the compiled validators of the file formats' constant schemas",
  'src/results/format.ts validators': 'the compiled validators of the results schemas (constants)',
  'src/report/vega-bundle.ts cached': 'the vega-embed bundle built from the installed packages, its file named by their versions',
  'src/retrieval/score-store.ts exitHookAdded': "whether the process's exit hook that flushes scores is added",
  'src/util/files.ts tempCounter': 'a counter that makes temporary file names unique in the process',
  'src/util/vector-segments.ts segmentCounter': 'a counter that makes segment file names unique in the process',
  'src/cli.ts settled': "whether the command's promise settled, read when the process exits",
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
/** Module-level (unindented) `let x`, whatever it holds. */
const MODULE_LET = /^(?:export )?let ([A-Za-z_][A-Za-z0-9_]*)/gm;

function moduleCaches(): string[] {
  const found = sourceFiles('src').flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const at = (name: string) => `${file.split('\\').join('/')} ${name}`;
    return [
      ...[...text.matchAll(MODULE_COLLECTION)]
        .filter((m) => !/^[A-Z][A-Z0-9_]*$/.test(m[1]!) && !/Readonly/.test(m[2] ?? ''))
        .map((m) => at(m[1]!)),
      ...[...text.matchAll(MODULE_LET)].map((m) => at(m[1]!)),
    ];
  });
  return [...new Set(found)];
}

describe('module-level caches', () => {
  const found = moduleCaches();

  it('sees the ones it lists (the check is not looking at nothing)', () => {
    expect(found.length).toBeGreaterThan(0);
    expect(found).toContain('src/cli.ts settled');
    // A memo of the last answer is a module-level `let`; a function's own `let` is not.
    const sample = 'let last: string | undefined;\nexport let count = 0;\nfunction f() {\n  let local = 1;\n}\n';
    expect([...sample.matchAll(MODULE_LET)].map((m) => m[1])).toEqual(['last', 'count']);
  });

  it('adds none: run state lives in the run', () => {
    expect(found.filter((c) => !MODULE_CACHES_LEFT.includes(c))).toEqual([]);
  });

  it('lists only the ones still there (the list shrinks with the code)', () => {
    expect(MODULE_CACHES_LEFT.filter((c) => !found.includes(c))).toEqual([]);
  });
});
