import { splitDefinition } from '../../budget/split.ts';
import { DEFAULT_SHORT_MODE } from '../../pipelines/adol/short-mode.ts';
import { ownValue } from '../../util/json.ts';
import { findingFor, type LintRule } from '../types.ts';

/** Below this many tokens of such fields a server is not reported. */
const MIN_TOKENS = 20;

/** What a field's absence from the model's view means. */
const MEANING: Record<string, string> = {
  outputSchema: 'the model does not see the result’s shape before it calls',
  annotations: 'hints such as readOnlyHint or destructiveHint reach the client, not the model',
  title: 'the model sees the name, not the title',
  _meta: 'client metadata only',
  icons: 'client display only',
  execution: 'client scheduling only',
  examples: 'the model does not see the examples',
};

/**
 * Fields outside what the model needs to call a tool, per server: under a provider's host they
 * are dropped (the model never sees them: what that means, per field); under mcp-json they are
 * sent in full, and ADOL's short list would leave them out.
 */
export const droppedFields: LintRule = {
  id: 'dropped-fields',
  severity: 'info',
  summary: 'fields the host drops (outputSchema, annotations, `_meta`...) and what that means; under mcp-json, what they cost',
  check({ catalog, host }) {
    const sends = host.profile.sends;
    const dropped = (field: string) => (sends === 'all' ? DEFAULT_SHORT_MODE.omitFields.includes(field) : !sends.includes(field));
    return catalog.servers.flatMap((server) => {
      const own = catalog.tools.filter((t) => t.server === server);
      // Per field: on how many tools, how many tokens.
      const fields = new Map<string, { tools: number; tokens: number }>();
      for (const t of own) {
        const { byField } = splitDefinition(t.definition, host.tokens);
        for (const f of Object.keys(byField).filter(dropped)) {
          const x = fields.get(f) ?? { tools: 0, tokens: 0 };
          fields.set(f, { tools: x.tools + 1, tokens: x.tokens + (ownValue(byField, f) ?? 0) });
        }
      }
      const n = [...fields.values()].reduce((sum, x) => sum + x.tokens, 0);
      if (n < MIN_TOKENS) return [];
      const listed = [...fields]
        .map(([f, x]) => `${f} on ${x.tools} of ${own.length} tools (${x.tokens.toLocaleString('en-US')} tokens)`)
        .join(', ');
      const tool = { ...own[0]!, id: `${server}/*` };
      if (sends !== 'all')
        return [
          findingFor(this, tool, {
            problem: `${host.profile.label} does not send ${listed}: ${[...fields.keys()].map((f) => `${f}: ${ownValue(MEANING, f) ?? 'not sent'}`).join('; ')}`,
            fix: 'say in the description what the model must know (that it deletes, what it returns); the fields still serve clients',
            recoverable: 0,
          }),
        ];
      return [
        findingFor(this, tool, {
          problem: `sent to the model in full: ${listed}`,
          fix: 'serve ADOL’s short list to the model (name, first sentence, inputSchema); providers’ hosts drop these fields anyway',
          recoverable: n,
        }),
      ];
    });
  },
};
