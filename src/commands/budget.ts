import { InvalidArgumentError, Option, type Command } from 'commander';
import { budgetReport, type BudgetReport } from '../budget/budget.ts';
import { renderMarkdown, renderText } from '../budget/render.ts';
import { badgeJson, hostsReport, renderHostsMarkdown, renderHostsText, type HostsReport } from '../budget/hosts.ts';
import { lintContext, lintFails, runLint } from '../lint/lint.ts';
import { SEVERITIES, type Severity } from '../lint/types.ts';
import { renderLintMarkdown, renderLintText } from '../lint/render.ts';
import { writeFileSync } from 'node:fs';
import { toolSearchRule } from '../budget/tool-search-rule.ts';
import { loadCatalog } from '../catalog/load.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import { runHostMeasures } from '../hosts/measure.ts';
import { hasLiveInput, withLiveDumps, type LiveOptions } from './capture.ts';
import { addHostOptions, hostFromOptions, type HostCommandOptions } from './host-options.ts';
import { addLimitOptions, limitsFromOptions } from './limit-options.ts';
import type { InputLimits } from '../util/limits.ts';
import type { CommandOutputs } from './command-outputs.ts';
import { hintCatalogForPositional } from './option-suggestions.ts';
import { liveOptions, tokenizerOption } from './shared-options.ts';

export interface BudgetCommandOptions extends LiveOptions, Partial<InputLimits>, HostCommandOptions {
  catalog?: string[];
  maxToolTokens?: number;
  perTool?: number;
  tokenizer: TokenizerName;
  json?: boolean;
  markdown?: boolean;
  /** Add each tool's lint findings and fixes (src/lint) after the budget. */
  lint?: boolean;
  /** Fail (exit 1) when a lint finding is this severe or more, too; implies `lint`. */
  failOnLint?: Severity | 'never';
  /** Write a shields.io endpoint badge (tokens per host) to this file. */
  badge?: string;
}

/** A usage problem: printed as one line, exit 2. */
export class BudgetUsageError extends Error {
  override name = 'BudgetUsageError';
}

function parseTokenBudget(value: string): number {
  const n = Number(value.replaceAll('_', '').replaceAll(',', ''));
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number of tokens (e.g. 20000)');
  return n;
}

/** Comma-separated and repeatable: `--catalog a.json,b.json --catalog dir/`. */
export const collectPaths = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)];

/** The dumps and live servers a command's options name: the files to load (captures are removed after `use`). */
export async function withCatalogFiles<T>(
  o: LiveOptions & { catalog?: string[] },
  command: string,
  use: (files: string[]) => Promise<T> | T,
): Promise<T> {
  if (!o.catalog?.length && !hasLiveInput(o))
    throw new BudgetUsageError(
      `${command}: expected --catalog <dumps>, --from-config <file>, --from-server "<command>" or --from-url <url>`,
    );
  if (!hasLiveInput(o)) return use(o.catalog!);
  return withLiveDumps(o, (files, failures) => {
    // A result over the servers that happened to start would pass on too small a total.
    if (failures.length)
      throw new BudgetUsageError(`${command}: ${failures.length} server(s) could not be captured (see above); not measuring a partial set`);
    return use([...(o.catalog ?? []), ...files]);
  });
}

/**
 * `budget`: measure the definitions, print the report, return the exit code
 * (0 within budget or no budget given, 1 over budget). Bad input throws (InputError, BudgetUsageError): exit 2.
 */
export async function budgetCommand(
  o: BudgetCommandOptions,
  print: (text: string) => void,
): Promise<{ exitCode: 0 | 1; report: BudgetReport | HostsReport }> {
  if (o.json && o.markdown) throw new BudgetUsageError('budget: expected at most one of --json and --markdown');
  // Read (a custom host file) and checked before any server is started.
  const measures = runHostMeasures({ ...hostFromOptions(o, limitsFromOptions(o)), tokenizer: o.tokenizer });
  const hosts = o.host === 'all' ? measures.compare.hosts : [measures.host];
  const limits = { maxToolTokens: o.maxToolTokens, perTool: o.perTool };
  const gated = limits.maxToolTokens !== undefined || limits.perTool !== undefined;
  return withCatalogFiles(o, 'budget', (files) => {
    const failOnLint = o.failOnLint ?? 'never';
    const linting = o.lint || failOnLint !== 'never';
    // With lint, a name listed twice is its duplicate-name finding (left out of the totals); without, the file is refused.
    const catalog = loadCatalog(files, limitsFromOptions(o), { repeatedNames: linting ? 'keep-first' : 'refuse' });
    const toolSearch = toolSearchRule(catalog, o.tokenizer);
    const reports = hosts.map((h): BudgetReport => ({ ...budgetReport(catalog, h.tokens, limits, h), toolSearch }));
    const lint = linting ? runLint(lintContext(catalog, hosts[0]!)) : undefined;
    const lintFailed = lint !== undefined && lintFails(lint, failOnLint);
    let report: BudgetReport | HostsReport;
    let text: string;
    if (o.host === 'all') {
      const all = hostsReport(
        hosts.map((h) => h.id),
        reports,
      );
      report = all;
      text = o.json ? '' : o.markdown ? renderHostsMarkdown(all) : renderHostsText(all);
    } else {
      report = reports[0]!;
      text = o.json ? '' : o.markdown ? renderMarkdown(report) : renderText(report);
    }
    if (o.json) text = `${JSON.stringify(lint ? { ...report, lint } : report, null, 2)}\n`;
    else if (lint)
      text += o.markdown ? `\n${renderLintMarkdown(lint, lintFailed).replace(/^.*\n/, '')}` : `\nLint:\n${renderLintText(lint)}`;
    if (lintFailed && !o.json)
      text += o.markdown
        ? `\n**❌ Lint: a finding at ${failOnLint} or worse fails this check (--fail-on-lint ${failOnLint}).**\n`
        : `\nFAIL: a lint finding at ${failOnLint} or worse (--fail-on-lint ${failOnLint})\n`;
    print(text);
    if (o.badge !== undefined) {
      const pass = reports.every((r) => r.pass);
      writeFileSync(
        o.badge,
        badgeJson(
          hosts.map((h, i) => ({ id: h.id, tokens: reports[i]!.total.tokens })),
          pass,
          gated,
        ),
      );
    }
    return { exitCode: reports.every((r) => r.pass) && !lintFailed ? (0 as const) : (1 as const), report };
  });
}

/** `budget`: the token budget gate over dumps or live servers. */
export function defineBudgetCommand(program: Command, { write, setExitCode }: CommandOutputs): void {
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
}
