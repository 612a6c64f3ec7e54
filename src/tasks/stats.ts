import type { Table } from '../table/table.ts';
import type { Task, TaskKind } from './types.ts';

/** The task mix actually generated: counts, turns and tools per kind. */
export function taskMixTable(tasks: readonly Task[]): Table {
  const kinds: TaskKind[] = ['single', 'multi', 'long'];
  const rows = kinds.map((kind) => {
    const ts = tasks.filter((t) => t.kind === kind);
    const turns = ts.map((t) => t.turns.length);
    return {
      kind,
      tasks: ts.length,
      minTurns: Math.min(...turns),
      meanTurns: turns.reduce((a, b) => a + b, 0) / Math.max(1, ts.length),
      maxTurns: Math.max(...turns),
      toolsPerTask: ts.reduce((s, t) => s + t.groundTruthTools.length, 0) / Math.max(1, ts.length),
      serversPerTask: ts.reduce((s, t) => s + t.servers.length, 0) / Math.max(1, ts.length),
      ambiguous: ts.filter((t) => t.flags.ambiguous).length,
      toolFreeTurns: ts.reduce((s, t) => s + t.turns.filter((u) => u.tools.length === 0).length, 0),
    };
  });
  return {
    id: 'task-mix',
    title: 'Task mix',
    columns: [
      { key: 'kind', header: 'kind', kind: 'label' },
      { key: 'tasks', header: 'tasks', kind: 'measured' },
      { key: 'minTurns', header: 'min turns', kind: 'measured' },
      { key: 'meanTurns', header: 'mean turns', kind: 'measured', digits: 1 },
      { key: 'maxTurns', header: 'max turns', kind: 'measured' },
      { key: 'toolsPerTask', header: 'distinct tools/task', kind: 'measured', digits: 2 },
      { key: 'serversPerTask', header: 'servers/task', kind: 'measured', digits: 2 },
      { key: 'ambiguous', header: 'ambiguous tasks', kind: 'measured' },
      { key: 'toolFreeTurns', header: 'tool-free turns', kind: 'measured' },
    ],
    rows,
  };
}
