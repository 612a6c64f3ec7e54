import { InvalidArgumentError } from 'commander';
import { idListProblem, splitIds, type IdKind } from '../util/ids.ts';

/** Commander's parser of a comma-separated list of ids (`--pipelines a,b`). */
export function idListParser(kind: IdKind): (value: string) => string[] {
  return (value) => {
    const ids = splitIds(value);
    const problem = idListProblem(ids, kind);
    if (problem) throw new InvalidArgumentError(problem);
    return ids;
  };
}

/** Commander's parser of a single id (`--tokenizer o200k_base`). */
export function idParser<T extends string>(kind: IdKind & { ids: readonly T[] }): (value: string) => T {
  return (value) => {
    const problem = idListProblem([value.trim()], kind, false);
    if (problem) throw new InvalidArgumentError(problem);
    return value.trim() as T;
  };
}
