import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveSummary } from '../../src/catalog/load.ts';
import type { McpTool } from '../../src/catalog/types.ts';
import { countTokens } from '../../src/tokens/counter.ts';

/**
 * The summary before it was made linear (drop one word, count again), kept here as the
 * reference: the linear version must give exactly the same text on normal inputs.
 */
function referenceSummary(definition: McpTool): string {
  const words = definition.name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const desc = (definition.description ?? definition.title ?? '').replace(/\s+/g, ' ').trim();
  const first = desc.split(/(?<=[.!?])\s/)[0] ?? '';
  let text = first ? `${words}: ${first}` : words;
  while (countTokens(text) > 60) {
    text = `${text.split(' ').slice(0, -1).join(' ')}…`.replace(/…+$/, '…');
    if (!text.includes(' ')) break;
  }
  return text;
}

const WORDS = [
  'list',
  'the',
  'open',
  'pull',
  'requests',
  'of',
  'a',
  'repository',
  'GitHub',
  'e.g.',
  'owner/repo',
  '`state`',
  '(optional)',
  'über',
  '—',
  '…',
  '1,000',
  'ISO-8601',
  'URL:',
  'https://x.io/a?b=c',
  '😀',
  '\t',
  'done.',
  'Why?',
  'Yes!',
];
const text = fc
  .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }), {
    maxLength: 160,
  })
  .map((w) => w.join(' '));
const name = fc.oneof(
  fc.constantFrom('list_pull_requests', 'getIssue', 'search-code', '_private', 'a__b', 'x'),
  fc.string({ minLength: 1, maxLength: 20 }),
);

describe('deriveSummary', () => {
  it('gives the same summary as the word-by-word reference on normal inputs (property)', () => {
    fc.assert(
      fc.property(name, text, fc.option(text), (n, description, title) => {
        const def: McpTool = { name: n, description, title: title ?? undefined, inputSchema: {} };
        expect(deriveSummary(def)).toBe(referenceSummary(def));
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('gives the same summary on every real catalog tool', () => {
    const dir = join('catalogs', 'real');
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      const data = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { tools?: McpTool[] };
      for (const t of data.tools ?? []) expect(deriveSummary(t), `${f} ${t.name}`).toBe(referenceSummary(t));
    }
  });

  it('stays within the budget on a 1 MB description without a sentence break', () => {
    const s = deriveSummary({ name: 'big', description: 'alpha beta '.repeat(100_000), inputSchema: {} });
    expect(countTokens(s)).toBeLessThanOrEqual(60);
    expect(s.endsWith('…')).toBe(true);
  });
});
