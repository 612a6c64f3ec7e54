import { Option, type Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../catalog/load.ts';
import { runHostMeasures } from '../hosts/measure.ts';
import { fixCatalog, lintContext, lintFails, runLint, type LintReport } from '../lint/lint.ts';
import { renderLintJson, renderLintMarkdown, renderLintText } from '../lint/render.ts';
import { SEVERITIES, type Severity } from '../lint/types.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import type { InputLimits } from '../util/limits.ts';
import { BudgetUsageError, collectPaths, withCatalogFiles } from './budget.ts';
import type { LiveOptions } from './capture.ts';
import type { CommandOutputs } from './command-outputs.ts';
import { addHostOptions, hostFromOptions, type HostCommandOptions } from './host-options.ts';
import { addLimitOptions, limitsFromOptions } from './limit-options.ts';
import { hintCatalogForPositional } from './option-suggestions.ts';
import { parseOutputDir } from './output-dir.ts';
import { liveOptions, tokenizerOption } from './shared-options.ts';

export interface LintCommandOptions extends LiveOptions, Partial<InputLimits>, HostCommandOptions {
  catalog?: string[];
  tokenizer: TokenizerName;
  json?: boolean;
  markdown?: boolean;
  /** Write the catalog with every mechanical fix applied into this folder (one dump per server). */
  fix?: string;
  /** Let --fix write into a folder that already holds files (the dumps of the same names are replaced). */
  force?: boolean;
  failOn: Severity | 'never';
}

/** A file name for a server's dump: its name with anything outside [A-Za-z0-9._-] replaced. */
const dumpName = (server: string) => `${server.replace(/[^A-Za-z0-9._-]/g, '_') || 'server'}.json`;

/**
 * `lint`: every rule over the catalog, each finding with its fix and the tokens it recovers
 * under the host. Exit 1 when a finding is at or above --fail-on, else 0; bad input throws (exit 2).
 */
async function lintCommand(
  o: LintCommandOptions,
  print: (text: string) => void,
  log: (line: string) => void,
): Promise<{ exitCode: 0 | 1; report: LintReport }> {
  if (o.json && o.markdown) throw new BudgetUsageError('lint: expected at most one of --json and --markdown');
  // Checked before anything is measured: a rerun must not replace an earlier fix (or the user's files) unasked.
  if (o.fix !== undefined && !o.force && existsSync(o.fix) && readdirSync(o.fix).length > 0)
    throw new BudgetUsageError(`lint: --fix ${o.fix} already holds files; choose a new folder, or add --force to replace the dumps in it`);
  const host = runHostMeasures({ ...hostFromOptions(o, limitsFromOptions(o)), tokenizer: o.tokenizer }).host;
  return withCatalogFiles(o, 'lint', (files) => {
    // A name listed twice is a finding here, not a refusal of the whole file.
    const ctx = lintContext(loadCatalog(files, limitsFromOptions(o), { repeatedNames: 'keep-first' }), host);
    const report = runLint(ctx);
    const failed = lintFails(report, o.failOn);
    print(o.json ? renderLintJson(report) : o.markdown ? renderLintMarkdown(report, failed) : renderLintText(report));
    if (o.fix !== undefined) {
      mkdirSync(o.fix, { recursive: true });
      const servers = fixCatalog(ctx);
      for (const s of servers)
        writeFileSync(join(o.fix, dumpName(s.server)), `${JSON.stringify({ server: s.server, tools: s.tools }, null, 2)}\n`);
      const fixed = servers.reduce((n, s) => n + s.fixed, 0);
      log(`--fix: ${fixed} of ${report.tools} tools changed; ${servers.length} dump(s) written to ${o.fix}`);
    }
    return { exitCode: failed ? (1 as const) : (0 as const), report };
  });
}

/** `lint`: the lint rules over dumps or live servers, with `--fix` writing the fixed catalog. */
export function defineLintCommand(program: Command, { write, warn, setExitCode }: CommandOutputs): void {
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
}
