import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_LIMITS, LIMIT_FLAGS, type InputLimits } from '../util/limits.ts';

const DESCRIPTIONS: Record<keyof InputLimits, string> = {
  maxFileBytes: 'largest input file read, in bytes',
  maxTextChars: 'longest string (description, message, summary, any field or key), in characters',
  maxDepth: 'deepest nesting of objects and arrays in a JSON input',
  maxTools: 'most tools in a catalog',
  maxTurns: 'most turns in one task',
};

function parsePositive(value: string): number {
  const n = Number(value.replaceAll('_', ''));
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

/** Adds the input-limit flags (src/util/limits.ts) to a command that reads user files. */
export function addLimitOptions(cmd: Command): Command {
  for (const key of Object.keys(LIMIT_FLAGS) as (keyof InputLimits)[]) {
    cmd.addOption(
      new Option(`${LIMIT_FLAGS[key]} <n>`, `input limit: ${DESCRIPTIONS[key]}`).default(DEFAULT_LIMITS[key]).argParser(parsePositive),
    );
  }
  return cmd;
}

/** The limits from a command's parsed options (commander's camelCase keys are InputLimits' keys). */
export function limitsFromOptions(o: Partial<InputLimits>): InputLimits {
  return {
    maxFileBytes: o.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes,
    maxTextChars: o.maxTextChars ?? DEFAULT_LIMITS.maxTextChars,
    maxDepth: o.maxDepth ?? DEFAULT_LIMITS.maxDepth,
    maxTools: o.maxTools ?? DEFAULT_LIMITS.maxTools,
    maxTurns: o.maxTurns ?? DEFAULT_LIMITS.maxTurns,
  };
}
