import { describe, expect, it } from 'vitest';
import {
  capabilityInput,
  capabilityPhrase,
  capabilityRegex,
  regexForRequest,
  requestInput,
  searchTurn,
  type SearchInput,
  type SearchTurnInput,
} from '../../src/sim/search-model.ts';
import { compileHostRegex } from '../../src/pipelines/host-search/semantics.ts';
import { catalogTool } from '../helpers/catalog-tool.ts';

const tool = catalogTool;

const QUERY_DB = tool('db', {
  name: 'query_database',
  description: 'Run a read-only SQL query against the analytics database. Returns rows.',
  inputSchema: { type: 'object', properties: { sql: { type: 'string' } } },
});
const WEATHER = tool('wx', {
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
});

const VALUES = { 'search.knowledge': 0.5, 'search.attemptsPerCapability': 2, 'search.maxPerTurn': 5 };

/** A turn with a recording engine; `answers` gives each search's results in order (default: nothing). */
async function turn(over: Partial<SearchTurnInput>, answers: (readonly string[])[] = []) {
  const sent: SearchInput[] = [];
  const steps = await searchTurn({
    request: 'how many signups did we get last week, by country?',
    needed: [QUERY_DB],
    loaded: new Set(),
    ran: new Map(),
    syntax: 'query',
    band: 'calibrated',
    draw: () => 0.99,
    values: VALUES,
    engine: async (input) => {
      sent.push(input);
      return answers[sent.length - 1] ?? [];
    },
    ...over,
  });
  return { steps, sent };
}

describe('the searching model: what it writes', () => {
  it('writes a capability pattern the way the documentation does (object and action, either order)', () => {
    const pattern = capabilityRegex(QUERY_DB, 0)!;
    expect(pattern).toBe('(?i)query.*databas|databas.*query');
    // It finds the tool by its name and not a tool that only shares one of the words.
    const re = compileHostRegex(pattern);
    expect(re.test('query_database')).toBe(true);
    expect(re.test('Query the weather')).toBe(false);
    // The second try loosens to the longest word alone; a generic verb never counts as the capability.
    expect(capabilityRegex(QUERY_DB, 1)).toBe('(?i)databas');
    expect(capabilityRegex(WEATHER, 0)).toBe('(?i)weather');
  });

  it("phrases a capability in the tool's name and first sentence, not its later sentences", () => {
    const phrase = capabilityPhrase(QUERY_DB);
    expect(phrase.split(' ').slice(0, 2)).toEqual(['query', 'database']);
    expect(phrase).toContain('analytics');
    expect(phrase).not.toContain('rows');
    expect(capabilityInput(QUERY_DB, 'query', 1)).toEqual({ query: 'query database' });
  });

  it('writes from the request alone: the request, then its longest plain words; ids, paths and base64 never', () => {
    const blob = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg';
    const request = `Describe this image ${blob} and translate the description into French`;
    expect(requestInput(request, 'query', 0)).toEqual({ query: request });
    const narrowed = requestInput(request, 'query', 1) as { query: string };
    expect(narrowed.query.split(' ')).toEqual(['describe', 'translate', 'description', 'french']);
    expect(regexForRequest(request)).toBe('(?i)translat|descript');
    expect(requestInput(request, 'regex', 1)).toEqual({ pattern: '(?i)describ|french' });
    expect(regexForRequest('the of and')).toBeUndefined();
  });
});

describe('the searching model: when it searches', () => {
  it('never searches for a tool it already has loaded (lower band excepted: one search per tool turn)', async () => {
    expect((await turn({ loaded: new Set([QUERY_DB.id]) })).sent).toEqual([]);
    expect((await turn({ loaded: new Set([QUERY_DB.id]), band: 'lower' })).sent).toHaveLength(1);
    expect((await turn({ needed: [] })).sent).toEqual([]);
  });

  it('searches again when nothing fitting came back, and stops when the tool is found', async () => {
    const miss = await turn({});
    expect(miss.sent).toHaveLength(2);
    const hit = await turn({}, [[QUERY_DB.id, WEATHER.id]]);
    expect(hit.sent).toHaveLength(1);
    expect(hit.steps[0]!.found).toContain(QUERY_DB.id);
  });

  it('one capability per needed tool; a search that found the next tool already saves its search', async () => {
    const both = await turn({ needed: [QUERY_DB, WEATHER] }, [[QUERY_DB.id, WEATHER.id]]);
    expect(both.sent).toHaveLength(1);
    const separate = await turn({ needed: [QUERY_DB, WEATHER], draw: () => 0 }, [[QUERY_DB.id], [WEATHER.id]]);
    expect(separate.sent).toEqual([{ query: capabilityPhrase(QUERY_DB) }, { query: capabilityPhrase(WEATHER) }]);
  });

  it('does not send a search it already ran in the task; keeps to the per-turn cap', async () => {
    const ran = new Map<string, readonly string[]>();
    await turn({ ran });
    expect((await turn({ ran })).sent).toEqual([]);
    const many = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'].map((n) =>
      tool('s', { name: `${n}_records`, inputSchema: { type: 'object' } }),
    );
    expect((await turn({ needed: many, draw: () => 0 })).sent).toHaveLength(VALUES['search.maxPerTurn']);
  });

  it("reads the needed tool's words only on a knowing draw: below search.knowledge, never above", async () => {
    const words = /query|database|analytics|sql/i;
    const unknowing = await turn({ draw: () => 0.5 });
    expect(unknowing.sent.every((i) => !words.test(Object.values(i).join(' ')))).toBe(true);
    const knowing = await turn({ draw: () => 0.49 });
    expect(knowing.sent.every((i) => words.test(Object.values(i).join(' ')))).toBe(true);
    // The upper band always knows; knowledge 0 never does.
    expect((await turn({ band: 'upper', draw: () => 0.99 })).sent[0]).toEqual({ query: capabilityPhrase(QUERY_DB) });
    const never = await turn({ draw: () => 0, values: { ...VALUES, 'search.knowledge': 0 } });
    expect(never.sent.every((i) => !words.test(Object.values(i).join(' ')))).toBe(true);
  });
});
