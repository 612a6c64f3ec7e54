import { toolResults, type ToolResult } from '../../catalog/tool-results.ts';
import type { Catalog, CatalogTool } from '../../catalog/types.ts';
import { section } from '../../prompt/sections.ts';
import type { SearchBand } from '../../sim/search-model.ts';
import type { Task } from '../../tasks/types.ts';
import { codeTranscript, type CodeStyle } from '../code-mode/code.ts';
import { CodeModeDescriptions, codeName } from '../code-mode/render.ts';
import { SEARCH_EXECUTE_TOOLS, ToolSearch, toolsSection } from '../code-mode/tools.ts';
import type { Pipeline, PipelineContext, PromptSection, TurnInput, TurnResult } from '../types.ts';

const EXECUTE_STYLE: CodeStyle = { tool: 'execute', form: 'arrow', callee: (t) => `codemode.${codeName(t)}` };

/**
 * Search and execute (Cloudflare's server-side Code Mode for its whole API): two tools on every
 * turn. On a turn that needs a tool the model calls `search` (what it writes and how often: the
 * searching model, src/sim/search-model.ts) and gets the Code Mode types (by
 * `@cloudflare/codemode`) of the top k tools by BM25 for each; then one `execute` runs its
 * code, and only what the code returns comes back. Search results stay in the context for the
 * rest of the task; a tool is fully described once a search returned it.
 */
/** `band`: the searching model's band (the tables' recall band; default the calibrated point). */
export function createSearchExecutePipeline(k = 5, band: SearchBand = 'calibrated'): Pipeline {
  const search = new ToolSearch(k);
  const definitions = toolsSection('search-execute-tools', SEARCH_EXECUTE_TOOLS);
  let catalog: Catalog | undefined;
  let results: ReadonlyMap<string, ToolResult> | undefined;
  let shown: string[] = [];
  let calls: PromptSection[] = [];
  let ran = new Map<string, readonly string[]>();
  let seed = 0;
  // The types of a set of hits, rendered once per run (requests repeat across tasks and seeds).
  let rendered = new Map<string, string>();
  let descriptions = new CodeModeDescriptions();
  const typesOf = (hits: readonly CatalogTool[]) => {
    const key = hits.map((h) => h.id).join('\n');
    let types = rendered.get(key);
    if (types === undefined) rendered.set(key, (types = hits.length ? typesOnly(descriptions.of(hits)) : '(no operations found)'));
    return types;
  };
  return {
    id: 'search-execute',
    label: 'Search + execute',
    async prepare(ctx: PipelineContext) {
      catalog = ctx.catalog;
      seed = ctx.seed;
      results = toolResults(ctx.catalog);
      rendered = new Map();
      descriptions = new CodeModeDescriptions();
      await search.prepare(ctx.catalog);
    },
    startTask(_task: Task) {
      shown = [];
      calls = [];
      ran = new Map();
    },
    async turn({ task, turn, turnIndex, shared }: TurnInput): Promise<TurnResult> {
      if (!catalog) throw new Error('search-execute: prepare() first');
      const discoveryCalls = [];
      for (const { query, hits } of await search.modelSearches({ task, turnIndex, seed, loaded: new Set(shown), ran, band })) {
        const types = typesOf(hits);
        const command = `search ${JSON.stringify({ query })}`;
        discoveryCalls.push({ command, output: types });
        calls.push(section('tools', 'search-results', `$ ${command}\n${types}`, false));
        for (const h of hits) if (!shown.includes(h.id)) shown.push(h.id);
      }
      return {
        prompt: { sections: [shared.system, definitions, ...shared.history, ...calls, shared.user] },
        exposure: { listedTools: [...shown], fullSchemaTools: [...shown], discoveryCalls },
        transcript: codeTranscript(catalog, results!, turnIndex, turn, EXECUTE_STYLE),
      };
    },
    async answerTool(name: string, input: Record<string, unknown>) {
      if (name !== SEARCH_EXECUTE_TOOLS[0]!.name || typeof input.query !== 'string') return undefined;
      return typesOf(await search.search(input.query));
    },
    describe: () => ({
      details: {
        k,
        search: `top ${k} tools by BM25 for each search the searching model (${band}) writes; their Code Mode types (@cloudflare/codemode) are returned`,
        code: 'modelled: one execute per turn with an async arrow function; a lookup returns its answer, a chain its last step',
      },
    }),
  };
}

/** The types and the `codemode` declaration of a Code Mode description, without its instructions. */
function typesOnly(description: string): string {
  const start = description.indexOf('Available:\n');
  const end = description.indexOf('\n\nWrite an async arrow function');
  return start >= 0 && end > start ? description.slice(start + 'Available:\n'.length, end).trim() : description;
}
