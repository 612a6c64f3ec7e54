import type { Command } from 'commander';
import { tableToMarkdown } from '../report/table-text.ts';
import { overlapTable } from '../tasks/overlap.ts';
import { taskMixTable } from '../tasks/stats.ts';
import type { CommandOutputs } from './command-outputs.ts';
import { seedOption } from './shared-options.ts';

/** `tasks`: the synthetic task sets regenerated, with their mix and lexical overlap. */
export function defineTasksCommand(program: Command, { root, log }: CommandOutputs): void {
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
}
