import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { retrievalCommand } from '../../src/commands/retrieval.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { loadTasks } from '../../src/tasks/load.ts';
import { turnQuery } from '../../src/retrieval/query.ts';

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'small-catalog');
const dir = mkdtempSync(join(tmpdir(), 'tooltax-retrieval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tasksFile = join(dir, 'tasks.jsonl');
writeFileSync(
  tasksFile,
  [
    { id: 'a', turns: [{ user: 'ls my notes', tools: ['list_notes'], acceptable: ['notes/archive_note'] }] },
    {
      id: 'b',
      turns: [
        { user: 'grep the repos for TODO', tools: ['search_code'] },
        { user: 'now cat the first hit', tools: ['get_file'] },
      ],
    },
  ]
    .map((t) => JSON.stringify(t))
    .join('\n') + '\n',
);

describe('tasks: the per-turn acceptable list', () => {
  it('is read and resolved to ids; an unknown tool is a one-line error with its JSON path', () => {
    const catalog = loadCatalog(FIXTURE);
    expect(loadTasks(tasksFile, catalog)[0]!.turns[0]!.acceptable).toEqual(['notes/archive_note']);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, JSON.stringify({ id: 'x', turns: [{ user: 'u', tools: ['list_notes'], acceptable: ['nope'] }] }) + '\n');
    expect(() => loadTasks(bad, catalog)).toThrow(/bad\.jsonl.*line 1 \$\.turns\[0\]\.acceptable\[0\]/);
    writeFileSync(bad, JSON.stringify({ id: 'x', turns: [{ user: 'u', tools: [], acceptable: 'list_notes' }] }) + '\n');
    expect(() => loadTasks(bad, catalog)).toThrow(/\$\.turns\[0\]\.acceptable: expected an array of tool names/);
  });
});

describe('rolling-context query', () => {
  it('adds the previous user messages to a follow-up, most recent first; a first turn is the message alone', () => {
    const turns = [{ user: 'one' }, { user: 'two' }, { user: 'three' }, { user: 'four' }];
    expect(turnQuery(turns, 0, 'rolling')).toBe('one');
    expect(turnQuery(turns, 3, 'rolling')).toBe('four\nthree\ntwo');
    expect(turnQuery(turns, 3, 'message')).toBe('four');
  });
});

describe('retrieval command', () => {
  it('--json prints one object with every retriever’s recall@k, MRR, nDCG@10, all-needed@10 and the default', async () => {
    let out = '';
    await retrievalCommand(
      { catalog: [FIXTURE], tasks: tasksFile, retriever: ['bm25', 'dense:tfidf'], query: 'rolling', json: true },
      process.cwd(),
      (t) => (out += t),
    );
    const parsed = JSON.parse(out);
    expect(Object.keys(parsed)).toEqual(['retrievers', 'skipped', 'default']);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.default).toBe('learned+hybrid');
    expect(parsed.retrievers.map((r: { name: string }) => r.name)).toEqual(['bm25', 'dense:tfidf']);
    for (const r of parsed.retrievers) {
      expect(Object.keys(r.recallAt)).toEqual(['1', '3', '5', '10', '20']);
      for (const key of ['mrr', 'ndcgAt10', 'allNeededAt10']) expect(typeof r[key]).toBe('number');
      expect(r.turns).toBe(3);
      expect(r.byPosition.followUp.turns).toBe(1);
    }
    expect(parsed.retrievers[0].byPosition.first.recallAt['1']).toBe(1);
  });

  it('without --json prints the Markdown table naming each retriever', async () => {
    let out = '';
    await retrievalCommand(
      { catalog: [FIXTURE], tasks: tasksFile, retriever: ['bm25'], query: 'message', json: false },
      process.cwd(),
      (t) => (out += t),
    );
    expect(out).toMatch(/\| bm25 \| 1\.000 \|/);
    expect(out).toContain('R@10 by server');
  });

  it('--catalog without --tasks is bad input', async () => {
    await expect(
      retrievalCommand({ catalog: [FIXTURE], retriever: ['bm25'], query: 'rolling', json: true }, process.cwd(), () => {}),
    ).rejects.toThrow(/--tasks/);
  });
});
