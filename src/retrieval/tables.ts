import type { Column, Table } from '../table/table.ts';
import type { RetrievalEvaluation } from './evaluate.ts';
import { RECALL_KS } from './metrics.ts';
import { describeQueryMode } from './query.ts';
import { ownValue } from '../util/json.ts';

/** The retrieval table: one row per retriever, recall@k, served@10, MRR, nDCG@10, all needed in the top 10. */
export function retrievalTable(
  id: string,
  title: string,
  evaluations: readonly RetrievalEvaluation[],
  defaultName: string,
  notes: string[] = [],
): Table {
  const columns: Column[] = [
    { key: 'retriever', header: 'retriever', kind: 'label' },
    ...RECALL_KS.map((k): Column => ({ key: `r${k}`, header: `R@${k}`, kind: 'measured', digits: 3 })),
    { key: 'served10', header: 'served@10', kind: 'measured', digits: 3 },
    { key: 'mrr', header: 'MRR', kind: 'measured', digits: 3 },
    { key: 'ndcg', header: 'nDCG@10', kind: 'measured', digits: 3 },
    { key: 'all10', header: 'all needed in top 10', kind: 'measured', digits: 3 },
    { key: 'first', header: 'R@10 first turns', kind: 'measured', digits: 3 },
    { key: 'followUp', header: 'R@10 follow-ups', kind: 'measured', digits: 3 },
  ];
  const rows = evaluations.map((e) => ({
    retriever: e.retriever === defaultName ? `${e.retriever} (default)` : e.retriever,
    ...Object.fromEntries(RECALL_KS.map((k) => [`r${k}`, e.overall.recallAt[k]])),
    served10: e.overall.servedAt[10],
    mrr: e.overall.mrr,
    ndcg: e.overall.ndcgAt10,
    all10: e.overall.allNeededAt10,
    first: e.byPosition.first.recallAt[10],
    followUp: e.byPosition.followUp.turns ? e.byPosition.followUp.recallAt[10] : null,
  }));
  const first = evaluations[0];
  return {
    id,
    title,
    columns,
    rows,
    notes: [
      ...(first
        ? [
            `${first.overall.turns.toLocaleString('en-US')} tool turns (${first.byPosition.first.turns} first, ${first.byPosition.followUp.turns} follow-up); query: ${describeQueryMode(first.query)}.`,
          ]
        : []),
      'R@k: share of a turn’s needed tools in the top k, averaged over tool turns; served@10 also counts an acceptable alternative in the top 10 for a needed tool that is not.',
      ...evaluations.map((e) => `${e.retriever}: ${e.description}; tool text: ${e.toolText}.`),
      ...notes,
    ],
  };
}

/**
 * The note of a catalog no larger than some k: its top k is the whole catalog, so R@k (and the
 * top-10 columns, for 10 or fewer tools) cannot tell retrievers apart. None otherwise.
 */
export function wholeCatalogNotes(tools: number): string[] {
  const ks = RECALL_KS.filter((k) => k >= tools);
  if (ks.length === 0) return [];
  const columns = [...ks.map((k) => `R@${k}`), ...(tools <= 10 ? ['served@10', 'all needed in top 10'] : [])];
  return [
    `k ≥ the catalog's ${tools.toLocaleString('en-US')} tools for ${columns.join(', ')}: the top k holds the whole catalog, so these say nothing about the ranking (1.000 whenever every tool is ranked).`,
  ];
}

/** R@10 per server, one column per retriever. */
export function retrievalByServerTable(id: string, title: string, evaluations: readonly RetrievalEvaluation[]): Table {
  const servers = Object.keys(evaluations[0]?.byServer ?? {});
  return {
    id,
    title,
    columns: [
      { key: 'server', header: 'server', kind: 'label' },
      { key: 'turns', header: 'tool turns', kind: 'measured' },
      ...evaluations.map((e): Column => ({ key: e.retriever, header: e.retriever, kind: 'measured', digits: 3 })),
    ],
    rows: servers.map((s) => {
      const of = (e: RetrievalEvaluation) => ownValue(e.byServer, s)!;
      return {
        server: s,
        turns: of(evaluations[0]!).turns,
        ...Object.fromEntries(evaluations.map((e) => [e.retriever, of(e).turns ? of(e).recallAt[10] : null])),
      };
    }),
    notes: ['R@10 over the tool turns that need a tool of the server.'],
  };
}
