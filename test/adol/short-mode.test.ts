import { describe, expect, it } from 'vitest';
import type { McpTool } from '../../src/catalog/types.ts';
import { DEFAULT_SHORT_MODE, firstSentence, shortDefinition } from '../../src/pipelines/adol/short-mode.ts';

const full: McpTool = {
  name: 'list_pull_requests',
  title: 'List pull requests',
  description: 'List pull requests in a repository. Results are ordered by creation date, newest first! Drafts are included.',
  inputSchema: {
    type: 'object',
    properties: { owner: { type: 'string', description: 'Repository owner. A login or an organization.' } },
    required: ['owner'],
  },
  outputSchema: { type: 'object', properties: { pull_requests: { type: 'array' } } },
  annotations: { title: 'List pull requests', readOnlyHint: true },
  examples: [{ owner: 'acme' }],
  _meta: { fastmcp: { tags: ['github'] } },
  execution: { taskSupport: 'forbidden' },
  icons: [{ src: 'data:...' }],
  custom: 'kept',
};

describe('ADOL short tools/list', () => {
  it('drops the optional set and keeps name, the first sentence of the description, and the whole inputSchema', () => {
    const s = shortDefinition(full);
    expect(Object.keys(s)).toEqual(['name', 'description', 'inputSchema', 'custom']);
    expect(s.name).toBe('list_pull_requests');
    expect(s.description).toBe('List pull requests in a repository.');
    expect(s.inputSchema).toEqual(full.inputSchema);
    for (const k of DEFAULT_SHORT_MODE.omitFields) expect(s).not.toHaveProperty(k);
    // The input is not modified.
    expect(full.outputSchema).toBeDefined();
  });

  it('cuts descriptions at the first sentence end or line break; single sentences stay', () => {
    expect(firstSentence('Read a file. Then more.')).toBe('Read a file.');
    expect(firstSentence('Is it open? Check state.')).toBe('Is it open?');
    expect(firstSentence('Search files\n\nArgs:\n  q: query')).toBe('Search files');
    expect(firstSentence('  One sentence only  ')).toBe('One sentence only');
    expect(firstSentence('Version v2.0 is current. Old ones are not.')).toBe('Version v2.0 is current.');
    expect(firstSentence('')).toBe('');
  });

  it('is configurable: keep descriptions, omit a different set', () => {
    const s = shortDefinition(full, { omitFields: ['outputSchema'], description: 'keep' });
    expect(s.description).toBe(full.description);
    expect(s.title).toBe(full.title);
    expect(s).not.toHaveProperty('outputSchema');
  });
});
