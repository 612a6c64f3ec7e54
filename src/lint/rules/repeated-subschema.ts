import type { McpTool } from '../../catalog/types.ts';
import { countByLine, dedupeTools, renderInternal, renderPlain, type DedupConfig } from '../../pipelines/adol/dedup.ts';
import { isPlainObject } from '../../pipelines/adol/json.ts';
import { findingFor, type LintRule } from '../types.ts';
import { tokensSaved } from './tokens.ts';

/**
 * Within one tool: property and `items` schemas only (a `required` or `enum` pointer is a JSON
 * Reference, not a JSON Schema `$ref`), hoisted into the inputSchema's own `$defs`, so the schema
 * stays self-contained and standard (`"$ref":"#/$defs/x"` resolves against the inputSchema).
 */
const IN_TOOL: DedupConfig = {
  kinds: { property: true, items: true, required: false, enum: false, 'input-schema': false, 'output-schema': false },
  minOccurrences: 2,
};

/** The tool with its inputSchema's repeated sub-schemas in `$defs`; undefined when nothing repeats or it would not be smaller. */
function inToolDefs(def: McpTool, tokens: Parameters<typeof dedupeTools>[2]): McpTool | undefined {
  const schema = def.inputSchema;
  if (!isPlainObject(schema)) return undefined;
  const { tools, defs } = dedupeTools([{ name: def.name, inputSchema: schema }], 'internal', tokens, IN_TOOL);
  if (!defs.length) return undefined;
  const deduped = tools[0]!.inputSchema;
  // Its own `$defs` (with any pointers the dedup put inside); a name it already defines would
  // change what its own pointers mean.
  const own = isPlainObject(deduped.$defs) ? deduped.$defs : {};
  if (defs.some((d) => Object.hasOwn(own, d.name))) return undefined;
  const $defs: Record<string, unknown> = { ...own };
  for (const d of defs) Object.defineProperty($defs, d.name, { value: d.value, enumerable: true, writable: true, configurable: true });
  return { ...def, inputSchema: { ...deduped, $defs } };
}

/**
 * Sub-schemas repeated in a definition (mechanical: its own `$defs`) or across a server's
 * tools (ADOL's internal `$ref`, measured as the budget measures it; not mechanical: MCP's
 * tools/list has no shared `$defs`, so it needs ADOL on both ends).
 */
export const repeatedSubschema: LintRule = {
  id: 'repeated-subschema',
  severity: 'warning',
  summary: 'sub-schemas repeated in a definition, or across a server’s tools, that `$defs`/`$ref` would share (ADOL’s measure)',
  check(ctx) {
    const { catalog, host } = ctx;
    const out = catalog.tools.flatMap((t) => {
      const fixed = this.fix!(t.definition, ctx);
      const saved = fixed ? tokensSaved(ctx, t.definition, fixed) : 0;
      if (!fixed || saved <= 0) return [];
      const n =
        Object.keys(fixed.inputSchema.$defs as object).length - Object.keys((t.definition.inputSchema.$defs as object) ?? {}).length;
      return [
        findingFor(this, t, {
          problem: `${n} sub-schema(s) repeated inside its inputSchema`,
          fix: 'define each once in the inputSchema’s `$defs` and point at it with `"$ref":"#/$defs/<name>"`',
          recoverable: saved,
        }),
      ];
    });
    // Across tools: ADOL's internal $ref on the compact list, as `budget` shows it (mcp-json only:
    // a provider's tool parameter takes one self-contained schema per tool).
    if (host.profile.keepsPromptText) {
      for (const server of catalog.servers) {
        const own = catalog.tools.filter((t) => t.server === server);
        if (own.length < 2) continue;
        const defs = own.map((t) => t.definition);
        const result = dedupeTools(defs, 'internal', host.tokens);
        const saving = countByLine(renderPlain(defs), host.tokens) - countByLine(renderInternal(result), host.tokens);
        const shared = result.defs.filter((d) => d.uses >= 2);
        if (saving <= 0 || !shared.length) continue;
        const top = shared
          .slice()
          .sort((a, b) => a.deltaTokens - b.deltaTokens)
          .slice(0, 3)
          .map((d) => `${d.name} ×${d.uses}`);
        out.push({
          ...findingFor(
            this,
            { ...own[0]!, id: `${server}/*` },
            {
              problem: `${shared.length} sub-schema(s) repeated across its ${own.length} tools (largest savings: ${top.join(', ')})`,
              fix: 'serve them once in the tools/list result’s `$defs` with `$ref` pointers (ADOL internal $ref; needs a client that resolves them)',
              recoverable: saving,
              mechanical: false,
            },
          ),
        });
      }
    }
    return out;
  },
  fix(def, ctx) {
    const fixed = inToolDefs(def, ctx.host.tokens);
    return fixed && tokensSaved(ctx, def, fixed) > 0 ? fixed : undefined;
  },
};
