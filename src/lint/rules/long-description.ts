import type { McpTool } from '../../catalog/types.ts';
import { firstSentence } from '../../pipelines/adol/short-mode.ts';
import { findingFor, type LintContext, type LintRule } from '../types.ts';
import { tokensSaved } from './tokens.ts';

/** Over this many characters a description is long whatever its share (the `--max-description` default). */
const LONG_DESCRIPTION_CHARS = 1024;
/** A description at least this share of its definition's tokens dominates it... */
const DOMINANT_SHARE = 0.5;
/** ...when it is at least this many tokens (a one-line tool is mostly its description anyway). */
const DOMINANT_MIN_TOKENS = 80;

/** The description ADOL's short mode keeps: its first sentence; undefined when that is all of it. */
function shortened(def: McpTool): string | undefined {
  const d = def.description;
  if (typeof d !== 'string') return undefined;
  const first = firstSentence(d);
  return first && first !== d.trim() ? first : undefined;
}

function why(def: McpTool, ctx: LintContext): string | undefined {
  const d = def.description;
  if (typeof d !== 'string' || shortened(def) === undefined) return undefined;
  if (d.length > LONG_DESCRIPTION_CHARS)
    return `a description of ${d.length.toLocaleString('en-US')} characters (over ${LONG_DESCRIPTION_CHARS})`;
  const own = ctx.host.tokens.count(d);
  const all = ctx.host.toolTokens(def);
  if (own >= DOMINANT_MIN_TOKENS && own >= DOMINANT_SHARE * all)
    return `a description of ${own} tokens, ${Math.round((100 * own) / all)}% of the definition's ${all}`;
  return undefined;
}

/** A long description that dominates the definition: ADOL's short mode keeps its first sentence. */
export const longDescription: LintRule = {
  id: 'long-description',
  severity: 'warning',
  summary: `a description over ${LONG_DESCRIPTION_CHARS} characters, or of ${DOMINANT_MIN_TOKENS}+ tokens that is half the definition or more`,
  check(ctx) {
    return ctx.catalog.tools.flatMap((t) => {
      const problem = why(t.definition, ctx);
      if (!problem) return [];
      return [
        findingFor(this, t, {
          problem,
          fix: 'keep the first sentence (ADOL short form); move usage notes into the parameters’ descriptions or the server’s docs',
          recoverable: tokensSaved(ctx, t.definition, this.fix!(t.definition, ctx)!),
        }),
      ];
    });
  },
  fix(def, ctx) {
    if (!why(def, ctx)) return undefined;
    return { ...def, description: shortened(def)! };
  },
};
