import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specFromCommandLine } from '../../src/mcp/config.ts';
import { captureExitCode, captureToDir } from '../../src/mcp/dump.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * Broken servers (an SDK server of our own) and commands that are no server, captured one
 * after another with a 3 s timeout. In a file of its own, not among the concurrent live tests
 * (live-remote.test.ts): there, several servers and CLIs starting at once on a 2-core machine
 * could keep the good server from answering within the 3 s.
 */
const PAGED = join(process.cwd(), 'test', 'fixtures', 'mcp', 'paged-server.mjs');

describe('failing servers (an SDK server of our own, and commands that are no server)', () => {
  const node = (args: string) => `'${process.execPath}' ${args}`;

  it('names each failing server in one line and still captures the others', async () => {
    const out = join(makeTempDir('tooltax-live-test-'), 'mixed');
    const specs = [
      specFromCommandLine(node(`${PAGED} paged`), 0),
      specFromCommandLine('tooltax-no-such-command-xyz --flag', 1),
      specFromCommandLine(node('-e "process.exit(3)"'), 2),
      specFromCommandLine(node('-e "setInterval(() => {}, 1000)"'), 3),
      specFromCommandLine(node(`${PAGED} invalid`), 4),
      specFromCommandLine(node(`${PAGED} loop`), 5),
    ];
    const warnings: string[] = [];
    const outcome = await captureToDir(specs, out, { timeoutMs: 3_000, force: false, log: () => {}, warn: (l) => warnings.push(l) });
    expect(outcome.written.map((w) => w.server)).toEqual(['paged-test-server']);
    expect(outcome.failures).toHaveLength(5);
    expect(outcome.failures[0]).toBe('server --from-server #2: cannot start "tooltax-no-such-command-xyz" (command not found)');
    expect(outcome.failures[1]).toBe('server --from-server #3: the server exited with status 3 during initialize');
    expect(outcome.failures[2]).toMatch(/^server --from-server #4: timed out after 3 s during initialize/);
    expect(outcome.failures[3]).toMatch(
      /^server --from-server #5: invalid tools\/list result on page 2: at \$\.tools\[0\]\.inputSchema: expected a JSON Schema object/,
    );
    expect(outcome.failures[4]).toMatch(
      /^server --from-server #6: invalid tools\/list result on page 2: nextCursor "again" was already returned/,
    );
    for (const f of outcome.failures) expect(f).not.toContain('\n');
    expect(warnings).toEqual(outcome.failures.map((f) => `error: ${f}`));
    expect(captureExitCode(outcome)).toBe(1);
  });
});
