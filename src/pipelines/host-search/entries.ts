import type { SearchBand } from '../../sim/search-model.ts';
import { definePipeline, type Pipeline, type PipelineEntry } from '../types.ts';
import { createHostSearchPipeline, type HostSearchKind } from './pipeline.ts';
import { HOST_SEARCH_SOURCES } from './sources.ts';

const ENTRIES: Record<HostSearchKind, Pick<PipelineEntry, 'id' | 'code' | 'description'> & { reference?: string }> = {
  'anthropic-bm25': {
    id: 'anthropic-tool-search-bm25',
    code: 'ATS-bm25',
    description: "every tool deferred; Anthropic's BM25 tool search loads 3–5 full definitions per tool turn, kept for the task",
    reference: HOST_SEARCH_SOURCES.anthropicToolSearch,
  },
  'anthropic-regex': {
    id: 'anthropic-tool-search-regex',
    code: 'ATS-regex',
    description:
      "every tool deferred; Anthropic's regex tool search (a pattern from the request) loads the matching definitions, kept for the task",
    reference: HOST_SEARCH_SOURCES.anthropicToolSearch,
  },
  openai: {
    id: 'openai-tool-search',
    code: 'OTS',
    description:
      "namespaces of fewer than 10 functions (name and description up front); OpenAI's hosted tool_search loads one by path where the search is",
    reference: HOST_SEARCH_SOURCES.openAiToolSearch,
  },
  'openai-client': {
    id: 'openai-client-search',
    code: 'OTS-client',
    description:
      "the same namespaces; OpenAI's client-executed tool_search: the application's retriever answers {query} with the best functions",
    reference: HOST_SEARCH_SOURCES.openAiToolSearch,
  },
  client: {
    id: 'client-search',
    code: 'CTS',
    description: "Anthropic's request shapes with the client's own search: the bench's retriever returns the tool_reference blocks",
  },
};

/** The ids of the host tool search pipelines, in table order. */
export const HOST_SEARCH_IDS = Object.values(ENTRIES).map((e) => e.id);

/**
 * True for a host tool search pipeline. They run on every suite and in the studies the host
 * search table, prompt caching and adversarial need; the scaling sweep, the sensitivity table and
 * the host profiles table leave them out (their records and projections would grow the bench's
 * memory for rows no table of theirs asks for).
 */
export function isHostSearch(id: string): boolean {
  return (HOST_SEARCH_IDS as readonly string[]).includes(id);
}

/**
 * The provider whose tool search a host search pipeline sends (live mode runs it only there);
 * undefined for the client's own search, which both providers take, and for any other pipeline.
 */
export function hostSearchProvider(id: string): 'anthropic' | 'openai' | undefined {
  const kind = (Object.keys(ENTRIES) as HostSearchKind[]).find((k) => ENTRIES[k].id === id);
  return kind === 'openai' || kind === 'openai-client'
    ? 'openai'
    : kind === 'anthropic-bm25' || kind === 'anthropic-regex'
      ? 'anthropic'
      : undefined;
}

/** The registry entry of one host tool search pipeline (group main: ranked with the papers' methods). */
function hostSearch(kind: HostSearchKind): PipelineEntry {
  const { reference, ...e } = ENTRIES[kind];
  const create = () => createHostSearchPipeline({ kind });
  return definePipeline(
    import.meta.url,
    reference ? { ...e, group: 'main', published: true, reference, create } : { ...e, group: 'main', create },
  );
}

/** The host tool search pipelines' entries, in table order (src/pipelines/registry.ts). */
export const HOST_SEARCH_ENTRIES: readonly PipelineEntry[] = (Object.keys(ENTRIES) as HostSearchKind[]).map(hostSearch);

/** A host tool search pipeline by id with another searching model (the tables' band); undefined for any other id. */
export function hostSearchWithBand(id: string, band: SearchBand): Pipeline | undefined {
  const kind = (Object.keys(ENTRIES) as HostSearchKind[]).find((k) => ENTRIES[k].id === id);
  return kind ? createHostSearchPipeline({ kind, band }) : undefined;
}
