import type { CatalogTool } from '../../catalog/types.ts';
import { section } from '../../prompt/sections.ts';
import type { Task } from '../../tasks/types.ts';
import {
  definePipelines,
  type DiscoveryCall,
  type Pipeline,
  type PipelineContext,
  type PromptSection,
  type TurnInput,
  type TurnResult,
} from '../types.ts';
import { Rng } from '../../util/rng.ts';
import { PROJECTION_PARAMS, type ProjectionParams } from '../../sim/projection/params.ts';
import { planHelps, type DiscoveryMode } from './discovery.ts';
import { LIST_DESCRIPTION_CHARS, renderHelp, renderList } from './render.ts';
import { TOOL_ATTENTION_PAPER } from '../tool-attention-paper.ts';

const DEFAULT_CLI = 'tooltax';

export interface CliLazyOptions {
  /** The CLI's program name as the model types it. */
  cli?: string;
  /** `policy` (default): --help chosen by the selection model; `oracle`: exactly the needed tools (ablation). */
  discovery?: DiscoveryMode;
  /** Selection and discovery parameters (default: the projection's, src/sim/projection/params.ts). */
  params?: ProjectionParams;
}

/**
 * B4 CLI Lazy Discovery (the mcp2cli pattern). The tools are not in the prompt; a short,
 * stable description says how to use a CLI that fronts them. The model pays for discovery
 * output only when it asks for it:
 *
 * - on the first turn of a task that needs a tool, the model runs `<cli> --list` once (every
 *   tool's id and the first 70 characters of its description; see ./render.ts);
 * - on each turn, for each tool that turn needs whose help is not yet in this task's context,
 *   it chooses a `--list` line and runs `<cli> --help <tool>` (argparse help generated from the
 *   inputSchema). Which help it runs is the discovery policy of ./discovery.ts: by the selection
 *   model (wrong helps cost tokens and stay in context, a tool not found stays list-only), or
 *   the oracle (exactly the needed tools) for the ablation row.
 *
 * Each call (the command line and its output) is a section after the history and stays in
 * the context for the rest of the task: it is part of the conversation. Sections are marked
 * not stable (they appear mid-session). Everything is reset in `startTask`.
 *
 * Assumptions (recorded in describe()): the choice of --help follows the discovery policy, and
 * --list runs exactly once per task, only when a turn first needs a tool; the
 * transcript of the actual tool calls is the shared history, the same for every pipeline. No
 * JSON schema is ever in the context; `fullSchemaTools` reports the tools whose help is in
 * context (their parameters are fully described), `listedTools` every tool once --list ran.
 */
export function createCliLazyPipeline(options: CliLazyOptions = {}): Pipeline {
  const cli = options.cli ?? DEFAULT_CLI;
  const mode = options.discovery ?? 'policy';
  const params = options.params ?? PROJECTION_PARAMS;
  let seed = 0;
  let rng = new Rng(0);
  let tools: readonly CatalogTool[] = [];
  let byId = new Map<string, CatalogTool>();
  let allIds: string[] = [];
  let listOutput = '';
  // Discovery outputs by command, for the run: one section object per output, reused by every
  // task that runs the command (sections are never changed), and each --help rendered once.
  let discovered = new Map<string, { section: PromptSection; output: string }>();
  const description = section('tools', 'cli-description', cliDescription(cli), true);
  // Per-task state.
  let listed = false;
  let helped: string[] = [];
  let calls: PromptSection[] = [];

  return {
    id: mode === 'oracle' ? 'b4-cli-lazy-oracle' : 'b4-cli-lazy',
    label: mode === 'oracle' ? 'B4, oracle discovery (ablation)' : 'B4 CLI Lazy',
    async prepare(ctx: PipelineContext) {
      seed = ctx.seed;
      tools = ctx.catalog.tools;
      byId = new Map(ctx.catalog.tools.map((t) => [t.id, t]));
      allIds = ctx.catalog.tools.map((t) => t.id);
      listOutput = renderList(ctx.catalog.tools);
      discovered = new Map();
    },
    startTask(task: Task) {
      // One stream per task (its id and first message, since ids repeat across task sets).
      rng = new Rng(seed, `b4-discovery|${task.id}|${task.turns[0]?.user ?? ''}`);
      listed = false;
      helped = [];
      calls = [];
    },
    async turn({ turn, shared }: TurnInput): Promise<TurnResult> {
      const discoveryCalls: DiscoveryCall[] = [];
      const run = (label: string, command: string, render: () => string) => {
        let d = discovered.get(command);
        if (!d) {
          const output = render();
          discovered.set(command, (d = { section: Object.freeze(section('tools', label, `$ ${command}\n${output}`, false)), output }));
        }
        discoveryCalls.push({ command, output: d.output });
        calls.push(d.section);
      };
      if (turn.tools.length && !listed) {
        listed = true;
        run('cli-list', `${cli} --list`, () => listOutput);
      }
      const selectedTools: string[] = [];
      for (const id of turn.tools) {
        if (helped.includes(id)) continue;
        const tool = byId.get(id);
        if (!tool) throw new Error(`b4-cli-lazy: unknown tool ${id}`);
        const plan = planHelps(tool, tools, new Set([...helped, ...turn.tools]), rng, mode, params);
        for (const h of plan.helps) {
          helped.push(h);
          run('cli-help', `${cli} --help ${h}`, () => renderHelp(cli, byId.get(h)!));
        }
        if (plan.found) selectedTools.push(id);
      }
      return {
        prompt: { sections: [shared.system, description, ...shared.history, ...calls, shared.user] },
        exposure: {
          listedTools: listed ? [...allIds] : [],
          fullSchemaTools: [...helped],
          discoveryCalls,
          listedForm: 'cli-line',
          selectedTools,
        },
      };
    },
    describe() {
      return {
        discovery: {
          mode,
          cli,
          rule:
            mode === 'oracle'
              ? 'oracle: --help for exactly the tools each turn needs (an upper bound, not a model)'
              : `policy: --help targets picked from the --list lines by the tool-selection model (confusion c = ${params['selection.confusionPerSchema'].value.toPrecision(3)} per schema, CLI-line weight ${params['selection.weightCliLine'].value}); wrong picks help a same-server tool and stay in context; second look ${params['discovery.secondLook'].value}, at most ${params['discovery.maxHelpAttempts'].value} helps per tool`,
        },
        details: {
          cli,
          listFormat: `one line per tool: id padded to 40 + first ${LIST_DESCRIPTION_CHARS} characters of the description (mcp2cli --list)`,
          helpFormat:
            'argparse help of the tool sub-command, generated from inputSchema (mcp2cli); no tool description, no required marks, no defaults',
          discovery: mode,
          assumptions: [
            '--list runs once per task, on the first turn that needs a tool',
            mode === 'oracle'
              ? 'oracle discovery: --help runs for exactly the tools a turn needs whose help is not yet in the task context'
              : 'discovery policy: for each needed tool not yet helped, the --help target is picked from the --list lines by the selection model (src/sim/selection.ts); a wrong pick helps a same-server tool, then a second look with probability discovery.secondLook, at most discovery.maxHelpAttempts helps; a tool never found stays list-only',
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

/** B4 and its oracle-discovery ablation, in table order (src/pipelines/registry.ts). */
export const CLI_LAZY_ENTRIES = definePipelines(import.meta.url, [
  {
    id: 'b4-cli-lazy',
    code: 'B4',
    group: 'main',
    description: 'a short CLI description; the model runs --list and --help on the tools it picks (a seeded policy)',
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, baseline B4 (the mcp2cli pattern)`,
    create: () => createCliLazyPipeline(),
  },
  {
    id: 'b4-cli-lazy-oracle',
    code: 'B4o',
    group: 'main',
    ablationOf: 'b4-cli-lazy',
    description: 'B4 with oracle discovery: --help on exactly the tools each turn needs',
    create: () => createCliLazyPipeline({ discovery: 'oracle' }),
  },
]);
