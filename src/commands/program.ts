import { Command, Option, type CommanderError } from 'commander';
import { join, resolve } from 'node:path';
import { terminalText } from '../report/escape.ts';
import { InputError } from '../util/input-error.ts';
import { MEASUREMENT_PARAMS } from '../measure/params.ts';
import { DEFAULT_ENCODER, ENCODER_NAMES } from '../embed/registry.ts';
import { addLimitOptions, limitsFromOptions } from './limit-options.ts';
import { addHostOptions, hostFromOptions, type HostCommandOptions } from './host-options.ts';
import type { InputLimits } from '../util/limits.ts';
import type { BenchOptions } from '../bench/run.ts';
import { DEFAULT_QUERY_MODE, QUERY_MODES, type QueryMode } from '../retrieval/query.ts';
import { STUDY_IDS } from '../studies/ids.ts';
import { idListParser, idParser } from './id-options.ts';
import { parseOutputDir } from './output-dir.ts';
import { asOptionParser } from './option-parser.ts';
import { parseScalingSizes } from '../studies/scaling/sizes.ts';
import { parseShard, type ShardSpec } from './shard-spec.ts';
import { resolveUserPaths } from './user-paths.ts';
import { ownVersion } from '../util/provenance.ts';
import { hintCommandForPositional, suggestAmongAllOptions } from './option-suggestions.ts';
import { benchOutputDirs, SCRATCH_DIR } from '../results/partial-run.ts';
import { defineBudgetCommand } from './budget.ts';
import { defineCatalogCommand } from './catalog.ts';
import type { CommandOutputs } from './command-outputs.ts';
import { defineLintCommand } from './lint.ts';
import { defineReportCommand } from './report.ts';
import { parseSeeds, seedOption, tokenizerOption } from './shared-options.ts';
import { defineTasksCommand } from './tasks.ts';

/** What the program reads and writes besides its arguments (tests give their own). */
export interface ProgramIo {
  /** The project folder: default inputs and outputs are under it. */
  root: string;
  log: (line: string) => void;
  /** Where usage errors go (default stderr). */
  writeErr?: (text: string) => void;
  /** Ends the program after a usage error (2) or --help (0); default process.exit. */
  exit?: (code: number) => never;
  /** What a command prints besides `log` lines (a report, JSON), already made terminal-safe; default stdout. */
  write?: (text: string) => void;
  /** A command's warnings, one line each, already made terminal-safe; default stderr. */
  warn?: (line: string) => void;
  /** The status the process ends with when a command finishes (budget over, lint findings); default process.exitCode. */
  setExitCode?: (code: number) => void;
}

/** Appended to a usage error, on the same line: every mistake is one line. */
const HELP_POINTER = '(add --help for usage)';

const parseEncoder = idParser({ noun: 'encoder', ids: ENCODER_NAMES });

/**
 * The tooltax command line. catalog, budget, lint, tasks and report start without the retriever
 * registry, the pipelines and the live clients (a noticeable share of CPU at every start): bench, retrieval
 * and live are defined only when `args` may run one of them. `--debug` is the only program
 * option, so the first other word is the command; anything else (a bench option, help, an
 * unknown name) defines them all.
 */
export async function tooltaxProgram(args: readonly string[], io: ProgramIo): Promise<Command> {
  const out = commandOutputs(io);
  const invoked = args.find((a) => a !== '--debug');
  const lean = invoked !== undefined && ['catalog', 'budget', 'lint', 'tasks', 'report'].includes(invoked);
  const exit = io.exit ?? ((code: number) => process.exit(code));
  /** Bad arguments exit 2 with commander's one-line message, like every other bad input. */
  const exitTwoOnUsage = (err: CommanderError) => exit(err.exitCode === 0 ? 0 : 2);
  const output = {
    // --help and --version: what the command writes, like any other output.
    writeOut: io.write ?? ((text: string) => process.stdout.write(text)),
    writeErr: io.writeErr ?? ((text: string) => process.stderr.write(text)),
    outputError: (text: string, write: (text: string) => void) => write(`${text.trimEnd()} ${HELP_POINTER}\n`),
  };

  const program = new Command()
    .name('tooltax')
    .description(
      'Measure the tools tax: tokens that MCP tool lists and agent protocols burn in an LLM prompt.\nInstalled: `npx @tooltax/cli <command> [options]`; in a clone: `npm run bench -- <command> [options]`.',
    )
    .version(ownVersion(), '-V, --version', "print tooltax's version")
    .option('--debug', 'print stack traces of errors')
    // Inherited by every command defined below with .command().
    .configureOutput(output)
    .exitOverride(exitTwoOnUsage)
    // Every path a user types is read from the folder they typed it in (npm run changes folder).
    .hook('preAction', (_program, command) => resolveUserPaths(command));

  defineCatalogCommand(program, out);
  defineBudgetCommand(program, out);
  defineLintCommand(program, out);
  defineTasksCommand(program, out);
  // bench (the default command) and retrieval, with the retriever registry behind them, are defined only
  // when this command line may run one of them (see `lean`).
  if (!lean) await defineMeasuringCommands(program, out);
  defineReportCommand(program, out);
  if (!lean) {
    // (`.then` with the name destructured: ts-unused-exports sees the use through a dynamic import.)
    const live = await import('./live.ts').then(({ liveCommand }) => liveCommand(out.root, out.log));
    program.addCommand(live.configureOutput(output).exitOverride(exitTwoOnUsage));
  }
  suggestAmongAllOptions(program);
  return program;
}

/** The program's outputs with their defaults; what the commands print besides `log` goes through terminalText. */
function commandOutputs(io: ProgramIo): CommandOutputs {
  return {
    root: io.root,
    log: io.log,
    // Tool text carries no control sequence to the terminal.
    warn: (line: string) => (io.warn ?? ((l: string) => console.error(l)))(terminalText(line)),
    write: (text: string) => (io.write ?? ((t: string) => process.stdout.write(t)))(terminalText(text)),
    setExitCode: io.setExitCode ?? ((code: number) => (process.exitCode = code)),
  };
}

/** The retriever names `--retriever` accepts, with the open dense form. */
type RetrieverKind = Parameters<typeof idParser>[0];

/** bench, merge and retrieval, with the registries their options name (loaded only for them: see `lean`). */
async function defineMeasuringCommands(program: Command, out: CommandOutputs): Promise<void> {
  const { allRetrieverNames, DEFAULT_RETRIEVER, isRetrieverName } = await import('../retrieval/registry.ts');
  const { PIPELINES } = await import('../pipelines/registry.ts');
  const retrieverKind = {
    noun: 'retriever',
    ids: allRetrieverNames(),
    also: { accepts: isRetrieverName, form: 'dense:<encoder or model directory>' },
  };
  defineBenchCommand(
    program,
    out,
    PIPELINES.map((p) => p.id),
    retrieverKind,
    DEFAULT_RETRIEVER,
  );
  defineMergeCommand(program, out);
  defineRetrievalCommand(program, out, retrieverKind, DEFAULT_RETRIEVER);
}

/** bench, the default command: every pipeline and study, or the part a shard or a selection names. */
function defineBenchCommand(
  program: Command,
  { root, log }: CommandOutputs,
  pipelineIds: string[],
  retrieverKind: RetrieverKind,
  defaultRetriever: string,
): void {
  program
    .command('bench', { isDefault: true })
    .description('regenerate inputs, run every pipeline on every task turn, write results/ and reports/ (default command)')
    .addOption(seedOption())
    .option('--seeds <list>', 'comma-separated seeds of the task sets', parseSeeds, [...MEASUREMENT_PARAMS.seeds])
    .option(
      '--catalog <paths>',
      'your own tools/list dumps (files or folders, comma-separated) instead of the synthetic catalog',
      (v: string) => v.split(','),
    )
    .option('--tasks <file>', 'your own task file (JSON Lines) for --catalog')
    .addOption(tokenizerOption())
    .option('--out <dir>', 'results directory (default results/, or results/<catalog> for --catalog)', parseOutputDir)
    .option('--reports <dir>', 'reports directory (default reports/, or reports/<catalog> for --catalog)', parseOutputDir)
    .option('--pipelines <ids>', 'comma-separated pipeline ids to run (default: all)', idListParser({ noun: 'pipeline', ids: pipelineIds }))
    .option('--studies <ids>', 'comma-separated study ids to run (default: all)', idListParser({ noun: 'study', ids: STUDY_IDS }))
    .option('--quick', 'a small task subset and one seed, for CI', false)
    .option(
      '--fresh',
      'run every pipeline and study (default: restore each one the results folder records with the same fingerprint: the same code, inputs and options)',
      false,
    )
    .option(
      '--force',
      `a partial run (--quick, --pipelines, --studies, --catalog) writes the default folders; without it, ${SCRATCH_DIR}/ unless --out and --reports are given`,
      false,
    )
    .option(
      '--shard <i/n>',
      'run only shard i of n (or env/n: i from TOOLTAX_SHARD_INDEX, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX) into a part folder; `merge` joins the parts',
      asOptionParser<ShardSpec>((v) => parseShard(v)),
    )
    .option(
      '--scaling-sizes <list>',
      'catalog sizes N of the scaling study (default 30,60,120,250,500,1000; larger N, e.g. 10000, costs seconds to minutes each)',
      asOptionParser(parseScalingSizes),
    )
    .addOption(
      new Option(
        '--encoder <name>',
        `sentence encoder of the retrieval pipelines (${ENCODER_NAMES.join(', ')}; minilm needs TOOLTAX_MINILM_DIR)`,
      )
        .default(DEFAULT_ENCODER)
        .argParser(parseEncoder),
    )
    .option(
      '--retriever <name>',
      'retriever of B3, Tool Attention, ADOL semantic retrieval and the ablations (see the retrieval command)',
      idParser(retrieverKind),
      defaultRetriever,
    );
  addHostOptions(addLimitOptions(hintCommandForPositional(program.commands.at(-1)!))).action(
    async (
      // The bench's own options as commander parses them (a type-only import: nothing loads).
      o: Omit<BenchOptions, 'root' | 'log' | 'limits' | 'lanes' | 'registry' | 'host'> &
        InputLimits &
        HostCommandOptions & { force: boolean },
    ) => {
      if (o.tasks && !o.catalog) throw new InputError(o.tasks, '', '--catalog together with --tasks (the synthetic tasks are regenerated)');
      if (o.shard && o.reports)
        throw new InputError('--reports', '', 'no --reports with --shard (a shard writes a part; `merge` writes the reports)');
      // Loaded on use: the bench and the renderers (vega, exceljs) cost a second of start-up that
      // catalog, budget and the other commands do not need.
      const host = hostFromOptions(o, limitsFromOptions(o));
      const { runBench } = await import('../bench/run.ts');
      // A shard writes a part folder under results/ (no reports); any other partial run, a scratch folder.
      const { note, ...dirs } = o.shard ? { out: o.out } : benchOutputDirs(o, root);
      if (note) log(note);
      const { resultsDir, reportsDir } = await runBench({
        ...o,
        ...dirs,
        host,
        seeds: o.seeds.includes(o.seed) ? o.seeds : [o.seed, ...o.seeds],
        limits: limitsFromOptions(o),
        root,
        log,
      });
      log(reportsDir ? `\nresults: ${resultsDir}\nreports: ${join(reportsDir, 'tables.md')}` : `\npart: ${resultsDir}`);
    },
  );
}

/** merge: the part folders of a sharded bench or live run joined into one. */
function defineMergeCommand(program: Command, { root, log, setExitCode }: CommandOutputs): void {
  program
    .command('merge')
    .description(
      'join the part folders of a sharded bench (`bench --shard i/n`) into one results folder, identical to an unsharded run apart from timings, and write its reports; or those of a sharded live run (`live --shard i/n`) into one live results folder',
    )
    .argument('<folders...>', 'the part folder of every shard of one run')
    .option(
      '--out <dir>',
      'results directory (default as the unsharded run: results/, results/<catalog>, results/live/<provider>-<model>)',
      parseOutputDir,
    )
    .option('--reports <dir>', 'reports directory (default as the unsharded bench)', parseOutputDir)
    .option('--force', 'the parts of a partial run: write the default folders (as bench --force)', false)
    .action(async (folders: string[], o: { out?: string; reports?: string; force: boolean }) => {
      const { checkParts, readPart } = await import('../results/shard-part.ts');
      const parts = folders.map((f) => readPart(f));
      checkParts(parts);
      if (parts[0]!.kind === 'live') {
        if (o.reports) throw new InputError('--reports', '', 'no --reports when merging live parts (a live run writes its tables only)');
        const { mergeLiveParts } = await import('./live.ts');
        setExitCode(await mergeLiveParts(parts, o.out, root, log));
        return;
      }
      const into = o.out && parts.find((p) => resolve(p.dir) === resolve(o.out!));
      if (into)
        throw new InputError(o.out!, '', 'an --out folder that is not one of the parts', 'a part folder (the merge would overwrite it)');
      const { runBench } = await import('../bench/run.ts');
      const settings = parts[0]!.run.settings as Omit<BenchOptions, 'root' | 'log' | 'out' | 'reports' | 'parts' | 'shard'>;
      const { note, ...dirs } = benchOutputDirs({ ...settings, ...o }, root);
      if (note) log(note);
      const { resultsDir, reportsDir } = await runBench({ ...settings, ...dirs, parts, root, log });
      log(`\nresults: ${resultsDir}\nreports: ${join(reportsDir!, 'tables.md')}`);
    });
}

/** retrieval: the retrievers evaluated on their own, without pipelines. */
function defineRetrievalCommand(
  program: Command,
  { root, write }: CommandOutputs,
  retrieverKind: RetrieverKind,
  defaultRetriever: string,
): void {
  program
    .command('retrieval')
    .description(
      'evaluate tool retrievers on a catalog and task file without running pipelines: recall@1/3/5/10/20, served@k, MRR, nDCG@10, all needed in the top 10, by turn position and server',
    )
    .option('--catalog <paths>', 'tools/list dumps (files or folders, comma-separated); default the synthetic catalog', (v: string) =>
      v.split(','),
    )
    .option('--tasks <file>', 'task file (JSON Lines); default tasks/tasks.jsonl')
    .option(
      '--retriever <names>',
      `comma-separated retriever names or "all" (default ${defaultRetriever})`,
      idListParser({ ...retrieverKind, ids: ['all', ...retrieverKind.ids] }),
      [defaultRetriever],
    )
    .addOption(
      new Option('--query <mode>', 'query text: the user message, or with the previous user messages (rolling)')
        .default(DEFAULT_QUERY_MODE)
        .argParser(idParser({ noun: 'query mode', ids: QUERY_MODES })),
    )
    .option('--json', 'print one JSON object {"retrievers":[...],"default":...} to stdout', false)
    .action(async (o: { catalog?: string[]; tasks?: string; retriever: string[]; query: QueryMode; json: boolean }) => {
      const { retrievalCommand } = await import('./retrieval.ts');
      await retrievalCommand(o, root, write);
    });
}
