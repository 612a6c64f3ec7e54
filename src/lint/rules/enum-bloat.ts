import type { McpTool } from '../../catalog/types.ts';
import { eachSubschema, mapSubschemas } from '../schema.ts';
import { findingFor, type LintRule } from '../types.ts';
import { tokensSaved } from './tokens.ts';

/** An enum longer than this is a list the model reads on every turn. */
const ENUM_MAX = 20;
/** Annotation keywords that hold sample values: no validator reads them (`example` is OpenAPI's). */
const EXAMPLE_KEYWORDS = ['examples', 'example'];
const SCHEMAS = ['inputSchema', 'outputSchema'] as const;

function withoutKeywords(def: McpTool, drop: (s: Record<string, unknown>) => string[]): McpTool {
  const out: McpTool = { ...def };
  for (const k of SCHEMAS)
    if (def[k] !== undefined)
      out[k] = mapSubschemas(def[k], (s) => {
        const gone = drop(s);
        return gone.length ? Object.fromEntries(Object.entries(s).filter(([kw]) => !gone.includes(kw))) : s;
      }) as McpTool['inputSchema'];
  return out;
}

function hasExamples(def: McpTool): boolean {
  let found = false;
  for (const k of SCHEMAS) eachSubschema(def[k], (s) => (found ||= EXAMPLE_KEYWORDS.some((kw) => Object.hasOwn(s, kw))));
  return found;
}

function longEnums(def: McpTool): { path: string; values: number }[] {
  const out: { path: string; values: number }[] = [];
  eachSubschema(def.inputSchema, (s, path) => {
    if (Array.isArray(s.enum) && s.enum.length > ENUM_MAX) out.push({ path, values: s.enum.length });
  });
  return out;
}

/** Sample values inside schemas (`examples`), and enums too long to read every turn. */
export const enumBloat: LintRule = {
  id: 'enum-bloat',
  severity: 'warning',
  summary: `schema \`examples\` the model reads every turn, and enums of more than ${ENUM_MAX} values`,
  check(ctx) {
    return ctx.catalog.tools.flatMap((t) => {
      const out = [];
      const def = t.definition;
      if (hasExamples(def))
        out.push(
          findingFor(this, t, {
            problem: 'schema `examples` (annotations no validator reads) sent with the definition',
            fix: 'drop them, or fold one short example into the parameter’s description',
            recoverable: tokensSaved(ctx, def, this.fix!(def, ctx)!),
          }),
        );
      const enums = longEnums(def);
      if (enums.length) {
        const trimmed = withoutKeywords(def, (s) => (Array.isArray(s.enum) && s.enum.length > ENUM_MAX ? ['enum'] : []));
        out.push(
          findingFor(this, t, {
            problem: `${enums.length} enum(s) of ${enums.map((e) => e.values).join(', ')} values (${enums.map((e) => e.path).join(', ')})`,
            fix: 'name the common values in the description and check the rest on the server (its error can list them), or split the tool',
            recoverable: tokensSaved(ctx, def, trimmed),
            mechanical: false,
          }),
        );
      }
      return out;
    });
  },
  fix(def) {
    if (!hasExamples(def)) return undefined;
    return withoutKeywords(def, (s) => EXAMPLE_KEYWORDS.filter((kw) => Object.hasOwn(s, kw)));
  },
};
