import { Command, InvalidArgumentError, Option, type CommanderError } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCatalog } from '../catalog/load.ts';
import { footprintTable } from '../catalog/footprint-table.ts';
import { externalRefWarnings, refSizeTable, refUses } from '../catalog/ref-table.ts';
import { terminalText } from '../report/escape.ts';
import { tableToMarkdown } from '../report/table-text.ts';
import { overlapTable } from '../tasks/overlap.ts';
import { taskMixTable } from '../tasks/stats.ts';
import { DEFAULT_TOKENIZER, TOKENIZERS, tokenCounter, type TokenizerName } from '../tokens/counter.ts';
import { InputError } from '../util/input-error.ts';
import { DEFAULT_SEED } from '../util/rng.ts';
import { MEASUREMENT_PARAMS } from '../measure/params.ts';
import { DEFAULT_ENCODER, ENCODER_NAMES } from '../embed/registry.ts';
import { captureCommand, collect, hasLiveInput, parseTimeout, type LiveOptions } from './capture.ts';
import { budgetCommand, collectPaths, parseTokenBudget, type BudgetCommandOptions } from './budget.ts';
import { lintCommand, type LintCommandOptions } from './lint.ts';
import { SEVERITIES } from '../lint/types.ts';
import { DEFAULT_CAPTURE_DIR } from '../mcp/dump.ts';
import { addLimitOptions, limitsFromOptions } from './limit-options.ts';
import { addHostOptions, hostFromOptions, type HostCommandOptions } from './host-options.ts';
import { runHostMeasures } from '../hosts/measure.ts';
import { acquireRunLock } from '../results/lock.ts';
import { checkCompleteRun } from '../results/run-files.ts';
import type { InputLimits } from '../util/limits.ts';
import type { BenchOptions } from '../bench/run.ts';
import { DEFAULT_TIMEOUT_MS } from '../mcp/capture.ts';
import { DEFAULT_QUERY_MODE, QUERY_MODES, type QueryMode } from '../retrieval/query.ts';
import { STUDY_IDS } from '../studies/ids.ts';
import { idListParser, idParser } from './id-options.ts';
import { splitIds } from '../util/ids.ts';
import { parseOutputDir } from './output-dir.ts';
import { asOptionParser } from './option-parser.ts';
import { parseScalingSizes } from '../studies/scaling/sizes.ts';
import { parseShard, type ShardSpec } from './shard-spec.ts';
import { resolveUserPaths } from './user-paths.ts';
import { ownVersion } from '../util/provenance.ts';
import { hintCatalogForPositional, hintCommandForPositional, suggestAmongAllOptions } from './option-suggestions.ts';
import { benchOutputDirs, defaultReportsDir, RESULTS_DIR, SCRATCH_DIR } from '../results/partial-run.ts';

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

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
  return n;
}
function parseSeeds(value: string): number[] {
  const seeds = splitIds(value).map(parseSeed);
  const twice = seeds.find((s, i) => seeds.indexOf(s) !== i);
  if (twice !== undefined) throw new InvalidArgumentError(`seed ${twice} given twice; expected each at most once`);
  return seeds;
}

const parseTokenizer = idParser({ noun: 'tokenizer', ids: TOKENIZERS });
const parseEncoder = idParser({ noun: 'encoder', ids: ENCODER_NAMES });
const seedOption = () => new Option('--seed <n>', 'seed of every random choice').default(DEFAULT_SEED).argParser(parseSeed);
const tokenizerOption = () =>
  new Option('--tokenizer <name>', `tokenizer (${TOKENIZERS.join(', ')})`).default(DEFAULT_TOKENIZER).argParser(parseTokenizer);

/**
 * The tooltax command line. catalog, budget, lint, tasks and report start without the retriever
 * registry, the pipelines and the live clients (a noticeable share of CPU at every start): bench, retrieval
 * and live are defined only when `args` may run one of them. `--debug` is the only program
 * option, so the first other word is the command; anything else (a bench option, help, an
 * unknown name) defines them all.
 */
export async function tooltaxProgram(args: readonly string[], io: ProgramIo): Promise<Command> {
  const { root, log } = io;
  // What the commands print besides `log`: through terminalText, so tool text carries no control sequence to the terminal.
  const warn = (line: string) => (io.warn ?? ((l: string) => console.error(l)))(terminalText(line));
  const write = (text: string) => (io.write ?? ((t: string) => process.stdout.write(t)))(terminalText(text));
  const setExitCode = io.setExitCode ?? ((code: number) => (process.exitCode = code));
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

  /** Live MCP servers: `catalog` writes their dumps, `budget` measures them. */
  const liveOptions = (cmd: Command) =>
    cmd
      .option(
        '--from-server <command>',
        'start a stdio MCP server from this command line and capture its tools/list (repeatable; leading NAME=value words are its env)',
        collect,
      )
      .option(
        '--from-config <file>',
        'capture every server of an MCP client config: mcpServers (Claude Desktop, Claude Code, Cursor) or servers (VS Code mcp.json) (repeatable)',
        collect,
      )
      .option('--from-url <url>', 'capture a Streamable HTTP MCP server (repeatable)', collect)
      .option(
        '--timeout <seconds>',
        'per-server deadline for start, initialize and every tools/list page',
        parseTimeout,
        DEFAULT_TIMEOUT_MS / 1000,
      );

  liveOptions(
    program
      .command('catalog')
      .description(
        'regenerate the calibrated synthetic catalog and print its footprint beside the published targets; with --catalog, report the footprint of your own tools/list dump; with --from-server/--from-config/--from-url, capture live MCP servers into dumps first',
      )
      .addOption(seedOption())
      .addOption(tokenizerOption())
      .option('--catalog <paths>', 'tools/list dumps (files or folders, comma-separated) to report on instead', (v: string) =>
        v.split(','),
      ),
  )
    .option('--out <dir>', `where captured dumps go (default ${DEFAULT_CAPTURE_DIR}/)`, parseOutputDir)
    .option('--force', 'replace existing dumps of the same server name', false);
  addHostOptions(addLimitOptions(hintCatalogForPositional(program.commands.at(-1)!))).action(
    async (
      o: { seed: number; tokenizer: TokenizerName; catalog?: string[]; out?: string; force: boolean } & LiveOptions &
        InputLimits &
        HostCommandOptions,
    ) => {
      // The footprint as the host sends each tool, counted with its tokenizer.
      const host = runHostMeasures({ ...hostFromOptions(o, limitsFromOptions(o)), tokenizer: o.tokenizer }).host;
      const footprint = (catalog: Parameters<typeof footprintTable>[0]) => footprintTable(catalog, host.tokens, { host });
      if (hasLiveInput(o)) {
        // exit 0: every server captured; 1: some failed (the others' dumps are written); 2: none, or bad input
        const r = await captureCommand(o, root);
        if (r.written.length)
          log(
            tableToMarkdown(
              footprint(
                loadCatalog(
                  r.written.map((w) => w.file),
                  limitsFromOptions(o),
                ),
              ),
            ),
          );
        if (r.failures.length) warn(`${r.failures.length} of ${r.failures.length + r.written.length} server(s) failed`);
        setExitCode(r.exitCode);
        return;
      }
      const catalog = o.catalog
        ? loadCatalog(o.catalog, limitsFromOptions(o))
        : (await import('../bench/synthetic-inputs.ts')).writeSyntheticCatalog(root, o.seed).catalog;
      log(tableToMarkdown(footprint(catalog)));
      const refs = refUses(catalog);
      for (const w of externalRefWarnings(refs)) warn(w);
      const refTable = refSizeTable(catalog, tokenCounter(o.tokenizer), refs);
      if (refTable) log(tableToMarkdown(refTable));
    },
  );

  liveOptions(
    program
      .command('budget')
      .description(
        'token budget gate: per server and per tool, the tokens of each definition split by field, the largest first, and what ADOL short mode and $ref dedup would save; without a budget it measures only; exit 0 within budget (or no budget), 1 over budget, 2 on bad input',
      )
      .option('--catalog <paths>', 'tools/list dumps (files or folders; comma-separated, repeatable)', collectPaths)
      .option('--max-tool-tokens <n>', 'budget for all tool definitions together', parseTokenBudget)
      .option('--per-tool <n>', 'budget for each tool definition', parseTokenBudget)
      .addOption(tokenizerOption())
      .option('--json', 'machine-readable report')
      .option('--markdown', 'Markdown for a pull-request comment')
      .option('--lint', "add each tool's lint findings, their fixes and the tokens they recover (docs/lint.md)")
      .addOption(
        new Option('--fail-on-lint <severity>', 'exit 1 also when a lint finding is this severe or more (implies --lint)')
          .choices([...SEVERITIES, 'never'])
          .default('never'),
      )
      .option('--badge <file>', 'write a shields.io endpoint badge (JSON) to this file: the tool tokens per host'),
  );
  addHostOptions(addLimitOptions(hintCatalogForPositional(program.commands.at(-1)!)), { all: true }).action(
    async (o: BudgetCommandOptions) => {
      const { exitCode } = await budgetCommand(o, write);
      setExitCode(exitCode);
    },
  );

  liveOptions(
    program
      .command('lint')
      .description(
        'lint rules over a catalog: each finding names the tool, the problem, the fix and the tokens it recovers under the host (docs/lint.md); exit 0 clean, 1 a finding at or above --fail-on, 2 on bad input',
      )
      .option('--catalog <paths>', 'tools/list dumps (files or folders; comma-separated, repeatable)', collectPaths)
      .addOption(tokenizerOption())
      .option('--json', 'machine-readable report')
      .option('--markdown', 'Markdown for a pull-request comment')
      .option(
        '--fix <dir>',
        'write the catalog with every mechanical fix applied into this folder (one tools/list dump per server)',
        parseOutputDir,
      )
      .option('--force', '--fix: write into a folder that already holds files (dumps of the same names are replaced)', false)
      .addOption(
        new Option('--fail-on <severity>', 'exit 1 when a finding is this severe or more')
          .choices([...SEVERITIES, 'never'])
          .default('warning'),
      ),
  );
  addHostOptions(addLimitOptions(hintCatalogForPositional(program.commands.at(-1)!))).action(async (o: LintCommandOptions) => {
    const { exitCode } = await lintCommand(o, write, warn);
    setExitCode(exitCode);
  });

  program
    .command('tasks')
    .description('regenerate the labelled task set (and the held-out calibration set) and print its mix and lexical overlap')
    .addOption(seedOption())
    .action(async (o: { seed: number }) => {
      const { writeSyntheticCatalog, writeSyntheticTasks } = await import('../bench/synthetic-inputs.ts');
      const { catalog } = writeSyntheticCatalog(root, o.seed);
      const { tasks, calibration, dir } = writeSyntheticTasks(root, o.seed, catalog);
      log(`wrote ${tasks.length} tasks and ${calibration.length} calibration tasks to ${dir}\n`);
      log(tableToMarkdown(taskMixTable(tasks)));
      log(tableToMarkdown(overlapTable(tasks, catalog)));
    });

  // bench (the default command) and retrieval, with the retriever registry behind them, are defined only
  // when this command line may run one of them (see `lean`).
  if (!lean) {
    const { allRetrieverNames, DEFAULT_RETRIEVER, isRetrieverName } = await import('../retrieval/registry.ts');
    const { PIPELINES } = await import('../pipelines/registry.ts');
    const retrieverKind = {
      noun: 'retriever',
      ids: allRetrieverNames(),
      also: { accepts: isRetrieverName, form: 'dense:<encoder or model directory>' },
    };

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
      .option(
        '--pipelines <ids>',
        'comma-separated pipeline ids to run (default: all)',
        idListParser({ noun: 'pipeline', ids: PIPELINES.map((p) => p.id) }),
      )
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
        DEFAULT_RETRIEVER,
      );
    addHostOptions(addLimitOptions(hintCommandForPositional(program.commands.at(-1)!))).action(
      async (
        // The bench's own options as commander parses them (a type-only import: nothing loads).
        o: Omit<BenchOptions, 'root' | 'log' | 'limits' | 'lanes' | 'registry' | 'host'> &
          InputLimits &
          HostCommandOptions & { force: boolean },
      ) => {
        if (o.tasks && !o.catalog)
          throw new InputError(o.tasks, '', '--catalog together with --tasks (the synthetic tasks are regenerated)');
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
        `comma-separated retriever names or "all" (default ${DEFAULT_RETRIEVER})`,
        idListParser({ ...retrieverKind, ids: ['all', ...retrieverKind.ids] }),
        [DEFAULT_RETRIEVER],
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

  program
    .command('report')
    .description('re-render reports from an existing results directory without re-running the bench')
    .option('--results <dir>', 'results directory', join(root, RESULTS_DIR))
    .option(
      '--reports <dir>',
      "reports directory (default: reports/ for results/, a partial run's own reports folder beside its results; required for any other results folder)",
      parseOutputDir,
    )
    .action(async (o: { results: string; reports?: string }) => {
      // Only one complete run, and not while a bench is writing it.
      if (!existsSync(o.results))
        throw new InputError(o.results, '', 'a results directory written by `npm run bench`', `nothing at ${resolve(o.results)}`);
      const reports = o.reports ?? defaultReportsDir(o.results, root);
      const lock = acquireRunLock(o.results, 'report');
      const reportsLock = resolve(reports) === resolve(o.results) ? undefined : acquireRunLock(reports, 'report');
      checkCompleteRun(o.results);
      const { renderReports } = await import('../report/render-reports.ts');
      await renderReports(o.results, reports, { log });
      reportsLock?.release();
      lock.release();
      log(`reports written to ${reports}`);
    });

  if (!lean) {
    // (`.then` with the name destructured: ts-unused-exports sees the use through a dynamic import.)
    const live = await import('./live.ts').then(({ liveCommand }) => liveCommand(root, log));
    program.addCommand(live.configureOutput(output).exitOverride(exitTwoOnUsage));
  }
  suggestAmongAllOptions(program);
  return program;
}
