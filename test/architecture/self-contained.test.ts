import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveMcpBenchCatalogDir, liveMcpBenchTasksFile, realPrimaryDumps, realQueriesFile } from '../../src/catalog/bundled.ts';
import { loadCatalog } from '../../src/catalog/load.ts';

// A user clones the repository alone: nothing beside it. Code, tests, scripts and CI must not
// reach for a sibling `shared` folder; the data they need ships in catalogs/ and tasks/.

const DIRS = ['src', 'test', 'scripts', '.ci'];
// `..` followed by `shared`, as a path in any quoting or as separate path.join arguments.
const SIBLING_SHARED = /\.\.[/\\]shared(?![\w-])|['"`]\.\.['"`]\s*,\s*['"`]shared['"`]|\/work\/shared\b/;

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8', withFileTypes: false })
    .map((f) => join(dir, f))
    .filter((f) => /\.(ts|mts|mjs|js|json|sh|md)$/.test(f) || f === join('.ci', 'run'));
}

describe('the repository is self-contained', () => {
  it('no file under src/, test/, scripts/ or .ci/ reads ../shared', () => {
    const offenders = DIRS.flatMap(files).filter(
      (f) => f !== join('test', 'architecture', 'self-contained.test.ts') && SIBLING_SHARED.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('the pattern catches the forms a path to ../shared takes', () => {
    for (const text of ["join('..', 'shared', 'x')", "resolve(root, '..', 'shared')", '"../shared/real-catalogs"', '/work/shared/x'])
      expect(SIBLING_SHARED.test(text), text).toBe(true);
    expect(SIBLING_SHARED.test("import '../shared-parts.ts'")).toBe(false);
  });

  it('ships the real dumps, the real query set and the LiveMCPBench development half with their licences', () => {
    const root = process.cwd();
    expect(loadCatalog(realPrimaryDumps(root)).tools).toHaveLength(267);
    expect(readFileSync(realQueriesFile(root), 'utf8').length).toBeGreaterThan(0);
    expect(readdirSync(liveMcpBenchCatalogDir(root)).filter((f) => f.endsWith('.json'))).toHaveLength(70);
    expect(readFileSync(liveMcpBenchTasksFile(root), 'utf8').trim().split('\n')).toHaveLength(47);
    for (const f of [
      'catalogs/real/LICENSES.md',
      'catalogs/real/README.md',
      'catalogs/livemcpbench/LICENSE',
      'catalogs/livemcpbench/README.md',
    ])
      expect(readFileSync(f, 'utf8').length, f).toBeGreaterThan(100);
  });
});
