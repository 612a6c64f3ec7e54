import { makeTempDir } from './temp.ts';
import { SYNTHETIC_CATALOG_NAME } from '../../src/catalog/generate.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { SERVER_SPECS } from '../../src/catalog/servers/index.ts';
import type { PipelineEntry } from '../../src/pipelines/types.ts';
import type { StudyContext } from '../../src/studies/types.ts';
import type { Task } from '../../src/tasks/types.ts';
import { TaskGenerator } from '../../src/tasks/generate.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

/**
 * A study's context on the committed synthetic catalog, as the default bench gives it: the
 * seed-42 calibration and history tasks, the given evaluated tasks (picked from seed 42's) and
 * pipelines, a results folder of its own (removed when the test file ends).
 */
export function syntheticStudyContext(
  pick: (seed42: readonly Task[]) => Task[],
  pipelines: readonly PipelineEntry[],
  more: Partial<StudyContext> = {},
): StudyContext {
  const catalog = { ...loadCatalog('catalogs/synthetic-120'), name: SYNTHETIC_CATALOG_NAME };
  const generator = new TaskGenerator(SERVER_SPECS);
  const all = generator.generate(42);
  const tasks = pick(all);
  return {
    root: process.cwd(),
    catalog,
    tasks,
    taskSets: [{ seed: 42, tasks }],
    calibrationTasks: generator.generateCalibration(42, all),
    historyTasks: generator.generate(42, 'history'),
    pipelines: [...pipelines],
    tokens: tokenCounter(),
    seed: 42,
    quick: true,
    resultsDir: makeTempDir('tooltax-studies-'),
    records: new Map(),
    summaries: [],
    log: () => {},
    ...more,
  };
}
