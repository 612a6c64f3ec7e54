import type { CatalogTool } from '../../catalog/types.ts';
import { section } from '../../prompt/sections.ts';
import type { Task } from '../../tasks/types.ts';
import type { DiscoveryCall, Pipeline, PipelineContext, PromptSection, TurnInput, TurnResult } from '../types.ts';
import { LIST_DESCRIPTION_CHARS, renderHelp, renderList } from './render.ts';

const DEFAULT_CLI = 'tooltax';

export interface CliLazyOptions {
  /** The CLI's program name as the model types it. */
  cli?: string;
}

/**
 * B4 CLI Lazy Discovery (the mcp2cli pattern). The tools are not in the prompt; a short,
 * stable description says how to use a CLI that fronts them. The model pays for discovery
 * output only when it asks for it:
 *
 * - on the first turn of a task that needs a tool, the model runs `<cli> --list` once (every
 *   tool's id and the first 70 characters of its description; see ./render.ts);
 * - on each turn, for each tool that turn needs whose help is not yet in this task's context,
 *   it runs `<cli> --help <tool>` (argparse help generated from the inputSchema).
 *
 * Each call (the command line and its output) is a section after the history and stays in
 * the context for the rest of the task: it is part of the conversation. Sections are marked
 * not stable (they appear mid-session). Everything is reset in `startTask`.
 *
 * Assumptions (recorded in describe()): the model runs --help for exactly the tools the turn
 * needs, no more (no exploratory --help of wrong candidates) and no less (it never calls a
 * tool blind), and --list exactly once per task, only when a turn first needs a tool; the
 * transcript of the actual tool calls is the shared history, the same for every pipeline. No
 * JSON schema is ever in the context; `fullSchemaTools` reports the tools whose help is in
 * context (their parameters are fully described), `listedTools` every tool once --list ran.
 */
export function createCliLazyPipeline(options: CliLazyOptions = {}): Pipeline {
  const cli = options.cli ?? DEFAULT_CLI;
  let byId = new Map<string, CatalogTool>();
  let allIds: string[] = [];
  let listOutput = '';
  const description = section('tools', 'cli-description', cliDescription(cli), true);
  // Per-task state.
  let listed = false;
  let helped: string[] = [];
  let calls: PromptSection[] = [];

  return {
    id: 'b4-cli-lazy',
    label: 'B4 CLI Lazy',
    async prepare(ctx: PipelineContext) {
      byId = new Map(ctx.catalog.tools.map((t) => [t.id, t]));
      allIds = ctx.catalog.tools.map((t) => t.id);
      listOutput = renderList(ctx.catalog.tools);
    },
    startTask(_task: Task) {
      listed = false;
      helped = [];
      calls = [];
    },
    async turn({ turn, shared }: TurnInput): Promise<TurnResult> {
      const discoveryCalls: DiscoveryCall[] = [];
      const run = (label: string, command: string, output: string) => {
        discoveryCalls.push({ command, output });
        calls.push(section('tools', label, `$ ${command}\n${output}`, false));
      };
      if (turn.tools.length && !listed) {
        listed = true;
        run('cli-list', `${cli} --list`, listOutput);
      }
      for (const id of turn.tools) {
        if (helped.includes(id)) continue;
        const tool = byId.get(id);
        if (!tool) throw new Error(`b4-cli-lazy: unknown tool ${id}`);
        helped.push(id);
        run('cli-help', `${cli} --help ${id}`, renderHelp(cli, tool));
      }
      return {
        prompt: { sections: [shared.system, description, ...shared.history, ...calls, shared.user] },
        exposure: { listedTools: listed ? [...allIds] : [], fullSchemaTools: [...helped], discoveryCalls },
      };
    },
    describe() {
      return {
        details: {
          cli,
          listFormat: `one line per tool: id padded to 40 + first ${LIST_DESCRIPTION_CHARS} characters of the description (mcp2cli --list)`,
          helpFormat:
            'argparse help of the tool sub-command, generated from inputSchema (mcp2cli); no tool description, no required marks, no defaults',
          assumptions: [
            '--list runs once per task, on the first turn that needs a tool',
            '--help runs for exactly the tools a turn needs whose help is not yet in the task context',
            'discovery outputs stay in context for the rest of the task (after the history); reset per task',
            'no JSON schema ever enters the context',
          ],
        },
      };
    },
  };
}

function cliDescription(cli: string): string {
  return [
    `Tools are not listed here. They are available through the command-line program \`${cli}\`, which you run with your shell tool:`,
    `  ${cli} --list                          list every tool: its name (server/tool) and what it does`,
    `  ${cli} --help <server/tool>            show a tool's options`,
    `  ${cli} <server/tool> --option value    call a tool; array and object options take JSON`,
    `Run \`${cli} --list\` before your first tool call and \`${cli} --help\` for a tool before calling it. Results are printed as JSON.`,
  ].join('\n');
}
