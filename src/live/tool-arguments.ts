import { checkJsonLimits, DEFAULT_LIMITS } from '../util/limits.ts';

/**
 * Bounds on the arguments of one tool call a live model (or an endpoint posing as one) sends.
 * Far above any real call (a model writes at most `--max-tokens` per response); a call over
 * them is answered with a tool error and recorded as such, and its arguments are not kept: they
 * are neither validated nor sent back in the history, so nothing downstream recurses into them.
 */
const ARGUMENT_LIMITS = { maxChars: 1024 * 1024, maxDepth: 64 } as const;

export interface BoundedArguments {
  /** The arguments as written, or a short stand-in when they were over a limit. */
  argumentsText: string;
  /** Why they were not kept (over which limit). */
  overLimit?: string;
}

/** Arguments that arrived as JSON text (OpenAI-compatible): bounded in length and nesting without parsing them. */
export function boundArgumentsText(text: string): BoundedArguments {
  if (text.length > ARGUMENT_LIMITS.maxChars) return overLimit(`${text.length.toLocaleString('en-US')} characters`, 'maxChars');
  if (nestsDeeperThan(text, ARGUMENT_LIMITS.maxDepth)) return overLimit(`nesting deeper than ${ARGUMENT_LIMITS.maxDepth}`, 'maxDepth');
  return { argumentsText: text };
}

/** Arguments that arrived as a JSON value (Anthropic's `input`): depth checked before it is serialised. */
export function boundArgumentsValue(value: unknown): BoundedArguments {
  try {
    // The inputs' one size-and-depth guard, with these bounds (iterative: any nesting is safe).
    checkJsonLimits('arguments', '$', value, {
      ...DEFAULT_LIMITS,
      maxDepth: ARGUMENT_LIMITS.maxDepth,
      maxTextChars: ARGUMENT_LIMITS.maxChars,
    });
  } catch {
    return overLimit(
      `nesting deeper than ${ARGUMENT_LIMITS.maxDepth} or a string over ${ARGUMENT_LIMITS.maxChars.toLocaleString('en-US')} characters`,
      'maxDepth',
    );
  }
  return boundArgumentsText(JSON.stringify(value ?? {}));
}

function overLimit(found: string, limit: keyof typeof ARGUMENT_LIMITS): BoundedArguments {
  const max = limit === 'maxChars' ? `${ARGUMENT_LIMITS.maxChars.toLocaleString('en-US')} characters` : `depth ${ARGUMENT_LIMITS.maxDepth}`;
  const reason = `arguments of ${found}, over the limit of ${max}: not read`;
  return { argumentsText: JSON.stringify({ arguments_not_kept: reason }), overLimit: reason };
}

/** Whether a JSON text nests brackets deeper than `max` outside its strings (linear, no recursion). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\')
        i++; // skip the escaped character
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (++depth > max) return true;
    } else if (c === '}' || c === ']') depth--;
  }
  return false;
}
