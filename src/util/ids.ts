import { didYouMean } from './nearest.ts';
/**
 * The one parser of every option that names registered things (pipelines, studies, retrievers,
 * tokenizers, encoders, providers, seeds): an unknown, empty or repeated id is refused while the
 * command line is parsed, before any work, in one line that lists the valid ones. Every command
 * uses it, so a typo reads the same wherever it is made.
 */
export interface IdKind {
  /** What one id names, for messages: `pipeline`, `retriever`. */
  noun: string;
  /** The registered ids, in their registry's order. */
  ids: readonly string[];
  /** Ids of a further form, accepted beyond the list (`dense:<model directory>`), and how to name it. */
  also?: { accepts: (id: string) => boolean; form: string };
}

/**
 * Why ids are refused, or undefined when every id is known and given once. `list`: the option
 * takes a comma-separated list (the message says so).
 */
export function idListProblem(values: readonly string[], kind: IdKind, list = true): string | undefined {
  const seen = new Set<string>();
  for (const id of values) {
    if (id === '') return `an empty ${kind.noun} id; expected ${expected(kind, list)}`;
    if (!kind.ids.includes(id) && !kind.also?.accepts(id))
      return `unknown ${kind.noun} ${JSON.stringify(id)}${didYouMean(id, kind.ids)}; expected ${expected(kind, list)}`;
    if (seen.has(id)) return `${kind.noun} ${JSON.stringify(id)} given twice; expected each at most once`;
    seen.add(id);
  }
  return undefined;
}

/** The ids of a comma-separated value (`a, b` as `a`, `b`), as given. */
export function splitIds(value: string): string[] {
  return value.split(',').map((v) => v.trim());
}

/** Thrown by a program that is given ids it does not know (runBench's `studies`): one line, exit 2. */
export class UnknownIdError extends Error {
  override name = 'UnknownIdError';
}

/** The same check for ids given in code rather than on the command line. */
export function checkIds(option: string, values: readonly string[], kind: IdKind): void {
  const problem = idListProblem(values, kind);
  if (problem) throw new UnknownIdError(`${option}: ${problem}`);
}

function expected(kind: IdKind, several: boolean): string {
  const list = [...kind.ids, ...(kind.also ? [kind.also.form] : [])].join(', ');
  return several ? `comma-separated ${kind.noun} ids among ${list}` : `one of ${list}`;
}
