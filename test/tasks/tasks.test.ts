import { makeTempDir } from '../helpers/temp.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../../src/catalog/generate.ts';
import { SERVER_SPECS } from '../../src/catalog/servers/index.ts';
import type { Catalog } from '../../src/catalog/types.ts';
import { writeSyntheticTasks } from '../../src/bench/synthetic-inputs.ts';
import { TaskGenerator } from '../../src/tasks/generate.ts';
import { loadTasks, tasksToJsonl } from '../../src/tasks/load.ts';
import { TASK_MIX } from '../../src/tasks/mix.ts';
import { overlapTable } from '../../src/tasks/overlap.ts';
import type { Task } from '../../src/tasks/types.ts';
import { InputError } from '../../src/util/input-error.ts';

let catalog: Catalog;
let tasks: Task[];
beforeAll(() => {
  catalog = generateCatalog(SERVER_SPECS, 42).catalog;
  tasks = new TaskGenerator(SERVER_SPECS).generate(42);
});

describe('generated tasks', () => {
  it('follow the documented mix', () => {
    expect(tasks).toHaveLength(500);
    for (const [kind, mix] of Object.entries(TASK_MIX)) {
      const ts = tasks.filter((t) => t.kind === kind);
      expect(ts, kind).toHaveLength(mix.count);
      for (const t of ts) {
        expect(t.turns.length, t.id).toBeGreaterThanOrEqual(mix.turns[0]);
        expect(t.turns.length, t.id).toBeLessThanOrEqual(mix.turns[1]);
      }
    }
    expect(tasks.some((t) => t.flags.ambiguous)).toBe(true);
  });

  it('name only tools of the catalog and respect every precondition', () => {
    const byId = new Map(catalog.tools.map((t) => [t.id, t]));
    for (const task of tasks) {
      const done: string[] = [];
      for (const turn of task.turns) {
        for (const id of turn.tools) {
          const tool = byId.get(id);
          expect(tool, `${task.id}: ${id}`).toBeDefined();
          for (const pc of tool!.preconditions) {
            if (pc.kind === 'requires_auth') expect(task.initialState.authScopes, `${task.id} ${id}`).toContain(pc.scope);
            else
              expect(
                done.some((name) => pc.prefixes.some((p) => name.startsWith(p))),
                `${task.id} ${id} before a lookup`,
              ).toBe(true);
          }
        }
        done.push(...turn.tools.map((id) => byId.get(id)!.name));
      }
      expect(task.groundTruthTools).toEqual([...new Set(task.turns.flatMap((t) => t.tools))].sort());
    }
  });

  it('exercise every tool of the catalog', () => {
    const used = new Set(tasks.flatMap((t) => t.groundTruthTools));
    expect(used.size).toBe(catalog.tools.length);
  });

  it('do not copy the tool summaries', () => {
    const rows = overlapTable(tasks, catalog).rows;
    const value = (m: RegExp) => rows.find((r) => m.test(String(r.measure)))!.value as number;
    expect(value(/^Jaccard\(message, needed tools’ summaries/)).toBeLessThan(0.25);
    expect(value(/identical to a summary/)).toBe(0);
  });

  it('regenerate byte-identically, equal to the committed files', () => {
    const dir = makeTempDir('tooltax-tasks-');
    const a = writeSyntheticTasks(dir, 42, catalog);
    const again = tasksToJsonl(new TaskGenerator(SERVER_SPECS).generate(42));
    const written = readFileSync(join(a.dir, 'tasks.jsonl'), 'utf8');
    expect(written).toBe(again);
    expect(written).toBe(readFileSync(join(process.cwd(), 'tasks', 'tasks.jsonl'), 'utf8'));
    expect(readFileSync(join(a.dir, 'calibration.jsonl'), 'utf8')).toBe(
      readFileSync(join(process.cwd(), 'tasks', 'calibration.jsonl'), 'utf8'),
    );
  });

  it('keep the calibration split disjoint from the evaluated tasks', () => {
    const cal = new TaskGenerator(SERVER_SPECS).generateCalibration(42, tasks);
    const evaluated = new Set(tasks.flatMap((t) => t.turns.map((u) => u.user)));
    expect(cal.length).toBeGreaterThanOrEqual(100);
    expect(cal.flatMap((t) => t.turns.map((u) => u.user)).filter((m) => evaluated.has(m))).toEqual([]);
  });
});

describe('loadTasks', () => {
  const file = (lines: unknown[]) => {
    const f = join(makeTempDir('tooltax-tl-'), 'tasks.jsonl');
    writeFileSync(f, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
    return f;
  };

  it('resolves tools by name or server/name and fills defaults', () => {
    const t = loadTasks(
      file([
        {
          id: 'x',
          turns: [
            { user: 'open the PR list', tools: ['list_pull_requests'] },
            { user: 'and the file', tools: ['filesystem/read_file'] },
          ],
        },
      ]),
      catalog,
    )[0]!;
    expect(t.turns.map((u) => u.tools)).toEqual([['github/list_pull_requests'], ['filesystem/read_file']]);
    expect(t.kind).toBe('multi');
    expect(t.initialState.authScopes).toContain('github:read');
    expect(t.servers).toEqual(['filesystem', 'github']);
  });

  it.each([
    ['bad JSON', ['{"id": "a", '], 'line 1 $', /one JSON object per line/],
    ['no id', [{ turns: [{ user: 'x', tools: [] }] }], 'line 1 $.id', /non-empty string/],
    ['no turns', [{ id: 'a', turns: [] }], 'line 1 $.turns', /non-empty array of turns/],
    ['an unknown tool', [{ id: 'a', turns: [{ user: 'x', tools: ['fly_to_moon'] }] }], 'line 1 $.turns[0].tools[0]', /a tool of catalog/],
    ['a bad kind', [{ id: 'a', kind: 'epic', turns: [{ user: 'x', tools: [] }] }], 'line 1 $.kind', /one of single, multi, long/],
    [
      'a duplicate id',
      [
        { id: 'a', turns: [{ user: 'x', tools: [] }] },
        { id: 'a', turns: [{ user: 'y', tools: [] }] },
      ],
      'line 2 $.id',
      /unique task id/,
    ],
    ['an empty message', [{ id: 'a', turns: [{ user: ' ', tools: [] }] }], 'line 1 $.turns[0].user', /user's message/],
  ])('rejects %s with file, line, path and expectation', (_, lines, path, expected) => {
    const f = file(lines);
    try {
      loadTasks(f, catalog);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).path).toBe(path);
      expect((e as Error).message).toMatch(expected);
      expect((e as Error).message).toContain(f);
    }
  });

  it('asks for server/name when a name exists on several servers', () => {
    const dup: Catalog = {
      ...catalog,
      tools: [...catalog.tools, { ...catalog.tools[0]!, id: `other/${catalog.tools[0]!.name}`, server: 'other' }],
    };
    expect(() => loadTasks(file([{ id: 'a', turns: [{ user: 'x', tools: [catalog.tools[0]!.name] }] }]), dup)).toThrow(/server\/name/);
  });
});
