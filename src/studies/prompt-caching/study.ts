import { performance } from 'node:perf_hooks';
import { defineStudy, type Study, type StudyContext, type TurnWatcher, type WatchContext } from '../types.ts';
import type { DrivenTurn } from '../../measure/run-pipeline.ts';
import type { PipelineEntry } from '../../pipelines/registry.ts';
import type { PromptSection } from '../../pipelines/types.ts';
import { PUBLISHED_CACHE_HIT, PUBLISHED_SOURCE, TESTBED_CATALOG } from '../../reference/published.ts';
import type { Cell, Table } from '../../table/table.ts';
import type { Task } from '../../tasks/types.ts';
import type { TokenCounter } from '../../tokens/counter.ts';
import { sectionTokens } from '../../prompt/section-tokens.ts';
import { sharedPrefixTokens } from '../../measure/shared-prefix.ts';
import { driveTurns, isMainMethod, mainPipelines, pipelineContext, since, studyWorkDir, tasksFit, truncateTask } from '../common.ts';
import { ownValue } from '../../util/json.ts';

/**
 * Prompt-caching study (paper §5.6): the share of prompt tokens a provider's prefix cache
 * would serve over 30-turn sessions, given the prompt layout each pipeline produces.
 *
 * Sessions: every long-horizon task of the evaluated set, cut to its first `sessionTurns`
 * turns. The cache depends on section texts, which turn records do not keep: the study watches
 * each method's own run of the first seed's tasks (watchTurns), and drives a method over the
 * sessions itself only when the bench did not watch it (another caller's pipelines).
 *
 * Cache model (provider prefix caching, e.g. Anthropic prompt caching or OpenAI automatic
 * caching): on turn t the cached prefix is the longest run of leading sections identical
 * (same role, same text) to the leading sections of turn t−1's prompt, provided it reaches
 * `minCacheableTokens` (Anthropic: 1,024 tokens for most models; OpenAI: 1,024); otherwise
 * nothing is served from cache. Assumptions: breakpoints may sit at any section boundary
 * (ideal placement), consecutive turns fall within the cache lifetime, and the first turn of
 * every session is cold (no reuse across sessions). Only section boundaries count: a section
 * that changes is not partly reused.
 */

const CACHE_PARAMS = {
  sessionTurns: 30,
  minCacheableTokens: 1024,
  quickSessions: 6,
} as const;

export interface CacheTurn {
  promptTokens: number;
  cachedTokens: number;
  /** Same, with no minimum cacheable size. */
  cachedTokensNoMin: number;
  /** Leading run of sections the pipeline marked stable (its own claim). */
  declaredStableTokens: number;
}

/**
 * Tokens served from cache on a turn: the tokens of the leading sections shared with the
 * previous turn's prompt (the turn record's measured `sharedPrefixTokens`), or 0 when they fall
 * short of `minTokens`.
 */
export function cachedPrefixTokens(
  prev: readonly PromptSection[] | undefined,
  cur: readonly PromptSection[],
  counts: readonly number[],
  minTokens: number,
): number {
  const tokens = sharedPrefixTokens(prev, cur, counts);
  return tokens >= minTokens && tokens > 0 ? tokens : 0;
}

/** Cache accounting for one session (a sequence of prompts). */
export function sessionCache(prompts: readonly (readonly PromptSection[])[], tokens: TokenCounter, minTokens: number): CacheTurn[] {
  const out: CacheTurn[] = [];
  let prev: readonly PromptSection[] | undefined;
  for (const sections of prompts) {
    // Memoised with the section object: the full tool list is the same object on every turn.
    const counts = sections.map((s) => sectionTokens(s, tokens));
    let declared = 0;
    for (let i = 0; i < sections.length && sections[i]!.stable; i++) declared += counts[i]!;
    out.push({
      promptTokens: counts.reduce((a, b) => a + b, 0),
      cachedTokens: cachedPrefixTokens(prev, sections, counts, minTokens),
      cachedTokensNoMin: cachedPrefixTokens(prev, sections, counts, 0),
      declaredStableTokens: declared,
    });
    prev = sections;
  }
  return out;
}

/** `system | tool-definitions | history×29 | user`: a prompt's layout by section label. */
export function layoutOf(sections: readonly PromptSection[]): string {
  const parts: { name: string; n: number }[] = [];
  for (const s of sections) {
    const name = s.role === 'history' ? 'history' : s.label;
    const last = parts.at(-1);
    if (last && last.name === name) last.n++;
    else parts.push({ name, n: 1 });
  }
  return parts.map((p) => (p.n > 1 ? `${p.name}×${p.n}` : p.name)).join(' | ');
}

export interface CacheRow {
  pipeline: string;
  label: string;
  sessions: number;
  turns: number;
  promptTokens: number;
  cachedTokens: number;
  cachedShare: number;
  cachedShareNoMin: number;
  hitRate: number;
  declaredStableShare: number;
  uncachedTokens: number;
  layout: string;
}

export interface CachingOptions {
  pipelines?: PipelineEntry[];
  sessions?: number;
  minCacheableTokens?: number;
}

function cachingSessions(tasks: readonly Task[], limit?: number): Task[] {
  const long = tasks.filter((t) => t.kind === 'long').map((t) => truncateTask(t, CACHE_PARAMS.sessionTurns));
  return limit === undefined ? long : long.slice(0, limit);
}

function sessionLimit(quick: boolean, opts: CachingOptions): number | undefined {
  return opts.sessions ?? (quick ? CACHE_PARAMS.quickSessions : undefined);
}

/** One method's sessions, summed (integers: the same in any order). */
interface SessionTotals {
  turns: number;
  promptTokens: number;
  cachedTokens: number;
  cachedTokensNoMin: number;
  hitTurns: number;
  declaredStableTokens: number;
  /** Layout of the first session's last turn. */
  layout: string;
}

/**
 * Gathers the sessions' prompts from a method's driven turns (the first `sessionTurns` turns of
 * each session task, as truncateTask cuts them) and sums their cache accounting.
 */
class SessionWatcher implements TurnWatcher {
  private readonly ids: Set<string>;
  private readonly firstId: string | undefined;
  private current: { taskId: string; prompts: PromptSection[][] } | undefined;
  private readonly totals: SessionTotals = {
    turns: 0,
    promptTokens: 0,
    cachedTokens: 0,
    cachedTokensNoMin: 0,
    hitTurns: 0,
    declaredStableTokens: 0,
    layout: '',
  };

  constructor(
    sessions: readonly Task[],
    private readonly tokens: TokenCounter,
    private readonly minTokens: number,
  ) {
    this.ids = new Set(sessions.map((t) => t.id));
    this.firstId = sessions[0]?.id;
  }

  onTurn({ task, turnIndex, result }: Pick<DrivenTurn, 'task' | 'turnIndex' | 'result'>): void {
    if (!this.ids.has(task.id) || turnIndex >= CACHE_PARAMS.sessionTurns) return;
    if (this.current?.taskId !== task.id) {
      this.flush();
      this.current = { taskId: task.id, prompts: [] };
    }
    this.current.prompts.push(result.prompt.sections);
    if (task.id === this.firstId) this.totals.layout = layoutOf(result.prompt.sections);
  }

  finish(): SessionTotals {
    this.flush();
    return this.totals;
  }

  private flush(): void {
    if (!this.current) return;
    for (const t of sessionCache(this.current.prompts, this.tokens, this.minTokens)) {
      this.totals.turns++;
      this.totals.promptTokens += t.promptTokens;
      this.totals.cachedTokens += t.cachedTokens;
      this.totals.cachedTokensNoMin += t.cachedTokensNoMin;
      this.totals.hitTurns += t.cachedTokens > 0 ? 1 : 0;
      this.totals.declaredStableTokens += t.declaredStableTokens;
    }
    this.current = undefined;
  }
}

/** The sessions of a method, driven here (when the bench did not watch its own run of them). */
async function driveSessions(
  ctx: StudyContext,
  entry: PipelineEntry,
  sessions: readonly Task[],
  minTokens: number,
): Promise<SessionTotals> {
  const pipeline = entry.create();
  await pipeline.prepare?.(pipelineContext(ctx, ctx.catalog, studyWorkDir(ctx, 'prompt-caching', entry.id)));
  // Exact counts; the counter splits long texts at seams, so definitions recurring across turns are encoded once.
  const watcher = new SessionWatcher(sessions, ctx.tokens, minTokens);
  await driveTurns(pipeline, sessions, ctx.catalog, (turn) => watcher.onTurn(turn));
  return watcher.finish();
}

function cacheRow(entry: PipelineEntry, label: string, sessions: number, t: SessionTotals): CacheRow {
  const prompt = t.promptTokens;
  return {
    pipeline: entry.id,
    label,
    sessions,
    turns: t.turns,
    promptTokens: prompt / t.turns,
    cachedTokens: t.cachedTokens / t.turns,
    cachedShare: t.cachedTokens / prompt,
    cachedShareNoMin: t.cachedTokensNoMin / prompt,
    hitRate: t.hitTurns / t.turns,
    declaredStableShare: t.declaredStableTokens / prompt,
    uncachedTokens: (prompt - t.cachedTokens) / t.turns,
    layout: t.layout,
  };
}

async function runPromptCaching(ctx: StudyContext, opts: CachingOptions = {}): Promise<{ rows: CacheRow[]; sessions: Task[] }> {
  const minTokens = opts.minCacheableTokens ?? CACHE_PARAMS.minCacheableTokens;
  const sessions = cachingSessions(ctx.tasks, sessionLimit(ctx.quick, opts));
  const rows: CacheRow[] = [];
  for (const entry of mainPipelines(ctx, opts.pipelines)) {
    const started = performance.now();
    // What the bench watched of the method's own run (createPromptCachingStudy's watchTurns), else driven here.
    const watched = opts.pipelines ? undefined : (ctx.perPipeline?.get(entry.id) as SessionTotals | undefined);
    const totals = watched ?? (await driveSessions(ctx, entry, sessions, minTokens));
    rows.push(cacheRow(entry, entry.create().label, sessions.length, totals));
    ctx.log(
      `  prompt-caching ${rows.at(-1)!.label}: ${totals.turns} turns ${watched ? 'watched in its run' : `in ${since(started)}`}; ${(100 * rows.at(-1)!.cachedShare).toFixed(1)}% of prompt tokens from cache`,
    );
  }
  return { rows, sessions };
}

/** Published hit rates over a 30-turn session (paper §5.6), keyed by pipeline id for labelling. */

function cachingTable(rows: readonly CacheRow[], sessions: readonly Task[], minTokens: number = CACHE_PARAMS.minCacheableTokens): Table {
  return {
    id: 'prompt-caching',
    title: `Prompt caching: share of prompt tokens served from a prefix cache over ${CACHE_PARAMS.sessionTurns}-turn sessions`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'turns', header: 'turns', kind: 'measured' },
      { key: 'promptTokens', header: 'prompt tokens/turn', kind: 'measured' },
      { key: 'cachedTokens', header: 'cached tokens/turn', kind: 'measured' },
      { key: 'uncachedTokens', header: 'uncached tokens/turn', kind: 'measured' },
      { key: 'cachedShare', header: 'cached share %', kind: 'measured', digits: 1 },
      { key: 'pubShare', header: 'published hit rate %', kind: 'published', digits: 0, publishedFor: TESTBED_CATALOG },
      { key: 'hitRate', header: 'turns with a cache hit %', kind: 'measured', digits: 1 },
      { key: 'cachedShareNoMin', header: 'cached share, no minimum %', kind: 'measured', digits: 1 },
      { key: 'declaredStableShare', header: 'declared-stable prefix %', kind: 'measured', digits: 1 },
    ],
    rows: rows.map((r): Record<string, Cell> => ({
      method: r.label,
      turns: r.turns,
      promptTokens: r.promptTokens,
      cachedTokens: r.cachedTokens,
      uncachedTokens: r.uncachedTokens,
      cachedShare: 100 * r.cachedShare,
      pubShare: ownValue(PUBLISHED_CACHE_HIT, r.pipeline),
      hitRate: 100 * r.hitRate,
      cachedShareNoMin: 100 * r.cachedShareNoMin,
      declaredStableShare: 100 * r.declaredStableShare,
    })),
    notes: [
      `Sessions: the ${sessions.length} long-horizon tasks of the evaluated set, each cut to its first ${CACHE_PARAMS.sessionTurns} turns (${sessions.reduce((s, t) => s + t.turns.length, 0)} turns).`,
      `Cache model: on each turn the cached prefix is the longest run of leading sections identical (role and text) to the previous turn's leading sections, counted only if it reaches ${minTokens.toLocaleString('en-US')} tokens (minimum cacheable prompt, Anthropic/OpenAI; parameter). Breakpoints at any section boundary, no expiry between turns, first turn of each session cold, no reuse across sessions. Cached share = cached tokens / prompt tokens over all turns; hit rate = turns with any cached prefix.`,
      '"Declared-stable prefix" = leading sections the pipeline itself marks stable (its claim); the cached share is measured from the texts, whatever the claim.',
      ...rows.map((r) => `Layout, ${r.label} (first session, turn ${CACHE_PARAMS.sessionTurns} or last): ${r.layout}.`),
      `Published (paper §5.6, not ours): cache hit rate over a 30-turn session ${PUBLISHED_CACHE_HIT['tool-attention']}% (Tool Attention) vs ${PUBLISHED_CACHE_HIT['b1-full-schema']}% (full schema), the latter attributed to invalidation "on every tool-list update". ${PUBLISHED_SOURCE}.`,
    ],
  };
}

export function createPromptCachingStudy(opts: CachingOptions = {}): Study {
  return {
    id: 'prompt-caching',
    description: "the share of each method's prompt tokens a prefix cache serves over multi-turn sessions",
    // It reads only what it watched of the main methods' runs (their prompt sections).
    readsPipelineResults: true,
    needsTasks: true,
    watchTurns(ctx: WatchContext) {
      if (opts.pipelines || ctx.entry.group !== 'main' || ctx.entry.ablationOf) return undefined;
      if (!ctx.tasks.some((t) => t.kind === 'long')) return undefined;
      const sessions = cachingSessions(ctx.tasks, sessionLimit(ctx.quick, opts));
      return new SessionWatcher(sessions, ctx.tokens, opts.minCacheableTokens ?? CACHE_PARAMS.minCacheableTokens);
    },
    async run(ctx: StudyContext) {
      const started = performance.now();
      if (mainPipelines(ctx, opts.pipelines).length === 0) {
        ctx.log('prompt-caching: skipped (no main pipeline in this run)');
        return [];
      }
      if (!ctx.tasks.some((t) => t.kind === 'long') || !tasksFit(ctx.tasks, ctx.catalog)) {
        ctx.log('prompt-caching: skipped (no long-horizon tasks)');
        return [];
      }
      const { rows, sessions } = await runPromptCaching(ctx, opts);
      ctx.log(`prompt-caching: ${rows.length} methods in ${since(started)}`);
      return [cachingTable(rows, sessions, opts.minCacheableTokens)];
    },
  };
}

export const promptCachingStudy: Study = defineStudy(import.meta.url, { ...createPromptCachingStudy(), pipelinesGiven: isMainMethod });
