import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import type { McpTool } from '../../src/catalog/types.ts';
import { harmonyToolsSection, rustLines, schemaToTypeScript, type HarmonyFunction } from '../../src/hosts/harmony.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import { openAiResponsesProfile } from '../../src/hosts/openai-responses.ts';
import { HARMONY_EXAMPLE_TEXT, HARMONY_EXAMPLE_TOOLS, HARMONY_FUNCTIONS_NOTE } from '../../src/hosts/sources.ts';

// The harmony rendering (src/hosts/harmony.ts) against the published example, byte for byte,
// and the profile's per-tool counts against the whole text on real catalogs.

describe('openai-responses: the harmony rendering', () => {
  it('reproduces the published `# Tools` section of the three weather functions exactly', () => {
    expect(harmonyToolsSection(structuredClone(HARMONY_EXAMPLE_TOOLS) as unknown as HarmonyFunction[])).toBe(HARMONY_EXAMPLE_TEXT);
  });

  it('renders JSON Schema keywords as the harmony renderer does', () => {
    const ts = (schema: unknown) => schemaToTypeScript(schema, '');
    expect(ts({ type: 'integer' })).toBe('number');
    expect(ts({ type: ['integer', 'null'] })).toBe('number | null');
    expect(ts({ type: 'array' })).toBe('Array<any>');
    expect(ts({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } })).toBe('"a" | "b"[]');
    expect(ts({ anyOf: [{ type: 'string' }] })).toBe('any');
    expect(ts({ type: 'object' })).toBe('{\n}');
    expect(
      ts({
        type: 'object',
        properties: { n: { type: 'number', default: 3, description: 'How many.' }, s: { type: 'string', default: 'x' } },
        required: ['n'],
      }),
    ).toBe('{\n// How many.\nn: number, // default: 3\ns?: string, // default: "x"\n}');
    // A nested object's description comes twice (as the property's comment and before its brace), as the renderer prints it.
    expect(ts({ type: 'object', properties: { o: { type: 'object', description: 'D', properties: { x: { type: 'boolean' } } } } })).toBe(
      '{\n// D\no?:     // D\n{\n    x?: boolean,\n    },\n}',
    );
    expect(rustLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(rustLines('')).toEqual([]);
  });

  it.each(['catalogs/synthetic-120', 'catalogs/real/github.json', 'catalogs/real/jira.json', 'catalogs/real/filesystem.json'])(
    '%s: the sum of per-tool counts and the request part is the count of the whole text',
    (path) => {
      const host = new HostMeasure(openAiResponsesProfile());
      const defs: McpTool[] = loadCatalog(path).tools.map((t) => t.definition);
      const whole = host.tokens.count(`\n\n${host.profile.render!(defs)}`) + host.tokens.count(`\n${HARMONY_FUNCTIONS_NOTE}`);
      expect(host.listTokens(defs)).toBe(whole);
      // Any sub-list too: the per-tool count does not depend on the neighbours.
      const some = defs.filter((_, i) => i % 7 === 3);
      expect(host.listTokens(some)).toBe(
        host.tokens.count(`\n\n${host.profile.render!(some)}`) + host.tokens.count(`\n${HARMONY_FUNCTIONS_NOTE}`),
      );
    },
  );
});
