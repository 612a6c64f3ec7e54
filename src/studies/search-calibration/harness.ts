import { serializeToolDefinition } from '../../catalog/types.ts';
import { searchRecall, type SearchRecall } from '../../measure/search-recall.ts';
import { SEARCH_EXECUTE_TOOLS } from '../../pipelines/code-mode/tools.ts';
import { createHostSearchPipeline, type HostSearchKind } from '../../pipelines/host-search/pipeline.ts';
import { anchoredConfusion, SELECTION_ANCHOR, valuesOf, withParam, type ProjectionParams } from '../../sim/projection/params.ts';
import type { SearchBand } from '../../sim/search-model.ts';
import { rightPickProbability } from '../../sim/selection.ts';
import { pipelineContext, studyWorkDir } from '../common.ts';
import type { SuiteInputs } from '../real-suite/suite-run.ts';
import type { StudyContext } from '../types.ts';
import type { HarnessKey } from './figures.ts';

/** The harness's figure for a published one: a value in percent and the setup it was computed on. */
export type HarnessFigure = { value: number; setup: string; basis: 'measured' | 'modelled' } | { missing: string };

/** What the harness figures are computed from: the run's context and the two real suites it can load. */
export interface HarnessInputs {
  ctx: StudyContext;
  /** The LiveMCPBench development half (527 tools, 47 requests). */
  lmb?: SuiteInputs;
  /** The six real servers with the hand-written queries. */
  real?: SuiteInputs;
}

const OPUS4_ACCURACY = 0.49;

/**
 * Computes the harness's side of each published figure, on the closest setup it can build.
 * Searches run on the suites' own catalogs and requests with the searching model at the given
 * parameters; token figures read the run's own pipeline summaries (the run's catalog).
 */
export class CalibrationHarness {
  private readonly runs = new Map<string, Promise<SearchRecall>>();

  constructor(
    private readonly inputs: HarnessInputs,
    readonly params: ProjectionParams,
  ) {}

  /** One search pipeline driven over a suite's tasks (memoised by its settings). */
  search(
    kind: HostSearchKind,
    suite: 'lmb' | 'real',
    references: number,
    band: SearchBand = 'calibrated',
  ): Promise<SearchRecall> | undefined {
    const inputs = this.inputs[suite];
    if (!inputs) return undefined;
    const key = `${kind}|${suite}|${references}|${band}`;
    let run = this.runs.get(key);
    if (!run) {
      const { ctx } = this.inputs;
      const pipeline = createHostSearchPipeline({ kind, band, references, params: this.params });
      run = (async () => {
        await pipeline.prepare!(pipelineContext(ctx, inputs.catalog, studyWorkDir(ctx, 'search-calibration', `${suite}-${kind}`)));
        return searchRecall(pipeline, inputs.tasks, inputs.catalog, (out) => out.split('\n').filter(Boolean));
      })();
      this.runs.set(key, run);
    }
    return run;
  }

  async figure(key: HarnessKey): Promise<HarnessFigure> {
    const lmbSize = this.inputs.lmb
      ? `LiveMCPBench dev half (${this.inputs.lmb.catalog.tools.length} tools, ${this.inputs.lmb.tasks.length} requests)`
      : '';
    const realSize = this.inputs.real
      ? `real six servers (${this.inputs.real.catalog.tools.length} tools, ${this.inputs.real.tasks.length} tasks)`
      : '';
    const noLmb = { missing: 'the LiveMCPBench catalog or tasks are missing' };
    const noReal = { missing: 'the real catalogs or tasks are missing' };
    const c45 = valuesOf(this.params)['selection.confusionPerSchema'];
    const c4 = anchoredConfusion(OPUS4_ACCURACY, SELECTION_ANCHOR.tools);
    switch (key) {
      case 'arcadeBm25':
      case 'arcadeRegex': {
        const r = await this.search(key === 'arcadeBm25' ? 'anthropic-bm25' : 'anthropic-regex', 'lmb', 5);
        if (!r) return noLmb;
        return {
          value: 100 * r.recall,
          setup: `${lmbSize}; ${key === 'arcadeBm25' ? 'BM25' : 'regex'}, 5 references, calibrated searching model (${r.searchesPerToolTurn.toFixed(1)} searches/turn)`,
          basis: 'modelled',
        };
      }
      case 'lmbFirstSearch':
      case 'lmbThreeSearches': {
        const r = await this.search('anthropic-bm25', 'lmb', 3);
        if (!r) return noLmb;
        return key === 'lmbFirstSearch'
          ? {
              value: 100 * r.firstSearch,
              setup: `${lmbSize}; BM25 stand-in, 3 references, first search of each request`,
              basis: 'modelled',
            }
          : {
              value: 100 * r.recall,
              setup: `${lmbSize}; BM25 stand-in, 3 references, every search (${r.searchesPerToolTurn.toFixed(1)}/request)`,
              basis: 'modelled',
            };
      }
      case 'selectionAllOpus45':
      case 'selectionAllOpus4': {
        const c = key === 'selectionAllOpus45' ? c45 : c4;
        return {
          value: 100 * pick(SELECTION_ANCHOR.tools, c, this.params),
          setup: `${SELECTION_ANCHOR.tools} definitions in view (the anchor's assumed count); c solved from this figure`,
          basis: 'modelled',
        };
      }
      case 'selectionSearchOpus45':
      case 'selectionSearchOpus4': {
        const r = await this.search('anthropic-bm25', 'real', 5);
        if (!r) return noReal;
        const c = key === 'selectionSearchOpus45' ? c45 : c4;
        return {
          value: 100 * selectionWithSearch(r, c, this.params),
          setup: `${realSize}; Anthropic BM25 tool search, calibrated searching model; P(loaded) × P(right | the definitions loaded)`,
          basis: 'modelled',
        };
      }
      case 'ragMcpRetrieval': {
        const r = await this.search('anthropic-bm25', 'lmb', 5, 'lower');
        if (!r) return noLmb;
        return {
          value: 100 * selectionWithSearch(r, c45, this.params),
          setup: `${lmbSize}; one BM25 retrieval with the raw request, 5 definitions; P(loaded) × P(right)`,
          basis: 'modelled',
        };
      }
      case 'ragMcpAll': {
        const n = this.inputs.lmb?.catalog.tools.length;
        if (!n) return noLmb;
        return { value: 100 * pick(n, c45, this.params), setup: `${lmbSize}: every definition in view`, basis: 'modelled' };
      }
      case 'cloudflareDefinitions': {
        const catalog = this.inputs.lmb?.catalog ?? this.inputs.ctx.catalog;
        const count = (texts: string[]) => texts.reduce((n, t) => n + this.inputs.ctx.tokens.count(t), 0);
        const all = count(catalog.tools.map((t) => serializeToolDefinition(t.definition)));
        const pair = count(SEARCH_EXECUTE_TOOLS.map(serializeToolDefinition));
        return {
          value: (100 * (pair - all)) / all,
          setup: `${catalog.tools.length} definitions (${all.toLocaleString('en-US')} tokens) against search + execute (${pair} tokens)`,
          basis: 'measured',
        };
      }
      case 'atsContext':
        return this.promptChange('anthropic-tool-search-bm25', 'prompt tokens/turn');
      case 'openAiTotal':
        return this.promptChange('openai-tool-search', 'prompt tokens/turn');
      case 'programmaticTotal':
        return this.promptChange('programmatic-calls', 'prompt tokens/turn');
      case 'codeExecutionTotal':
        return this.promptChange('code-mode-files', 'prompt tokens/turn');
      case 'paperB2':
        return this.promptChange('b2-static-pruning', 'tool tokens/turn', true);
      case 'paperB3':
        return this.promptChange('b3-simple-retrieval', 'tool tokens/turn', true);
      case 'paperB4':
        return this.promptChange('b4-cli-lazy', 'tool tokens/turn', true);
      case 'paperTa':
        return this.promptChange('tool-attention', 'tool tokens/turn', true);
    }
  }

  /** A pipeline's mean prompt (or tool) tokens per turn against B1's, in the run's own records. */
  private promptChange(id: string, what: string, toolsOnly = false): HarnessFigure {
    const { ctx } = this.inputs;
    const b1 = ctx.summaries.find((s) => s.pipeline === 'b1-full-schema');
    const s = ctx.summaries.find((x) => x.pipeline === id);
    if (!b1 || !s) return { missing: `${s ? 'B1' : id} was not run in this bench (--pipelines)` };
    const of = (x: typeof s) => (toolsOnly ? x.toolTokens.mean : x.promptTokens.mean);
    return {
      value: (100 * (of(s) - of(b1))) / of(b1),
      setup: `${ctx.catalog.name} (${ctx.catalog.tools.length} tools), ${what}: ${Math.round(of(s)).toLocaleString('en-US')} against B1's ${Math.round(of(b1)).toLocaleString('en-US')}`,
      basis: 'measured',
    };
  }
}

/** P(right) with `n` definitions in view, at confusion c (the selection model, src/sim/selection.ts). */
function pick(n: number, c: number, params: ProjectionParams): number {
  return rightPickProbability(
    { schemas: Math.max(0, n - 1), summaries: 0, cliLines: 0 },
    valuesOf(withParam(params, 'selection.confusionPerSchema', c)),
  );
}

/** Mean over needed tools of P(its definition was loaded) × P(right | the definitions loaded). */
function selectionWithSearch(r: SearchRecall, c: number, params: ProjectionParams): number {
  if (!r.needs.length) return Number.NaN;
  return r.needs.reduce((sum, n) => sum + (n.present ? pick(n.loaded, c, params) : 0), 0) / r.needs.length;
}
