import { toolResults, type ToolResult } from '../../catalog/tool-results.ts';
import type { Catalog, CatalogTool } from '../../catalog/types.ts';
import { section } from '../../prompt/sections.ts';
import type { Task } from '../../tasks/types.ts';
import { Rng } from '../../util/rng.ts';
import { PROJECTION_PARAMS } from '../../sim/projection/params.ts';
import { planHelps } from '../b4-cli-lazy/discovery.ts';
import { codeTranscript, type CodeStyle } from '../code-mode/code.ts';
import { codeName, filePath, wrapperFile } from '../code-mode/render.ts';
import type { SearchBand } from '../../sim/search-model.ts';
import { CODE_EXECUTION_TOOL, SEARCH_TOOLS_TOOL, ToolSearch, toolsSection } from '../code-mode/tools.ts';
import type { DiscoveryCall, Pipeline, PipelineContext, PromptSection, TurnInput, TurnResult } from '../types.ts';

export interface CodeModeFilesOptions {
  /** `listing` (default): the model lists the wrapper files; `search`: it calls `search_tools` (the searching model's searches). */
  discovery?: 'listing' | 'search';
  /** Tools `search_tools` returns (default 10). */
  searchK?: number;
  /** The searching model's band (the tables' recall band; default the calibrated point). */
  band?: SearchBand;
}

/** The script calls each wrapper's exported function (codeName: the name the file exports and the sandbox holds). */
const FILES_STYLE: CodeStyle = { tool: 'code_execution', form: 'script', callee: (t) => codeName(t) };

/**
 * Code execution with MCP (Anthropic's engineering post): the tools are TypeScript wrapper files
 * `servers/<server>/<tool>.ts` (../code-mode/render.ts, wrapperFile) in a sandbox the model
 * explores. The prompt holds the code-execution tool and a short note; on the first turn that
 * needs a tool the model lists the tree (`listing`) or, in the variant, calls `search_tools`
 * (`search`: names and descriptions of the top k by BM25 for each search the searching model,
 * src/sim/search-model.ts, writes). Then it reads the
 * wrapper files of the tools it picks: the pick is the tool-selection model's
 * (src/sim/selection.ts via B4's discovery policy), never the turn's ground truth, and in the
 * search variant only a tool the search returned can be picked. Listings and files read stay in
 * the context for the rest of the task; the code's intermediate results stay in the sandbox and
 * only what it prints comes back (../code-mode/code.ts).
 */
export function createCodeModeFilesPipeline(options: CodeModeFilesOptions = {}): Pipeline {
  const mode = options.discovery ?? 'listing';
  const search = new ToolSearch(options.searchK ?? 10);
  const id = mode === 'search' ? 'code-mode-files-search' : 'code-mode-files';
  let catalog: Catalog | undefined;
  let results: ReadonlyMap<string, ToolResult> | undefined;
  let byId = new Map<string, CatalogTool>();
  let seed = 0;
  let listing = '';
  let rng = new Rng(0);
  let listed = false;
  let read: string[] = [];
  let calls: PromptSection[] = [];
  let files = new Map<string, PromptSection>();
  let ran = new Map<string, readonly string[]>();
  const tools = toolsSection('code-execution-tool', mode === 'search' ? [CODE_EXECUTION_TOOL, SEARCH_TOOLS_TOOL] : [CODE_EXECUTION_TOOL]);
  const note = section('tools', 'files-note', filesNote(mode), true);

  return {
    id,
    label: mode === 'search' ? 'Code execution, wrapper files (search_tools)' : 'Code execution, wrapper files',
    async prepare(ctx: PipelineContext) {
      catalog = ctx.catalog;
      results = toolResults(ctx.catalog);
      seed = ctx.seed;
      byId = new Map(ctx.catalog.tools.map((t) => [t.id, t]));
      listing = ctx.catalog.tools.map((t) => filePath(t)).join('\n');
      files = new Map();
      if (mode === 'search') await search.prepare(ctx.catalog);
    },
    startTask(task: Task) {
      rng = new Rng(seed, `${id}|${task.id}|${task.turns[0]?.user ?? ''}`);
      listed = false;
      read = [];
      calls = [];
      ran = new Map();
    },
    async turn({ task, turn, turnIndex, shared }: TurnInput): Promise<TurnResult> {
      if (!catalog) throw new Error(`${id}: prepare() first`);
      const discoveryCalls: DiscoveryCall[] = [];
      const run = (label: string, command: string, output: string) => {
        discoveryCalls.push({ command, output });
        calls.push(section('tools', label, `$ ${command}\n${output}`, false));
      };
      let candidates: readonly CatalogTool[] = catalog.tools;
      if (turn.tools.length && mode === 'listing' && !listed) {
        listed = true;
        run('file-listing', 'find servers -name "*.ts"', listing);
      }
      if (turn.tools.length && mode === 'search') {
        // The searching model writes the searches; a tool whose file was read needs none.
        const found = new Map<string, CatalogTool>();
        for (const { query, hits } of await search.modelSearches({
          task,
          turnIndex,
          seed,
          loaded: new Set(read),
          ran,
          band: options.band,
        })) {
          for (const h of hits) found.set(h.id, h);
          run('search-tools', `search_tools ${JSON.stringify({ query, detail_level: 'name_and_description' })}`, searchOutput(hits));
        }
        candidates = [...found.values()];
      }
      const selectedTools: string[] = [];
      for (const need of turn.tools) {
        if (read.includes(need)) continue;
        const tool = byId.get(need);
        if (!tool) throw new Error(`${id}: unknown tool ${need}`);
        // Only a tool the model was shown can be picked (in the search variant, a search hit).
        const shown = candidates.includes(tool);
        const plan = shown
          ? planHelps(tool, candidates, new Set([...read, ...turn.tools]), rng, 'policy', PROJECTION_PARAMS)
          : { helps: [], found: false };
        for (const h of plan.helps) {
          read.push(h);
          const command = `cat ${filePath(byId.get(h)!)}`;
          let file = files.get(h);
          if (!file) files.set(h, (file = section('tools', 'wrapper-file', `$ ${command}\n${wrapperFile(byId.get(h)!)}`, false)));
          // The output alone: the section is `$ <command>` and the output, as every discovery call's.
          discoveryCalls.push({ command, output: file.text.slice(`$ ${command}\n`.length).replace(/\n$/, '') });
          calls.push(file);
        }
        if (plan.found) selectedTools.push(need);
      }
      return {
        prompt: { sections: [shared.system, tools, note, ...shared.history, ...calls, shared.user] },
        exposure: {
          listedTools: mode === 'listing' ? (listed ? [...byId.keys()] : []) : [...new Set([...read, ...candidates.map((t) => t.id)])],
          fullSchemaTools: [...read],
          discoveryCalls,
          listedForm: 'cli-line',
          selectedTools,
        },
        transcript: codeTranscript(catalog, results!, turnIndex, turn, FILES_STYLE),
      };
    },
    answerTool: (name: string, input: Record<string, unknown>) =>
      mode === 'search' && name === SEARCH_TOOLS_TOOL.name ? answerSearchTools(search, input) : Promise.resolve(undefined),
    describe: () => ({
      discovery: {
        mode: 'policy',
        cli: 'find, cat',
        shell: 'files',
        rule: `${mode === 'search' ? `search_tools returns the top ${search.k} tools by BM25 for each search the searching model (${options.band ?? 'calibrated'}) writes (names and descriptions); ` : 'the file listing runs once per task; '}the wrapper files read are picked by the tool-selection model (B4's discovery policy), never the ground truth`,
      },
      details: {
        discovery: mode,
        wrapper: 'Anthropic’s servers/<server>/<tool>.ts layout; types by @cloudflare/codemode',
        code: 'modelled: a script with one awaited call per tool; prints the answer of a lookup, the last step of a chain',
      },
    }),
  };
}

function filesNote(mode: 'listing' | 'search'): string {
  return [
    'Tools are TypeScript files in the sandbox: servers/<server>/<tool>.ts, each exporting an async function that calls the tool.',
    mode === 'search'
      ? 'Call search_tools({query, detail_level}) to find tools, read the files of those you need, then run a script with code_execution that imports and calls them.'
      : 'List the files, read the files of the tools you need, then run a script with code_execution that imports and calls them.',
    'Only what the script prints is returned to you.',
  ].join('\n');
}

const NO_TOOLS = '(no tools found)';

/** What `search_tools` returns at `name_and_description`: each hit's file and the first sentence of its description. */
function searchOutput(hits: readonly CatalogTool[]): string {
  return hits.length ? hits.map((t) => `${filePath(t)} — ${(t.definition.description ?? '').split(/(?<=\.)\s/)[0]}`).join('\n') : NO_TOOLS;
}

/** What search_tools answers a live model (undefined: a detail level it does not know). */
async function answerSearchTools(search: ToolSearch, input: Record<string, unknown>): Promise<string | undefined> {
  if (typeof input.query !== 'string') return undefined;
  const level = input.detail_level ?? 'name_and_description';
  const hits = await search.search(input.query);
  if (level === 'name_only') return hits.length ? hits.map((t) => filePath(t)).join('\n') : NO_TOOLS;
  if (level === 'full_definition') return hits.length ? hits.map((t) => wrapperFile(t)).join('\n\n') : NO_TOOLS;
  return level === 'name_and_description' ? searchOutput(hits) : undefined;
}
