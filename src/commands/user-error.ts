import { MiniLmUnavailableError } from '../embed/minilm.ts';
import { InputError } from '../util/input-error.ts';
import { BudgetUsageError } from './budget.ts';
import { UnknownIdError } from '../util/ids.ts';
import { HostUsageError } from './host-options.ts';
import { terminalText } from '../report/escape.ts';
import { MissingOptionalPackageError } from '../util/optional-package.ts';

export interface ErrorReporting {
  /** Print the stack too (`--debug`). */
  debug: boolean;
  /** Bad input (exit 2); anything else is a failure of ours or of the machine (exit 1). */
  isUserError?: (err: unknown) => boolean;
}

/** Bad input from the user (a file, an option): exit 2 and no pointer to --debug. */
function isUserError(err: unknown): boolean {
  return (
    err instanceof InputError ||
    err instanceof MiniLmUnavailableError ||
    err instanceof BudgetUsageError ||
    err instanceof UnknownIdError ||
    err instanceof HostUsageError ||
    err instanceof MissingOptionalPackageError
  );
}

/**
 * What an error shows the user: one line on stderr (the stack trace follows only with --debug),
 * and the exit status, 2 for bad input, 1 for anything else.
 */
export function userErrorReport(err: unknown, how: ErrorReporting): { text: string; exitCode: 1 | 2 } {
  const e = err instanceof Error ? err : new Error(String(err));
  // A user error is one line by construction: a newline in it comes from the input (a tool name) and is shown.
  const firstLine = (how.isUserError ?? isUserError)(err)
    ? terminalText(e.message.trim(), 'one-line')
    : terminalText((e.message.split('\n').find((l) => l.trim()) ?? e.name).trim());
  const code = (e as NodeJS.ErrnoException).code;
  const user = (how.isUserError ?? isUserError)(err);
  const line = user
    ? `error: ${firstLine}`
    : `error: ${code && !firstLine.includes(code) ? `${code}: ` : ''}${firstLine}${how.debug ? '' : ' (run with --debug for the stack trace)'}`;
  return { text: `${line}\n${how.debug && e.stack ? `${terminalText(e.stack)}\n` : ''}`, exitCode: user ? 2 : 1 };
}

/** Prints an error (userErrorReport) and exits, so a user never has to read our code to see what was wrong. */
export function reportUserError(err: unknown, how: ErrorReporting): never {
  const { text, exitCode } = userErrorReport(err, how);
  process.stderr.write(text);
  process.exit(exitCode);
}
