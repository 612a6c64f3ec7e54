import { fewerSeedsNotes } from '../../measure/seeds-note.ts';
import type { TurnRecord } from '../../measure/run-pipeline.ts';
import { HOST_SEARCH_IDS } from '../../pipelines/host-search/entries.ts';
import { CODE_SEARCH_IDS } from '../../pipelines/search-bands.ts';
import { HOST_SEARCH_PUBLISHED } from '../../pipelines/host-search/sources.ts';
import type { Estimate } from '../../stats/bootstrap.ts';
import type { Table } from '../../table/table.ts';
import type { ProjectedMethod } from './tables.ts';
import type { RecallBand } from './search-band.ts';

/** A row's kind: a host's search, a code-execution method that searches, or a papers' method. */
function kindOf(id: string): string {
  if ((HOST_SEARCH_IDS as readonly string[]).includes(id)) return 'host tool search';
  return (CODE_SEARCH_IDS as readonly string[]).includes(id) ? 'code execution (search)' : "papers' method";
}

/** The table's id on the run's own suite (the other suites' studies give it their own). */
export const HOST_SEARCH_TABLE = 'host-search';

/** The papers' methods the hosts' tool search is put beside, in this order. */
export const HOST_SEARCH_BESIDE = ['b1-full-schema', 'b3-simple-retrieval', 'b4-cli-lazy', 'tool-attention', 'adol-combined'] as const;

/**
 * The "host tool search" table of one suite: the mitigations the hosts ship (Anthropic's and
 * OpenAI's tool search, and the client's own search in the same request shapes) beside B1, B3,
 * B4, Tool Attention and ADOL with every mechanism on. Measured: tool tokens per turn, recall of
 * the needed definitions, searches (extra round trips) per task. Projected †, by the same model
 * and parameters as Table 3: model calls and cost per task (every call re-reads the prompt; what
 * it shares with the call before is read from the cache), cache hits, task success. Rows for the methods the run ran.
 */
export function hostSearchTable(
  methods: readonly ProjectedMethod[],
  records: ReadonlyMap<string, readonly TurnRecord[]>,
  suite: string,
  /** The recall band of each host search (./search-band.ts): the lower and upper searching models. */
  bands?: ReadonlyMap<string, RecallBand>,
): Table | undefined {
  const order: readonly string[] = [...HOST_SEARCH_BESIDE, ...HOST_SEARCH_IDS, ...CODE_SEARCH_IDS];
  const shown = order.flatMap((id) => methods.filter((m) => m.id === id));
  if (!shown.some((m) => (HOST_SEARCH_IDS as readonly string[]).includes(m.id))) return undefined;
  const b1 = shown.find((m) => m.id === 'b1-full-schema')?.summary?.toolTokens.mean;
  return {
    id: HOST_SEARCH_TABLE,
    title: `Host tool search beside the papers' methods — ${suite}: tool tokens, recall, round trips, cost and success`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'kind', header: 'kind', kind: 'label' },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      { key: 'vsB1', header: 'Δ % vs B1', kind: 'difference', digits: 1 },
      { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
      { key: 'recallLower', header: 'recall, lower', kind: 'measured', digits: 3 },
      { key: 'recallUpper', header: 'recall, upper', kind: 'measured', digits: 3 },
      { key: 'searches', header: 'searches (extra round trips)/task', kind: 'measured', digits: 2 },
      { key: 'calls', header: 'model calls/task', kind: 'projected', digits: 2 },
      { key: 'cost', header: '$/task (cache-adjusted)', kind: 'projected', digits: 4 },
      { key: 'cacheHit', header: 'cache hit %', kind: 'projected', digits: 0 },
      { key: 'success', header: 'success %', kind: 'projected', digits: 1 },
      { key: 'successCi', header: '95% CI', kind: 'projected' },
      { key: 'successLower', header: 'success %, lower', kind: 'projected', digits: 1 },
      { key: 'successUpper', header: 'success %, upper', kind: 'projected', digits: 1 },
    ],
    rows: shown.map(({ id, label, result, summary }) => {
      const tokens = summary?.toolTokens.mean;
      return {
        pipeline: id,
        method: label,
        kind: kindOf(id),
        toolTokens: tokens,
        vsB1: tokens !== undefined && b1 && id !== 'b1-full-schema' ? (100 * (tokens - b1)) / b1 : undefined,
        recall: summary?.recall,
        recallLower: bands?.get(id)?.lower,
        recallUpper: bands?.get(id)?.upper,
        searches: searchesPerTask(records.get(id) ?? []),
        calls: result.modelCallsPerTask,
        cost: result.costPerTask.mean,
        cacheHit: 100 * result.cacheHitShare,
        success: 100 * result.successRate.mean,
        successCi: ci(result.successRate),
        successLower: percent(bands?.get(id)?.successLower),
        successUpper: percent(bands?.get(id)?.successUpper),
      };
    }),
    notes: [
      'Host tool search: every tool deferred; the calibrated searching model writes the searches (docs/measurement.md, “The searching model”): one capability per needed tool not yet loaded, in the tool’s vocabulary with the fitted probability search.knowledge (the search-calibration table) else from the request, once more when nothing fitting came back; 5 references (Anthropic documents 3–5; BM25 returns at least 3), the loaded definitions stay for the rest of the task, placed in the conversation at the search as the providers place them; OpenAI (hosted and client-executed): namespaces of fewer than 10 functions up front. The search tool’s own definition is a stand-in (the hosts do not publish theirs). Pipelines and assumptions: docs/pipelines.md, “Host tool search”.',
      'Recall band (every pipeline that searches: the host searches, code execution’s search_tools, search + execute): the same pipeline with the lower searching model (the raw request, one search per tool turn: the emulation before the calibrated model) and the upper one (every search in the needed tools’ own words); its recall and projected success (†, the first seed’s tasks) beside the row’s, whose tokens, cost and success are the calibrated point’s.',
      'Searches per task: measured (the discovery calls of the prompts: the search calls, B4’s --list and --help). Model calls, cost, cache hits and success (†): the projection of Table 3, which counts each search as one more model call re-reading the turn’s prompt, and reads from the prompt cache the leading part each call shares with the one before (the same cache model for every method).',
      ...fewerSeedsNotes(methods.flatMap((m) => (m.summary ? [m.summary] : []))),
      ...HOST_SEARCH_PUBLISHED.map((p) => `Published (${p.source}; measured on ${p.catalog}, not ours): ${p.figure}.`),
    ],
  };
}

/** Mean searches (discovery calls) per task over every (seed, task) of the records. */
function searchesPerTask(records: readonly TurnRecord[]): number | undefined {
  if (!records.length) return undefined;
  const tasks = new Set(records.map((r) => `${r.seed}\u0000${r.taskId}`));
  return records.reduce((n, r) => n + r.discoveryCalls, 0) / tasks.size;
}

function ci(e: Estimate): string {
  if (!Number.isFinite(e.low) || !Number.isFinite(e.high)) return '—';
  return `${(100 * e.low).toFixed(1)}–${(100 * e.high).toFixed(1)}`;
}

function percent(share: number | undefined): number | undefined {
  return share === undefined ? undefined : 100 * share;
}
