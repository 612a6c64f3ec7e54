import { InvalidArgumentError } from 'commander';
import { outputDirProblem } from '../results/output-dir.ts';

/** Commander's parser of an output-folder option: refused before the command starts (commander's message names the option). */
export function parseOutputDir(value: string): string {
  const problem = outputDirProblem(value);
  if (problem) throw new InvalidArgumentError(`expected a folder to write into, found ${problem}`);
  return value;
}
