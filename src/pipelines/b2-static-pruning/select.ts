import type { Catalog, CatalogTool } from '../../catalog/types.ts';
import type { Task } from '../../tasks/types.ts';

/**
 * How B2 picks its fixed subset, the way a curator configuring one deployment would.
 *
 * `history-usage`: rank the catalog's tools by how often a separate sample of past usage
 * (`historyTasks`, never the evaluated tasks) called them — one count per call, i.e. per
 * occurrence in a turn's tool list — most-used first. Ties: the tool used in more distinct
 * past tasks first, then catalog order (the order the servers list their tools). Tools the
 * history never calls are not ranked; if fewer than `size` tools were used, the rest of the
 * subset is filled by the fallback rule (recorded as `history-usage+fallback`).
 *
 * `fallback-spread-read-only-first` (no history, e.g. a user's own catalog): take tools from
 * each server in turn (round-robin in catalog server order) so every server keeps some
 * coverage; within a server, read-only tools first, then tools of unknown effect, then
 * writing tools, then destructive ones, each group in catalog order. A tool is read-only when
 * its `annotations.readOnlyHint` is true or, without annotations, when its name starts with a
 * reading verb (get, list, search, read, describe, find, show, view); destructive when
 * `annotations.destructiveHint` is true or its name starts with delete/remove/drop/destroy.
 *
 * "Per project": the paper's curator picks 30 tools per project. Here a project is the set
 * of servers a deployment connects, i.e. the catalog the bench is given; the subset is chosen
 * once per catalog from that catalog's tools only (history calls to tools outside it are
 * ignored). Narrower projects (one subset per task's servers) would have to read the evaluated
 * tasks' ground truth to know which servers they use, so they are not modelled.
 */
export type SubsetRule = 'history-usage' | 'history-usage+fallback' | 'fallback-spread-read-only-first';

export interface StaticSubset {
  /** Chosen tool ids, in catalog order (the order the prompt lists them). */
  ids: string[];
  rule: SubsetRule;
  /** Chosen ids in rank order (most-used first, then fallback picks). */
  ranked: string[];
  fromHistory: number;
  fromFallback: number;
  historyTasks: number;
  /** Calls in the history to tools of this catalog. */
  historyCalls: number;
  /** Share of those calls that go to a chosen tool. */
  historyCoverage: number | null;
}

const READ_VERBS = /^(get|list|search|read|describe|find|show|view)(_|-|[A-Z]|$)/;
const DESTRUCTIVE_VERBS = /^(delete|remove|drop|destroy)(_|-|[A-Z]|$)/;

/** 0 read-only, 1 unknown, 2 writes, 3 destructive. */
function effectRank(tool: CatalogTool): number {
  const a = tool.definition.annotations;
  if (a?.destructiveHint === true) return 3;
  if (a?.readOnlyHint === true) return 0;
  if (a?.readOnlyHint === false) return 2;
  if (DESTRUCTIVE_VERBS.test(tool.name)) return 3;
  if (READ_VERBS.test(tool.name)) return 0;
  return 1;
}

/** The fallback order: round-robin over servers, read-only tools first within each. */
export function fallbackOrder(catalog: Catalog, exclude: ReadonlySet<string> = new Set()): string[] {
  const queues = catalog.servers.map((server) =>
    catalog.tools
      .map((tool, index) => ({ tool, index }))
      .filter(({ tool }) => tool.server === server && !exclude.has(tool.id))
      .sort((a, b) => effectRank(a.tool) - effectRank(b.tool) || a.index - b.index)
      .map(({ tool }) => tool.id),
  );
  const order: string[] = [];
  for (let round = 0; queues.some((q) => round < q.length); round++) {
    for (const q of queues) if (round < q.length) order.push(q[round]!);
  }
  return order;
}

export function selectStaticSubset(catalog: Catalog, history: readonly Task[], size: number): StaticSubset {
  if (!Number.isInteger(size) || size < 0) throw new Error(`b2-static-pruning: subset size must be a non-negative integer, got ${size}`);
  const position = new Map(catalog.tools.map((t, i) => [t.id, i]));
  const calls = new Map<string, number>();
  const tasksUsing = new Map<string, number>();
  let historyCalls = 0;
  for (const task of history) {
    const seen = new Set<string>();
    for (const turn of task.turns) {
      for (const id of turn.tools) {
        if (!position.has(id)) continue;
        historyCalls++;
        calls.set(id, (calls.get(id) ?? 0) + 1);
        seen.add(id);
      }
    }
    for (const id of seen) tasksUsing.set(id, (tasksUsing.get(id) ?? 0) + 1);
  }
  const byUsage = [...calls.keys()].sort(
    (a, b) => calls.get(b)! - calls.get(a)! || tasksUsing.get(b)! - tasksUsing.get(a)! || position.get(a)! - position.get(b)!,
  );
  const ranked = byUsage.slice(0, size);
  const fromHistory = ranked.length;
  if (ranked.length < size) ranked.push(...fallbackOrder(catalog, new Set(ranked)).slice(0, size - ranked.length));
  const chosen = new Set(ranked);
  const covered = [...chosen].reduce((s, id) => s + (calls.get(id) ?? 0), 0);
  const rule: SubsetRule =
    fromHistory === 0 ? 'fallback-spread-read-only-first' : ranked.length > fromHistory ? 'history-usage+fallback' : 'history-usage';
  return {
    ids: catalog.tools.filter((t) => chosen.has(t.id)).map((t) => t.id),
    rule,
    ranked,
    fromHistory,
    fromFallback: ranked.length - fromHistory,
    historyTasks: history.length,
    historyCalls,
    historyCoverage: historyCalls ? covered / historyCalls : null,
  };
}
