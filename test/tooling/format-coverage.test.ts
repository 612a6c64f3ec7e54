import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getFileInfo } from 'prettier';
import { describe, expect, it } from 'vitest';

/**
 * `npm run lint` runs `prettier --check .`: .prettierignore must hide the generated outputs and
 * data at the top level (results/, reports/, tasks/, ...), never a source file that happens to
 * sit in a folder of the same name (src/results/, src/tasks/, test/tasks/).
 */
const SOURCE_ROOTS = ['src', 'test', 'scripts'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : tsFiles(p);
    return p.endsWith('.ts') || p.endsWith('.mjs') ? [p] : [];
  });
}

describe('format check coverage', () => {
  it('checks every TypeScript file under src/, test/ and scripts/', async () => {
    const files = SOURCE_ROOTS.flatMap(tsFiles);
    expect(files).toContain(join('src', 'results', 'write.ts'));
    expect(files).toContain(join('src', 'tasks', 'load.ts'));
    const ignored: string[] = [];
    for (const file of files) if ((await getFileInfo(file, { ignorePath: '.prettierignore' })).ignored) ignored.push(file);
    expect(ignored).toEqual([]);
  });

  it('still leaves the generated top-level folders out', async () => {
    for (const file of ['results/run.json', 'reports/index.html', 'tasks/tasks.jsonl', 'catalogs/real/github.json'])
      expect((await getFileInfo(file, { ignorePath: '.prettierignore' })).ignored, file).toBe(true);
  });
});
