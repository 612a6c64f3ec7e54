import type { Command } from 'commander';
import { footprintTable } from '../catalog/footprint-table.ts';
import { loadCatalog } from '../catalog/load.ts';
import { externalRefWarnings, refSizeTable, refUses } from '../catalog/ref-table.ts';
import { runHostMeasures } from '../hosts/measure.ts';
import { DEFAULT_CAPTURE_DIR } from '../mcp/dump.ts';
import { tableToMarkdown } from '../report/table-text.ts';
import { tokenCounter, type TokenizerName } from '../tokens/counter.ts';
import type { InputLimits } from '../util/limits.ts';
import { captureCommand, hasLiveInput, type LiveOptions } from './capture.ts';
import type { CommandOutputs } from './command-outputs.ts';
import { addHostOptions, hostFromOptions, type HostCommandOptions } from './host-options.ts';
import { addLimitOptions, limitsFromOptions } from './limit-options.ts';
import { hintCatalogForPositional } from './option-suggestions.ts';
import { parseOutputDir } from './output-dir.ts';
import { liveOptions, seedOption, tokenizerOption } from './shared-options.ts';

type CatalogCommandOptions = { seed: number; tokenizer: TokenizerName; catalog?: string[]; out?: string; force: boolean } & LiveOptions &
  InputLimits &
  HostCommandOptions;

/** `catalog`: the synthetic catalog's footprint, a dump's, or live servers captured into dumps first. */
export function defineCatalogCommand(program: Command, out: CommandOutputs): void {
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
  addHostOptions(addLimitOptions(hintCatalogForPositional(program.commands.at(-1)!))).action((o: CatalogCommandOptions) =>
    catalogAction(o, out),
  );
}

async function catalogAction(o: CatalogCommandOptions, { root, log, warn, setExitCode }: CommandOutputs): Promise<void> {
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
}
