import type { Catalog, Precondition } from '../../catalog/types.ts';

/**
 * Counts, for each turn, the full schemas in the prompt whose preconditions the agent state
 * does not meet: an auth scope the task does not hold, or "only after a search" before any
 * matching tool produced output. Computed from the measured exposure (schemaTools), the
 * catalog and the task state, the same way for every pipeline. The state is rebuilt as the
 * bench builds it (src/measure/run-pipeline.ts): the outputs held at a turn are the names of the
 * tools needed on the task's earlier turns.
 *
 * `scopesOf` returns a task's initial auth scopes, or undefined when the task is unknown (then
 * auth preconditions are not counted for it; the order preconditions still are).
 */
/** What preconditionViolations reads of a turn (a TurnRecord has it). */
export interface ExposedTurn {
  seed: number;
  taskId: string;
  turn: number;
  schemaTools: readonly string[];
  neededTools: readonly string[];
}

export function preconditionViolations<TurnRecord extends ExposedTurn>(
  records: readonly TurnRecord[],
  catalog: Catalog,
  scopesOf: (seed: number, taskId: string) => readonly string[] | undefined,
): Map<TurnRecord, number> {
  const tools = new Map(catalog.tools.map((t) => [t.id, t]));
  const byTask = new Map<string, TurnRecord[]>();
  for (const r of records) {
    const key = `${r.seed}\u0000${r.taskId}`;
    let list = byTask.get(key);
    if (!list) byTask.set(key, (list = []));
    list.push(r);
  }
  const out = new Map<TurnRecord, number>();
  for (const list of byTask.values()) {
    list.sort((a, b) => a.turn - b.turn);
    const scopeList = scopesOf(list[0]!.seed, list[0]!.taskId);
    const scopes = scopeList ? new Set(scopeList) : undefined;
    const outputs: string[] = [];
    for (const r of list) {
      let n = 0;
      for (const id of r.schemaTools) {
        const tool = tools.get(id);
        if (tool && tool.preconditions.some((pc) => !holds(pc, scopes, outputs))) n++;
      }
      out.set(r, n);
      for (const id of r.neededTools) {
        const tool = tools.get(id);
        if (tool) outputs.push(tool.name);
      }
    }
  }
  return out;
}

function holds(pc: Precondition, scopes: ReadonlySet<string> | undefined, outputs: readonly string[]): boolean {
  if (pc.kind === 'requires_auth') return scopes === undefined || scopes.has(pc.scope);
  return outputs.some((name) => pc.prefixes.some((p) => name.startsWith(p)));
}
