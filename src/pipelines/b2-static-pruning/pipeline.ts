import { toolDefinitionsSection } from '../../prompt/render-tools.ts';
import { definePipeline, type Pipeline, type PipelineContext, type TurnInput, type TurnResult } from '../types.ts';
import type { FittedPart } from '../../results/pipeline-settings.ts';
import { selectStaticSubset, type StaticSubset } from './select.ts';
import { TOOL_ATTENTION_PAPER } from '../tool-attention-paper.ts';

const DEFAULT_SUBSET_SIZE = 30;

export interface StaticPruningOptions {
  /** How many tools the curator keeps (the paper: 30). */
  size?: number;
}

/**
 * B2 Static Pruning: a curator keeps a fixed subset of the catalog (default 30 tools) and
 * the host passes only those full definitions, on every turn; every other tool is
 * unavailable (not listed at all). The subset is chosen once per catalog (= one deployment's
 * set of servers) from past usage, never from the evaluated tasks; see ./select.ts for the
 * rule and its fallback when there is no usage history.
 */
export function createStaticPruningPipeline(options: StaticPruningOptions = {}): Pipeline {
  const size = options.size ?? DEFAULT_SUBSET_SIZE;
  let subset: StaticSubset | undefined;
  let definitions = toolDefinitionsSection([]);
  let fitted: FittedPart[] = [];
  return {
    id: 'b2-static-pruning',
    label: 'B2 Static Pruning',
    async prepare(ctx: PipelineContext) {
      subset = selectStaticSubset(ctx.catalog, ctx.historyTasks, size);
      fitted = [{ part: 'tool subset', on: subsetSource(subset, ctx.catalog.name) }];
      const chosen = new Set(subset.ids);
      const tools = ctx.catalog.tools.filter((t) => chosen.has(t.id));
      definitions = toolDefinitionsSection(tools);
    },
    async turn({ shared }: TurnInput): Promise<TurnResult> {
      if (!subset) throw new Error('b2-static-pruning: turn() before prepare()');
      const ids = subset.ids;
      return {
        prompt: { sections: [shared.system, definitions, ...shared.history, shared.user] },
        exposure: { listedTools: [...ids], fullSchemaTools: [...ids], discoveryCalls: [] },
      };
    },
    describe() {
      return {
        fitted,
        details: {
          subsetSize: size,
          rule: subset?.rule,
          scope: 'one subset per catalog (a project = the servers one deployment connects); chosen from history tasks only',
          historyTasks: subset?.historyTasks,
          historyCalls: subset?.historyCalls,
          fromHistory: subset?.fromHistory,
          fromFallback: subset?.fromFallback,
          historyCoverage: subset?.historyCoverage,
          subset: subset?.ranked,
        },
      };
    },
  };
}

/** What the curated subset was chosen from, in one line for the table notes. */
function subsetSource(subset: StaticSubset, catalog: string): string {
  const fallback = 'the fallback rule (round-robin over servers, read-only tools first)';
  if (subset.fromHistory === 0) return `no usage history over ${catalog}'s tools: all ${subset.ranked.length} tools by ${fallback}`;
  const rest = subset.fromFallback ? `, ${subset.fromFallback} more by ${fallback}` : '';
  return `usage history: ${subset.historyTasks.toLocaleString('en-US')} past tasks (${subset.historyCalls.toLocaleString('en-US')} calls to ${catalog}'s tools), never the evaluated tasks${rest}`;
}

/** B2's registry entry (src/pipelines/registry.ts). */
export const staticPruningEntry = definePipeline(import.meta.url, {
  id: 'b2-static-pruning',
  code: 'B2',
  group: 'main',
  description: 'a fixed subset of 30 full definitions chosen once from past usage, on every turn',
  published: true,
  reference: `${TOOL_ATTENTION_PAPER}, baseline B2`,
  create: createStaticPruningPipeline,
});
