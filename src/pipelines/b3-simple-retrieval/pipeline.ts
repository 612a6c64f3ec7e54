import type { CatalogTool } from '../../catalog/types.ts';
import type { EncoderName } from '../../embed/registry.ts';
import type { Encoder } from '../../embed/types.ts';
import type { CreateVectorIndexOptions } from '../../index/registry.ts';
import { resolveEncoder } from '../../retrieval/encoder.ts';
import { schemaSections } from '../../retrieval/schema-sections.ts';
import { queryText, toolDefinitionText, type DefinitionTextMode } from '../../retrieval/texts.ts';
import { buildToolIndex, type ToolIndex } from '../../retrieval/tool-index.ts';
import { definePipeline, type Pipeline, type PipelineContext, type TurnInput, type TurnResult } from '../types.ts';
import { DEFAULT_QUERY_MODE, describeQueryMode, type QueryMode } from '../../retrieval/query.ts';
import { DEFAULT_RETRIEVER, retrieverByName } from '../../retrieval/registry.ts';
import { retrieverFit, retrieverRecord } from '../../retrieval/recorded-settings.ts';
import { taskRankings } from '../../retrieval/task-rankings.ts';
import type { FittedRetriever, Retriever } from '../../retrieval/types.ts';
import { TOOL_ATTENTION_PAPER } from '../tool-attention-paper.ts';

export interface SimpleRetrievalOptions {
  /** Full schemas injected per turn (paper §6.4: 10). */
  k?: number;
  /** What is embedded per tool (default: the serialised full definition). */
  embedText?: DefinitionTextMode;
  /** Encoder name or instance instead of the bench's (ctx.encoder): the paper form, cosine over embedded definitions. */
  encoder?: EncoderName | Encoder;
  /** Rank with this retriever (src/retrieval/registry.ts); default, unless `encoder` is given: ctx.retriever, else DEFAULT_RETRIEVER. */
  retriever?: string;
  /** Query text on a retriever (default DEFAULT_QUERY_MODE). */
  query?: QueryMode;
  /** Vector index implementation (default auto: faiss when built, else exact). */
  index?: CreateVectorIndexOptions['prefer'];
  id?: string;
  label?: string;
}

export const RETRIEVED_SCHEMAS_HEADING = 'Tools retrieved for this request (MCP tools/list entries):';

/**
 * B3 Simple Retrieval (paper §6.4): embed the user's message, rank every tool by cosine
 * similarity to its embedded full definition, inject the top-k full schemas. No threshold, no
 * state gating, no summaries, no lazy loading. The schemas change every turn, so they sit after
 * the history, right before the user's message; only the system text is a stable prefix.
 * The `retrieved-schemas` part is a heading section plus one section per definition.
 */
export function createSimpleRetrievalPipeline(options: SimpleRetrievalOptions = {}): Pipeline {
  const k = options.k ?? 10;
  if (!Number.isInteger(k) || k < 1) throw new Error(`b3: k must be a positive integer, got ${k}`);
  const embedText = options.embedText ?? 'definition';
  let encoder: Encoder | undefined;
  let toolIndex: ToolIndex | undefined;
  let retriever: Retriever | undefined;
  let fitted: FittedRetriever | undefined;
  const paperForm = options.encoder !== undefined && options.retriever === undefined;
  const queryMode: QueryMode = options.query ?? DEFAULT_QUERY_MODE;
  let byId = new Map<string, CatalogTool>();

  return {
    id: options.id ?? 'b3-simple-retrieval',
    label: options.label ?? 'B3 Simple Retrieval',
    async prepare(ctx: PipelineContext) {
      byId = new Map(ctx.catalog.tools.map((t) => [t.id, t]));
      if (paperForm) {
        encoder = await resolveEncoder(ctx, options.encoder);
        toolIndex = await buildToolIndex(encoder, ctx.catalog.tools, (t) => toolDefinitionText(t, embedText), options.index);
      } else {
        retriever = retrieverByName(options.retriever ?? ctx.retriever ?? DEFAULT_RETRIEVER);
        fitted = await retriever.fit(ctx.catalog.tools);
      }
    },
    async turn({ task, turnIndex, turn, shared }: TurnInput): Promise<TurnResult> {
      let hits: { id: string }[];
      if (fitted) hits = (await taskRankings(fitted, task, queryMode))[turnIndex]!.top(k);
      else {
        if (!encoder || !toolIndex) throw new Error('b3-simple-retrieval: prepare() was not called');
        const [query] = await encoder.embed([queryText(turn.user)]);
        hits = toolIndex.index.search(query!, k);
      }
      const tools = hits.map((h) => byId.get(h.id)!);
      const ids = tools.map((t) => t.id);
      const schemas = schemaSections(
        'retrieved-schemas',
        RETRIEVED_SCHEMAS_HEADING,
        tools.map((t) => t.definition),
      );
      return {
        prompt: { sections: [shared.system, ...shared.history, ...schemas, shared.user] },
        exposure: { listedTools: ids, fullSchemaTools: ids, discoveryCalls: [] },
      };
    },
    describe() {
      return {
        fitted: retrieverFit(retriever, fitted),
        retrieval: retriever
          ? {
              ...retrieverRecord(retriever),
              k,
              toolText: retriever.toolText,
              query: describeQueryMode(queryMode),
            }
          : {
              encoder: encoder?.name ?? '?',
              encoderDescription: encoder?.description,
              index: toolIndex?.index.name,
              indexNote: toolIndex?.note,
              k,
              toolText: embedText,
              query: 'user message',
              retriever: `dense:${encoder?.name ?? '?'} over ${embedText} (paper form)`,
            },
        gates: { hallucination: false, preconditions: false },
        details: {},
      };
    },
  };
}

/** B3's registry entry (src/pipelines/registry.ts). */
export const simpleRetrievalEntry = definePipeline(import.meta.url, {
  id: 'b3-simple-retrieval',
  code: 'B3',
  group: 'main',
  description: "the top 10 full definitions the bench's retriever ranks for the user's message",
  published: true,
  reference: `${TOOL_ATTENTION_PAPER}, baseline B3`,
  create: () => createSimpleRetrievalPipeline(),
});
