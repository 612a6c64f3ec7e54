import { expect } from 'vitest';
import { tooltaxProgram } from '../../src/commands/program.ts';
import { userErrorReport } from '../../src/commands/user-error.ts';

class Exit {
  constructor(readonly code: number) {}
}

/**
 * The tooltax command line run in this process: what src/cli.ts does with the same arguments,
 * without a child process (a usage error, or an error an action throws, as src/cli.ts reports it).
 */
export async function cliInProcess(args: string[], root = process.cwd()): Promise<{ code: number; stderr: string; log: string[] }> {
  const log: string[] = [];
  let stderr = '';
  const program = await tooltaxProgram(args, {
    root,
    log: (line) => log.push(line),
    writeErr: (text) => (stderr += text),
    exit: (code) => {
      throw new Exit(code);
    },
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: 0, stderr, log };
  } catch (err) {
    if (err instanceof Exit) return { code: err.code, stderr, log };
    const report = userErrorReport(err, { debug: false });
    return { code: report.exitCode, stderr: stderr + report.text, log };
  }
}

/** Exit 2 and exactly one line on stderr, `error: ...` matching `pattern`. */
export function expectOneLine(r: { code: number; stderr: string }, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
}
