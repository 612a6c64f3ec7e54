#!/usr/bin/env -S npx tsx
import { reportUserError } from './commands/user-error.ts';
import { exitWithParent } from './commands/orphan-guard.ts';
import { tooltaxProgram } from './commands/program.ts';
import { terminalText } from './report/escape.ts';
import { inRunScope } from './util/run-scope.ts';

// Everything printed goes through terminalText: tool text carries no control sequence to the terminal.
const program = await tooltaxProgram(process.argv.slice(2), { root: process.cwd(), log: (line) => console.log(terminalText(line)) });

// Errors reach the user as one line (exit 2 for bad input, 1 otherwise); stacks only with --debug.
const debug = process.argv.includes('--debug');
process.on('uncaughtException', (err) => reportUserError(err, { debug }));
process.on('unhandledRejection', (err) => reportUserError(err, { debug }));
exitWithParent();
// A command is one run: what it memoises is its own (src/util/run-scope.ts).
let settled = false;
// Node exits with status 0 when its event loop runs dry, even while a command still awaits a
// promise (say, on an unreferenced timer). A command that ends that way did not finish: never
// let it pass as a success in silence.
process.on('beforeExit', () => {
  if (settled) return;
  process.stderr.write('error: the command stopped before it finished (nothing left to wait on); this is a defect of tooltax\n');
  process.exit(1);
});
inRunScope(() => program.parseAsync(process.argv))
  .then(() => (settled = true))
  .catch((err: unknown) => reportUserError(err, { debug }));
