import { terminalText } from '../report/escape.ts';

export interface ErrorReporting {
  /** Print the stack too (`--debug`). */
  debug: boolean;
  /** Bad input (exit 2); anything else is a failure of ours or of the machine (exit 1). */
  isUserError: (err: unknown) => boolean;
}

/**
 * Prints an error as one line on stderr and exits: 2 for bad input, 1 for anything else. A
 * stack trace is printed only with --debug, so a user never has to read our code to see what
 * was wrong.
 */
export function reportUserError(err: unknown, how: ErrorReporting): never {
  const e = err instanceof Error ? err : new Error(String(err));
  // A user error is one line by construction: a newline in it comes from the input (a tool name) and is shown.
  const firstLine = how.isUserError(err)
    ? terminalText(e.message.trim(), 'one-line')
    : terminalText((e.message.split('\n').find((l) => l.trim()) ?? e.name).trim());
  const code = (e as NodeJS.ErrnoException).code;
  if (how.isUserError(err)) console.error(`error: ${firstLine}`);
  else
    console.error(
      `error: ${code && !firstLine.includes(code) ? `${code}: ` : ''}${firstLine}${how.debug ? '' : ' (run with --debug for the stack trace)'}`,
    );
  if (how.debug && e.stack) console.error(terminalText(e.stack));
  process.exit(how.isUserError(err) ? 2 : 1);
}
