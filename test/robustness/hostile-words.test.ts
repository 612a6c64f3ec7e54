import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { runBench } from '../../src/bench/run.ts';
import { evaluateRetriever } from '../../src/retrieval/evaluate.ts';
import { allRetrieverNames, retrieverByName } from '../../src/retrieval/registry.ts';
import { analyze } from '../../src/retrieval/tokenize.ts';
import { loadTasks } from '../../src/tasks/load.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * Ordinary words that name members of Object.prototype, everywhere a catalog or a task file
 * puts text: server and tool names, descriptions, parameter names, required lists, annotations,
 * _meta, task ids and messages. A lookup of untrusted text in a plain object reads the
 * prototype (`ABBREVIATIONS["constructor"]` is a function); the lint rule tooltax/no-inherited-lookup
 * keeps such lookups out of src/, and this runs what reads the text on them.
 */
const WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__', 'isPrototypeOf'];
const SERVERS = WORDS.slice(0, 3);

const dir = makeTempDir('tooltax-hostile-words-');
const catalogFile = join(dir, 'words.json');
const tasksFile = join(dir, 'words.jsonl');
const sentence = (w: string) => `The ${w} of ${WORDS.join(' ')}. Then ${w} again; call ${w}() on obj.${w}.`;
writeFileSync(
  catalogFile,
  JSON.stringify({
    servers: SERVERS.map((server) => ({
      server,
      tools: WORDS.map((name) => ({
        name,
        title: name,
        description: sentence(name),
        inputSchema: {
          type: 'object',
          properties: Object.fromEntries(WORDS.map((p) => [p, { type: 'string', description: sentence(p) }])),
          // A required name with no property: what reads `properties[name]` must not find a prototype member.
          required: [...WORDS, '__lookupGetter__'],
        },
        annotations: Object.fromEntries(WORDS.map((w) => [w, true])),
        _meta: Object.fromEntries(WORDS.map((w) => [w, { [w]: w }])),
      })),
    })),
  }),
);
writeFileSync(
  tasksFile,
  WORDS.map((w, i) =>
    JSON.stringify({
      id: w,
      turns: [
        { user: `please ${w} the ${WORDS.join(' ')}`, tools: [`${SERVERS[i % 3]}/${w}`] },
        { user: `${w} again, with __proto__ and toString`, tools: [`${SERVERS[(i + 1) % 3]}/${w}`, `${SERVERS[(i + 2) % 3]}/${w}`] },
        { user: 'thanks, hasOwnProperty', tools: [] },
      ],
    }),
  ).join('\n'),
);

describe('words naming Object.prototype members (in-process)', () => {
  const catalog = loadCatalog(catalogFile);
  const tasks = loadTasks(tasksFile, catalog);

  it('loads them and counts their tokens', () => {
    expect(catalog.tools).toHaveLength(SERVERS.length * WORDS.length);
    expect(catalog.servers).toEqual(SERVERS);
    expect(tasks.map((t) => t.id)).toEqual(WORDS);
    for (const t of catalog.tools) expect(tokenCounter().count(JSON.stringify(t.definition))).toBeGreaterThan(0);
  });

  it('analyses them as words (vocabulary, entity cues, stems)', () => {
    for (const w of WORDS) {
      for (const options of [{}, { vocabulary: false }, { entityCues: true }]) {
        const terms = analyze(sentence(w), options);
        expect(terms.length).toBeGreaterThan(0);
        for (const t of terms) expect(typeof t).toBe('string');
      }
    }
    expect(analyze('constructor')).toEqual(['constructor']);
    expect(analyze('hasOwnProperty', { vocabulary: false })).toEqual(['own', 'properti', 'hasownproperti']);
  });

  it.each(allRetrieverNames())('retriever %s ranks the catalog for every turn', async (name) => {
    const e = await evaluateRetriever(retrieverByName(name), catalog.tools, tasks, 'message');
    expect(e.overall.turns).toBe(2 * WORDS.length);
    expect(Object.keys(e.byServer)).toEqual(SERVERS);
    for (const s of SERVERS) expect(e.byServer[s]!.turns).toBeGreaterThan(0);
    expect(e.overall.recallAt[10]).toBeGreaterThan(0);
  });

  it('every pipeline runs on them and the reports name them', async () => {
    const out = join(dir, 'results');
    const reports = join(dir, 'reports');
    const { summaries } = await runBench({
      root: process.cwd(),
      seed: 42,
      seeds: [42],
      catalog: [catalogFile],
      tasks: tasksFile,
      tokenizer: 'cl100k_base',
      out,
      reports,
      // The studies that read the catalog's text or the pipelines' results (every retriever ran above).
      studies: ['projection', 'adol', 'prompt-caching', 'threshold-calibration'],
      quick: false,
      lanes: 1,
      log: () => {},
    });
    for (const s of summaries) expect(s.toolTokens.mean, s.pipeline).toBeGreaterThanOrEqual(0);
    const md = readFileSync(join(reports, 'tables.md'), 'utf8');
    for (const server of SERVERS) expect(md).toContain(`| ${server} |`);
  });
});
