import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIVEMCPBENCH_SUITE, REAL_SUITE, realPrimaryDumps } from '../../src/table/suites.ts';
import { loadCatalog } from '../../src/catalog/load.ts';

// A user clones the repository alone: nothing beside it. Code, tests, scripts and CI must not
// reach for a sibling `shared` folder; the data they need ships in catalogs/ and tasks/.

const DIRS = ['src', 'test', 'scripts', '.ci'];
// The folder's name is put together here, so this file does not itself contain the paths it looks for.
const NAME = ['sha', 'red'].join('');
// `..` followed by the folder, as a path in any quoting, as separate path.join arguments, or absolute.
const SIBLING_SHARED = new RegExp(
  [
    String.raw`\.\.[/\\]${NAME}(?![\w-])`,
    String.raw`['"\x60]\.\.['"\x60]\s*,\s*['"\x60]${NAME}['"\x60]`,
    String.raw`\/work\/${NAME}\b`,
  ].join('|'),
);

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8', withFileTypes: false })
    .map((f) => join(dir, f))
    .filter((f) => /\.(ts|mts|mjs|js|json|sh|md)$/.test(f) || f === join('.ci', 'run'));
}

describe('the repository is self-contained', () => {
  it('no file under src/, test/, scripts/ or .ci/ reads the sibling folder CI lays beside the clone', () => {
    const offenders = DIRS.flatMap(files).filter(
      (f) => f !== join('test', 'architecture', 'self-contained.test.ts') && SIBLING_SHARED.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('the pattern catches the forms a path to that folder takes', () => {
    for (const text of [`join('..', '${NAME}', 'x')`, `resolve(root, '..', "${NAME}")`, `"../${NAME}/real-catalogs"`, `/work/${NAME}/x`])
      expect(SIBLING_SHARED.test(text), text).toBe(true);
    expect(SIBLING_SHARED.test(`import '../${NAME}-parts.ts'`)).toBe(false);
  });

  it('ships the real dumps, the real query set and the LiveMCPBench development half with their licences', () => {
    const root = process.cwd();
    expect(loadCatalog(realPrimaryDumps(root)).tools).toHaveLength(267);
    expect(readFileSync(REAL_SUITE.data!.tasks(root), 'utf8').length).toBeGreaterThan(0);
    expect(readdirSync(LIVEMCPBENCH_SUITE.data!.catalog(root) as string).filter((f) => f.endsWith('.json'))).toHaveLength(70);
    expect(readFileSync(LIVEMCPBENCH_SUITE.data!.tasks(root), 'utf8').trim().split('\n')).toHaveLength(47);
    for (const f of [
      'catalogs/real/LICENSES.md',
      'catalogs/real/README.md',
      'catalogs/livemcpbench/LICENSE',
      'catalogs/livemcpbench/README.md',
    ])
      expect(readFileSync(f, 'utf8').length, f).toBeGreaterThan(100);
  });
});
