import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { createBm25Retriever } from '../../src/retrieval/bm25.ts';
import { createOkapiBm25Retriever, createWinkBm25Retriever } from '../../src/retrieval/bm25-alternatives.ts';
import { toolFields } from '../../src/retrieval/tool-fields.ts';
import { analyze } from '../../src/retrieval/tokenize.ts';
import { retrieverByName, isRetrieverName } from '../../src/retrieval/registry.ts';
import { rankScores, type Retriever } from '../../src/retrieval/types.ts';

const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));

/** Queries typed the way people type, each with the one tool that answers it. */
const KNOWN: [query: string, tool: string][] = [
  ['ls my notes in the work notebook', 'notes/list_notes'],
  ['cat src/app.ts on acme/api main', 'code/get_file'],
  ['grep the repos for RETRY_BACKOFF', 'code/search_code'],
  ['ping #ops that the deploy is done', 'chat/post_message'],
  ['rm the feature/old branch', 'code/delete_branch'],
];

async function top(retriever: Retriever, query: string): Promise<string> {
  const fitted = await retriever.fit(catalog.tools);
  const [scores] = await fitted.score([query]);
  return rankScores(fitted.ids, scores!)[0]!.id;
}

/** The same requests in the tools' own words: what the untuned libraries (no vocabulary) are asked. */
const PLAIN: [query: string, tool: string][] = [
  ['list my notes in the work notebook', 'notes/list_notes'],
  ['get the file src/app.ts on acme/api main', 'code/get_file'],
  ['search code in the repositories for RETRY_BACKOFF', 'code/search_code'],
  ['post a message to #ops that the deploy is done', 'chat/post_message'],
  ['delete the feature/old branch', 'code/delete_branch'],
];

describe('lexical retrievers on a small fixed catalog', () => {
  for (const [name, make, known] of [
    ['bm25 (MiniSearch, developer vocabulary)', () => createBm25Retriever(), KNOWN],
    ['bm25:wink (untuned)', createWinkBm25Retriever, PLAIN],
    ['bm25:okapi (untuned)', createOkapiBm25Retriever, PLAIN],
  ] as const) {
    it(`${name} ranks the known answer first`, async () => {
      const r = make();
      for (const [query, tool] of known) expect([query, await top(r, query)]).toEqual([query, tool]);
    });
  }

  it('dense:tfidf ranks a query worded like the summary first (it has no vocabulary expansion)', async () => {
    expect(await top(retrieverByName('dense:tfidf'), 'create a branch from main')).toBe('code/create_branch');
  });

  it('without the developer vocabulary, shell habits do not match (the expansion is what finds them)', async () => {
    const plain = createBm25Retriever({ vocabulary: false, entityCues: false });
    const fitted = await plain.fit(catalog.tools);
    const [scores] = await fitted.score(['ls']);
    expect([...scores!].every((s) => s === 0)).toBe(true);
    expect(await top(createBm25Retriever(), 'ls')).toBe('notes/list_notes');
  });

  it('scores are deterministic and a query with no known word scores 0 everywhere', async () => {
    const fitted = await createBm25Retriever().fit(catalog.tools);
    const a = await fitted.score(['archive that note', 'zzqx']);
    const b = await fitted.score(['archive that note', 'zzqx']);
    expect(a).toEqual(b);
    expect([...a[1]!].every((s) => s === 0)).toBe(true);
    expect(rankScores(fitted.ids, a[0]!)[0]!.id).toBe('notes/archive_note');
  });
});

describe('what a lexical retriever sees of a tool', () => {
  it('name, server, description, parameter names and parameter descriptions, each its own field', () => {
    const f = toolFields(catalog.tools.find((t) => t.id === 'chat/post_message')!);
    expect(f.name).toBe('post_message');
    expect(f.server).toBe('chat');
    expect(f.description).toContain('Post a message to a chat channel');
    expect(f.parameters).toBe('channel text thread_ts metadata');
    expect(f.parameterDescriptions).toContain('Timestamp of the parent message');
  });

  it('the analyzer splits names, expands developer shorthand and stems', () => {
    expect(analyze('listPullRequests')).toEqual(['list', 'pull', 'request', 'listpullrequest']);
    expect(analyze('any PRs on the repo?')).toEqual(['ani', 'pull', 'request', 'repositori']);
    expect(analyze('see https://x.io/a', { entityCues: true })).toEqual(expect.arrayContaining(['url', 'page', 'web']));
  });
});

describe('retriever registry', () => {
  it('knows the fixed names and dense:<encoder>, and rejects others with the list', () => {
    for (const n of ['bm25', 'bm25:wink', 'bm25:okapi', 'dense:use-lite', 'dense:tfidf', 'hybrid-rrf', 'hybrid-norm', 'learned'])
      expect(isRetrieverName(n)).toBe(true);
    expect(isRetrieverName('dense:nope')).toBe(false);
    expect(() => retrieverByName('bm26')).toThrow(/unknown retriever "bm26"; expected one of bm25/);
  });

  it('fits once per tool list (fusion and learned reuse the fits)', async () => {
    const r = retrieverByName('bm25');
    expect(await r.fit(catalog.tools)).toBe(await r.fit(catalog.tools));
  });
});
