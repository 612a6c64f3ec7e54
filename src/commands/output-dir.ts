import { InvalidArgumentError } from 'commander';
import { outputDirProblem } from '../results/output-dir.ts';
import { userPath } from './user-paths.ts';

/**
 * Commander's parser of an output-folder option: refused before the command starts (commander's
 * message names the option). The folder checked is the one the user means (user-paths.ts); the
 * value is returned as typed, and rewritten with the other paths before the command runs.
 */
export function parseOutputDir(value: string): string {
  const problem = outputDirProblem(userPath(value));
  if (problem) throw new InvalidArgumentError(`expected a folder to write into, found ${problem}`);
  return value;
}
