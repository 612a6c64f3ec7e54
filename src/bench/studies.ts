import type { Catalog } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import type { Table } from '../report/table.ts';
import type { Task } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { PipelineSummary } from './summarize.ts';
import type { TurnRecord } from './run-pipeline.ts';

/**
 * A study produces tables from the run's inputs and measured turns (e.g. the ADOL, AACP and
 * key-value schema tables, scaling, caching). Registered in src/bench/study-registry.ts.
 */
export interface StudyContext {
  root: string;
  catalog: Catalog;
  /** The evaluated tasks of the first seed (empty for a catalog without tasks). */
  tasks: Task[];
  tokens: TokenCounter;
  encoder?: Encoder;
  seed: number;
  quick: boolean;
  resultsDir: string;
  /** Every pipeline's turn records, by pipeline id (all seeds). */
  records: ReadonlyMap<string, readonly TurnRecord[]>;
  summaries: readonly PipelineSummary[];
  log: (line: string) => void;
}

export interface Study {
  id: string;
  run(ctx: StudyContext): Promise<Table[]>;
}
