import { join } from 'node:path';
import { loadCatalog } from '../catalog/load.ts';
import { tableToMarkdown } from '../report/table-text.ts';
import { evaluateRetrievers, skippedNotes, type RetrievalEvaluation, type SkippedRetriever } from '../retrieval/evaluate.ts';
import type { QueryMode } from '../retrieval/query.ts';
import { allRetrieverNames, DEFAULT_RETRIEVER, retrieverByName } from '../retrieval/registry.ts';
import { retrievalByServerTable, retrievalTable, wholeCatalogNotes } from '../retrieval/tables.ts';
import { loadTasks } from '../tasks/load.ts';
import { InputError } from '../util/input-error.ts';

export interface RetrievalCommandOptions {
  catalog?: string[];
  tasks?: string;
  /** Names, or `all`. */
  retriever: string[];
  query: QueryMode;
  json: boolean;
}

/** The `--json` form: one object, every retriever's overall metrics plus the breakdowns, and the skipped ones. */
function retrievalJson(evaluations: readonly RetrievalEvaluation[], skipped: readonly SkippedRetriever[], defaultName: string): string {
  return `${JSON.stringify({
    retrievers: evaluations.map((e) => ({
      name: e.retriever,
      description: e.description,
      toolText: e.toolText,
      query: e.query,
      turns: e.overall.turns,
      recallAt: e.overall.recallAt,
      servedAt: e.overall.servedAt,
      mrr: e.overall.mrr,
      ndcgAt10: e.overall.ndcgAt10,
      allNeededAt10: e.overall.allNeededAt10,
      byKind: e.byKind,
      byPosition: e.byPosition,
      byServer: e.byServer,
    })),
    skipped: skipped.map((s) => ({ name: s.retriever, reason: s.reason })),
    default: defaultName,
  })}\n`;
}

/**
 * `retrieval`: evaluate retrievers on a catalog and a task file without running pipelines.
 * Without --catalog: the synthetic catalog and its evaluated tasks (seed 42).
 */
export async function retrievalCommand(o: RetrievalCommandOptions, root: string, write: (text: string) => void): Promise<void> {
  if (o.catalog && !o.tasks) throw new InputError('--tasks', '', 'a task file (JSON Lines) for --catalog');
  const catalog = loadCatalog(o.catalog ?? [join(root, 'catalogs', 'synthetic-120')]);
  const tasksFile = o.tasks ?? join(root, 'tasks', 'tasks.jsonl');
  const tasks = loadTasks(tasksFile, catalog);
  const names = o.retriever.includes('all') ? allRetrieverNames() : o.retriever;
  for (const name of names) retrieverByName(name); // unknown names fail before any work
  const { evaluations, skipped } = await evaluateRetrievers(names.map(retrieverByName), catalog.tools, tasks, o.query);
  if (o.json) return write(retrievalJson(evaluations, skipped, DEFAULT_RETRIEVER));
  const title = `Tool retrieval on ${catalog.name} (${catalog.tools.length} tools), tasks ${tasksFile}`;
  write(
    `${tableToMarkdown(retrievalTable('retrieval', title, evaluations, DEFAULT_RETRIEVER, [...wholeCatalogNotes(catalog.tools.length), ...skippedNotes(skipped)]))}\n`,
  );
  write(`${tableToMarkdown(retrievalByServerTable('retrieval-by-server', `${title}: R@10 by server`, evaluations))}\n`);
}
