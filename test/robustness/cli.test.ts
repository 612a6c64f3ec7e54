import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { makeTempDir } from '../helpers/temp.ts';
import { cli, expectOneLineError } from './cli-helpers.ts';

/**
 * Two representative hostile inputs through the real CLI (the rest run in-process in
 * hostile-inputs.test.ts; more CLI cases and whole runs in *.e2e.ts, `npm run test:e2e`): each must exit 2 with exactly one line on stderr and no stack trace,
 * within CLI_BOUND_MS (cli-helpers.ts).
 */
describe.concurrent('hostile inputs through the CLI', () => {
  const dir = makeTempDir('tooltax-cli-hostile-');

  it('catalog: a directory named x.json inside the catalog folder', async () => {
    const folder = join(dir, 'catalog');
    mkdirSync(join(folder, 'x.json'), { recursive: true });
    writeFileSync(join(folder, 'a.json'), JSON.stringify({ tools: [{ name: 'a', inputSchema: {} }] }));
    expectOneLineError(await cli(['catalog', '--catalog', folder]), /x\.json: at \(root\): expected a regular file, found a directory/);
  });

  it('bench --quick: a schema nested 5,000 deep', async () => {
    const deep = `${'{"type":"object","properties":{"x":'.repeat(5000)}{}${'}}'.repeat(5000)}`;
    const file = join(dir, 'deep.json');
    writeFileSync(file, `{"tools":[{"name":"deep","inputSchema":${deep}}]}`);
    expectOneLineError(
      await cli(['bench', '--quick', '--catalog', file, '--out', join(dir, 'r'), '--reports', join(dir, 'p')]),
      /--max-depth/,
    );
  });
});
