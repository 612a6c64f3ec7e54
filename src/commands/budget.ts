import { InvalidArgumentError } from 'commander';
import { budgetReport, type BudgetReport } from '../budget/budget.ts';
import { renderJson, renderMarkdown, renderText } from '../budget/render.ts';
import { toolSearchRule } from '../budget/tool-search-rule.ts';
import { loadCatalog } from '../catalog/load.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import { runHostMeasures } from '../hosts/measure.ts';
import { hasLiveInput, withLiveDumps, type LiveOptions } from './capture.ts';
import { hostFromOptions, type HostCommandOptions } from './host-options.ts';
import { limitsFromOptions } from './limit-options.ts';
import type { InputLimits } from '../util/limits.ts';

export interface BudgetCommandOptions extends LiveOptions, Partial<InputLimits>, HostCommandOptions {
  catalog?: string[];
  maxToolTokens?: number;
  perTool?: number;
  tokenizer: TokenizerName;
  json?: boolean;
  markdown?: boolean;
}

/** A usage problem: printed as one line, exit 2. */
export class BudgetUsageError extends Error {
  override name = 'BudgetUsageError';
}

export function parseTokenBudget(value: string): number {
  const n = Number(value.replaceAll('_', '').replaceAll(',', ''));
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number of tokens (e.g. 20000)');
  return n;
}

/** Comma-separated and repeatable: `--catalog a.json,b.json --catalog dir/`. */
export const collectPaths = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)];

/**
 * `budget`: measure the definitions, print the report, return the exit code
 * (0 within budget, 1 over budget). Bad input throws (InputError, BudgetUsageError): exit 2.
 */
export async function budgetCommand(
  o: BudgetCommandOptions,
  print: (text: string) => void,
): Promise<{ exitCode: 0 | 1; report: BudgetReport }> {
  if (o.maxToolTokens === undefined && o.perTool === undefined)
    throw new BudgetUsageError('budget: expected --max-tool-tokens N and/or --per-tool N');
  if (o.json && o.markdown) throw new BudgetUsageError('budget: expected at most one of --json and --markdown');
  if (!o.catalog?.length && !hasLiveInput(o))
    throw new BudgetUsageError('budget: expected --catalog <dumps>, --from-config <file>, --from-server "<command>" or --from-url <url>');
  // Read (a custom host file) and checked before any server is started.
  const host = runHostMeasures({ ...hostFromOptions(o, limitsFromOptions(o)), tokenizer: o.tokenizer }).host;
  const measure = (files: string[]) => {
    const catalog = loadCatalog(files, limitsFromOptions(o));
    const report: BudgetReport = {
      ...budgetReport(catalog, host.tokens, { maxToolTokens: o.maxToolTokens, perTool: o.perTool }, host),
      toolSearch: toolSearchRule(catalog, o.tokenizer),
    };
    print(o.json ? renderJson(report) : o.markdown ? renderMarkdown(report) : renderText(report));
    return { exitCode: report.pass ? (0 as const) : (1 as const), report };
  };
  if (!hasLiveInput(o)) return measure(o.catalog!);
  return withLiveDumps(o, (files, failures) => {
    // A gate over the servers that happened to start would pass on too small a total.
    if (failures.length)
      throw new BudgetUsageError(`budget: ${failures.length} server(s) could not be captured (see above); not measuring a partial set`);
    return measure([...(o.catalog ?? []), ...files]);
  });
}
