#!/usr/bin/env -S npx tsx
import { reportUserError } from './commands/user-error.ts';
import { exitWithParent } from './commands/orphan-guard.ts';
import { tooltaxProgram } from './commands/program.ts';

const program = await tooltaxProgram(process.argv.slice(2), { root: process.cwd(), log: (line) => console.log(line) });

// Errors reach the user as one line (exit 2 for bad input, 1 otherwise); stacks only with --debug.
const debug = process.argv.includes('--debug');
process.on('uncaughtException', (err) => reportUserError(err, { debug }));
process.on('unhandledRejection', (err) => reportUserError(err, { debug }));
exitWithParent();
program.parseAsync(process.argv).catch((err: unknown) => reportUserError(err, { debug }));
