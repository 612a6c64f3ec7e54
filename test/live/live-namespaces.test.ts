import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/catalog/types.ts';
import { NAMESPACE_MAX_FUNCTIONS, openAiNamespaces } from '../../src/pipelines/host-search/namespaces.ts';
import { livePrompt } from '../../src/live/prompt-bridge.ts';
import { qualifiedName, responsesSearchTools } from '../../src/live/tool-search-requests.ts';
import { catalogTool } from '../helpers/catalog-tool.ts';

/** A server of 23 tools (three namespaces) and a small one (its own namespace). */
const catalog: Catalog = {
  name: 'ns',
  source: 'test',
  servers: ['big', 'small'],
  tools: [
    ...Array.from({ length: 23 }, (_, i) =>
      catalogTool('big', {
        name: `${['list', 'create', 'delete'][i % 3]}_${['issues', 'labels', 'webhooks', 'teams'][i % 4]}_${i}`,
        description: 'Does a thing.',
        inputSchema: { type: 'object' },
      }),
    ),
    catalogTool('small', { name: 'get_weather', description: 'Weather now.', inputSchema: { type: 'object' } }),
  ],
};

describe('live OpenAI tool search: the emulated pipeline’s namespaces', () => {
  it('sends the namespaces openAiNamespaces makes, and every namespaced call names its catalog tool back', () => {
    const prompt = livePrompt(
      { prompt: { sections: [] }, exposure: { listedTools: [], fullSchemaTools: [], discoveryCalls: [] } },
      catalog,
      [],
      false,
      {
        execution: 'server',
        provider: 'openai',
        references: 5,
      },
    );
    const ts = prompt.toolSearch!;
    const expected = catalog.servers.flatMap((s) => openAiNamespaces(s, catalog.tools));
    expect(ts.namespaces.map((n) => n.name)).toEqual(expected.map((n) => n.name));
    expect(ts.namespaces.map((n) => n.description)).toEqual(expected.map((n) => n.description));
    const sent = responsesSearchTools(ts).filter((t) => t.type === 'namespace') as { name: string; tools: { name: string }[] }[];
    expect(sent.length).toBe(4);
    for (const ns of sent) {
      expect(ns.tools.length).toBeLessThanOrEqual(NAMESPACE_MAX_FUNCTIONS);
      const members = expected.find((e) => e.name === ns.name)!.tools;
      // The API answers a call with the namespace and the function's own name.
      expect(ns.tools.map((f) => prompt.toolByName.get(qualifiedName(f.name, ns.name))?.id).sort()).toEqual(
        members.map((m) => m.id).sort(),
      );
    }
    // A server small enough for one namespace keeps its provider name.
    expect(prompt.toolByName.get('small__get_weather')?.id).toBe('small/get_weather');
  });
});
