import type { BenchOptions } from '../options.ts';
import { localExecution } from './local.ts';
import { mergeExecution } from './merge.ts';
import { shardExecution } from './shard.ts';
import type { Execution } from './types.ts';

/** The run's execution strategy: a merge of parts, one shard, or the whole run here. */
export function executionFor(opts: Pick<BenchOptions, 'shard' | 'parts'>): Execution {
  if (opts.parts) return mergeExecution(opts.parts);
  if (opts.shard) return shardExecution(opts.shard);
  return localExecution();
}
