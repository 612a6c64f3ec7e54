import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp.ts';
import { cli, expectOneLineError } from './cli-helpers.ts';

/** More hostile inputs through the CLI (`npm run test:e2e`; bound: CLI_BOUND_MS each). */
describe.concurrent('more hostile inputs through the CLI', () => {
  const dir = makeTempDir('tooltax-cli-more-');

  it('bench --quick: a task file that is a directory', async () => {
    expectOneLineError(
      await cli([
        'bench',
        '--quick',
        '--catalog',
        'test/fixtures/small-catalog',
        '--tasks',
        dir,
        '--out',
        join(dir, 'r'),
        '--reports',
        join(dir, 'p'),
      ]),
      /expected a regular file, found a directory/,
    );
  });

  it('report: a results path that is a file', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    expectOneLineError(
      await cli(['report', '--results', file, '--reports', join(dir, 'p')]),
      /not-a-folder: .*expected a writable output folder/,
    );
  });

  it('a typo in an option value is one error line ending in a pointer to --help, not the whole help text', async () => {
    expectOneLineError(
      await cli(['bench', '--retriever', 'lerned']),
      /^error: option '--retriever <name>' argument 'lerned' is invalid\. unknown retriever "lerned" .* \(add --help for usage\)$/,
    );
  });

  it('prints the stack trace only with --debug', async () => {
    const r = await cli(['catalog', '--catalog', '/dev/zero', '--debug']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: \/dev\/zero: .*expected a regular file/);
    expect(r.stderr).toMatch(/^\s+at readInputFile /m);
  });

  it('catalog: /dev/zero, and a 1 MB description over the default limit', async () => {
    expectOneLineError(await cli(['catalog', '--catalog', '/dev/zero']), /expected a regular file, found a device, FIFO or socket/);
    const big = join(dir, 'big.json');
    writeFileSync(big, JSON.stringify({ tools: [{ name: 'a', description: 'w '.repeat(500_000), inputSchema: {} }] }));
    expectOneLineError(await cli(['catalog', '--catalog', big]), /--max-text-chars/);
  });
});
