import { expect } from 'vitest';
import { tooltaxProgram } from '../../src/commands/program.ts';
import { userErrorReport } from '../../src/commands/user-error.ts';

class Exit {
  constructor(readonly code: number) {}
}

/**
 * The tooltax command line run in this process: what src/cli.ts does with the same arguments,
 * without a child process (a usage error, or an error an action throws, as src/cli.ts reports it).
 * `stdout` is everything printed on stdout (log lines and what a command writes: a report, JSON); `code` is the status
 * the process would end with.
 */
export async function cliInProcess(
  args: string[],
  root = process.cwd(),
): Promise<{ code: number; stdout: string; stderr: string; log: string[] }> {
  const log: string[] = [];
  let stdout = '';
  let stderr = '';
  let status = 0;
  const program = await tooltaxProgram(args, {
    root,
    // src/cli.ts prints log lines on stdout too, in order with what the command writes.
    log: (line) => {
      log.push(line);
      stdout += `${line}\n`;
    },
    write: (text) => (stdout += text),
    warn: (line) => (stderr += `${line}\n`),
    writeErr: (text) => (stderr += text),
    setExitCode: (code) => (status = code),
    exit: (code) => {
      throw new Exit(code);
    },
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: status, stdout, stderr, log };
  } catch (err) {
    if (err instanceof Exit) return { code: err.code, stdout, stderr, log };
    const report = userErrorReport(err, { debug: false });
    return { code: report.exitCode, stdout, stderr: stderr + report.text, log };
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
