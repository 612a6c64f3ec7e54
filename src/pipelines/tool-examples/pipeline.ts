import type { CatalogTool, JsonSchema, McpTool } from '../../catalog/types.ts';
import { exampleArguments, exampleValue, fitsSchema } from '../../prompt/example-values.ts';
import { toolListSection } from '../../prompt/sections.ts';
import { renderToolDefinitions } from '../../prompt/render-tools.ts';
import { isObject, ownValue } from '../../util/json.ts';
import type { Pipeline, PipelineContext, PromptSection, TurnInput, TurnResult } from '../types.ts';

/** Most examples per tool (Anthropic's guidance: one to five). */
export const MAX_EXAMPLES = 5;

/**
 * Tool use examples (Anthropic's `input_examples` beside the input schema): B1, every full
 * definition on every turn, each with 1–5 examples generated from its schema (inputExamples),
 * to put the token cost of the feature on the table. Results are kept as in B1.
 */
export function createToolExamplesPipeline(): Pipeline {
  let ids: string[] = [];
  let definitions: PromptSection | undefined;
  let examples = 0;
  return {
    id: 'tool-examples',
    label: 'B1 + input_examples',
    async prepare(ctx: PipelineContext) {
      ids = ctx.catalog.tools.map((t) => t.id);
      const tools: CatalogTool[] = ctx.catalog.tools.map((t) => ({ ...t, definition: withExamples(t.definition) }));
      examples = tools.reduce((n, t) => n + (t.definition.input_examples as unknown[]).length, 0);
      definitions = toolListSection(
        'tool-definitions',
        renderToolDefinitions(tools),
        true,
        tools.map((t) => t.definition),
      );
    },
    async turn({ shared }: TurnInput): Promise<TurnResult> {
      if (!definitions) throw new Error('tool-examples: prepare() first');
      return {
        prompt: { sections: [shared.system, definitions, ...shared.history, shared.user] },
        exposure: { listedTools: ids, fullSchemaTools: ids, discoveryCalls: [] },
      };
    },
    describe: () => ({
      details: {
        examples,
        rule: `per tool: the required arguments alone, then one more optional parameter per example, at most ${MAX_EXAMPLES} (values: default, first enum value or a placeholder)`,
      },
    }),
  };
}

/**
 * The definition with `input_examples`: the required arguments, then each adding one optional
 * parameter, at most MAX_EXAMPLES. Each example is valid against the tool's input schema: a
 * parameter whose value would break it (a combination the schema forbids) is skipped.
 */
export function withExamples(definition: McpTool): McpTool {
  const schema: JsonSchema = definition.inputSchema;
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const optional = Object.keys(props).filter((k) => !required.includes(k));
  const base = exampleArguments(schema);
  const out: Record<string, unknown>[] = [base];
  let current = base;
  for (const name of optional) {
    if (out.length >= MAX_EXAMPLES) break;
    const next = Object.fromEntries([...Object.entries(current), [name, exampleValue(name, ownValue(props, name), schema)]]);
    if (fitsSchema(schema, next) === false) continue;
    current = next;
    out.push(current);
  }
  return { ...definition, input_examples: out };
}
