import type { RetrievalEvaluation } from '../../retrieval/evaluate.ts';
import { ALL_NEEDED_KS } from '../../retrieval/metrics.ts';
import { allRetrieverNames, retrieverEntry } from '../../retrieval/registry.ts';
import type { Column, Table } from '../../table/table.ts';

/** Every retriever's evaluation on one suite. */
export interface SuiteEvaluations {
  /** The suite, with the default retriever's R@10 target on it when it has one (src/table/suites.ts). */
  suite: { id: string; name: string; r10Target?: number };
  evaluations: readonly RetrievalEvaluation[];
}

/** The most an ablation of the default may beat it by, on any suite, before the table says the removed part hurts. */
const ABLATION_TOLERANCE = 0.02;

const fmt = (n: number) => n.toFixed(3);

/**
 * The generalisation table: every retriever's R@10, MRR and all-needed@10 on every suite, with
 * its role (method, untuned library, variant, ablation of the default), and notes that check the
 * default against the best untuned library and against its own ablations on each suite.
 */
export function generalisationTable(results: readonly SuiteEvaluations[], defaultName: string): Table {
  const names = measuredNames(results);
  const find = (r: SuiteEvaluations, name: string) => r.evaluations.find((e) => e.retriever === name);
  const columns: Column[] = [
    { key: 'retriever', header: 'retriever', kind: 'label' },
    { key: 'role', header: 'role', kind: 'label' },
    ...results.flatMap(({ suite }): Column[] => [
      { key: `${suite.id}:r10`, header: `${suite.name} R@10`, kind: 'measured', digits: 3 },
      { key: `${suite.id}:mrr`, header: `${suite.name} MRR`, kind: 'measured', digits: 3 },
      { key: `${suite.id}:all10`, header: `${suite.name} all needed@10`, kind: 'measured', digits: 3 },
    ]),
  ];
  const rows = names.map((name) => {
    const entry = retrieverEntry(name);
    const role =
      name === defaultName
        ? 'default'
        : entry?.role === 'ablation' || entry?.role === 'variant'
          ? `${entry.role}: ${entry.part}`
          : (entry?.role ?? 'method');
    return {
      retriever: name,
      role,
      ...Object.fromEntries(
        results.flatMap((r) => {
          const e = find(r, name);
          return [
            [`${r.suite.id}:r10`, e?.overall.recallAt[10]],
            [`${r.suite.id}:mrr`, e?.overall.mrr],
            [`${r.suite.id}:all10`, e?.overall.allNeededAt10],
          ];
        }),
      ),
    };
  });
  const notes: string[] = [];
  const untuned = names.filter((n) => retrieverEntry(n)?.role === 'untuned-library');
  const ablations = names.filter((n) => retrieverEntry(n)?.role === 'ablation' && retrieverEntry(n)?.of === defaultName);
  for (const r of results) {
    const d = find(r, defaultName)?.overall.recallAt[10];
    if (d === undefined) continue;
    const best = untuned
      .map((n) => ({ n, v: find(r, n)?.overall.recallAt[10] }))
      .filter((x): x is { n: string; v: number } => x.v !== undefined)
      .sort((a, b) => b.v - a.v)[0];
    const worstAblation = ablations
      .map((n) => ({ n, v: find(r, n)?.overall.recallAt[10] }))
      .filter((x): x is { n: string; v: number } => x.v !== undefined)
      .sort((a, b) => b.v - a.v)[0];
    const parts = [`default ${defaultName} R@10 ${fmt(d)}`];
    if (best)
      parts.push(
        `best untuned library ${best.n} ${fmt(best.v)} (${d >= best.v ? 'default at least as good' : `default below by ${fmt(best.v - d)}`})`,
      );
    if (worstAblation) {
      const gain = worstAblation.v - d;
      parts.push(
        `best ablation ${worstAblation.n} ${fmt(worstAblation.v)} (${gain > ABLATION_TOLERANCE ? `beats the default by ${fmt(gain)}: the removed part hurts here` : `within ${ABLATION_TOLERANCE} of the default`})`,
      );
    }
    const target = r.suite.r10Target;
    if (target !== undefined) parts.push(`target R@10 ≥ ${target}: ${d >= target ? 'met' : 'not met'}`);
    notes.push(`${r.suite.name}: ${parts.join('; ')}.`);
  }
  notes.push(
    'Roles: untuned library = a BM25 library on the shared analyzer only (no vocabulary, cues or weights); variant = one part added or changed; ablation = one hand-written or fitted part of the default removed.',
    'Learned parts are trained leave-one-suite-out: a suite is ranked by a model that never saw its catalog or requests (src/retrieval/learned/training-set.ts).',
  );
  return {
    id: 'retrieval-generalisation',
    title: 'Retrieval across suites: R@10, MRR and all needed in the top 10, every retriever on every suite',
    columns,
    rows,
    notes,
  };
}

/** Share of turns with every needed tool in the top k (k = 5, 10, 20), every retriever on every suite. */
export function allNeededTable(results: readonly SuiteEvaluations[]): Table {
  const names = measuredNames(results);
  return {
    id: 'retrieval-all-needed',
    title: 'Requests with every needed tool in the top k (k = 5, 10, 20), per suite',
    columns: [
      { key: 'retriever', header: 'retriever', kind: 'label' },
      ...results.flatMap(({ suite }) =>
        ALL_NEEDED_KS.map((k): Column => ({ key: `${suite.id}:${k}`, header: `${suite.name} all@${k}`, kind: 'measured', digits: 3 })),
      ),
    ],
    rows: names.map((name) => ({
      retriever: name,
      ...Object.fromEntries(
        results.flatMap((r) => {
          const e = r.evaluations.find((x) => x.retriever === name);
          return ALL_NEEDED_KS.map((k) => [`${r.suite.id}:${k}`, e?.overall.allNeededAt[k]]);
        }),
      ),
    })),
    notes: [
      `Needed tools per tool turn: ${results.map((r) => `${r.suite.name} ${meanNeeded(r).toFixed(2)}`).join(', ')}. A turn counts only when all of its needed tools are in the top k.`,
    ],
  };
}

function meanNeeded(r: SuiteEvaluations): number {
  return r.evaluations[0]?.overall.meanNeeded ?? NaN;
}

/** Every retriever measured on any suite, in registry order (bm25:okapi skips the large synthetic suite). */
function measuredNames(results: readonly SuiteEvaluations[]): string[] {
  const order = allRetrieverNames();
  const rank = (n: string) => (order.includes(n) ? order.indexOf(n) : order.length);
  return [...new Set(results.flatMap((r) => r.evaluations.map((e) => e.retriever)))].sort((a, b) => rank(a) - rank(b));
}
