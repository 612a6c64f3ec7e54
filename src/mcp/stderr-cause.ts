/**
 * The line of a server's stderr that says why it did not start. Its last line is often no
 * cause at all (Node prints its version after an uncaught error), so: a Python traceback's
 * last line (the exception), else the first line that names an error (`Error:`,
 * `TypeError [CODE]:`, `Cannot find`, `ENOENT`), else the last line.
 */
export function stderrCause(stderr: string): { line: string; kind: 'error' | 'last' } | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) return undefined;
  const traceback = lines.findIndex((l) => l.startsWith('Traceback (most recent call last)'));
  if (traceback >= 0) {
    // The exception line is the first unindented line after the frames.
    const exception = lines.slice(traceback + 1).find((l) => !/^\s/.test(l));
    if (exception) return { line: exception.trim(), kind: 'error' };
  }
  const named = lines.find((l) => !/^\s+at /.test(l) && ERROR_LINE.test(l));
  return named ? { line: named.trim(), kind: 'error' } : { line: lines.at(-1)!.trim(), kind: 'last' };
}

/** `Error:`, `ModuleNotFoundError:`, `Error [ERR_MODULE_NOT_FOUND]:`, `Cannot find module`, `ENOENT`. */
const ERROR_LINE = /(^|[\s:])([A-Z]\w*)?(Error|Exception)( \[[A-Z_]+\])?:|Cannot find|\bENOENT\b/;
