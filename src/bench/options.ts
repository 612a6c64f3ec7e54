import type { EncoderName } from '../embed/registry.ts';
import type { HostSpec } from '../hosts/types.ts';
import type { PipelineSummary } from '../measure/summarize.ts';
import type { ReadPart, ShardSpec } from '../results/shard-part.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import type { InputLimits } from '../util/limits.ts';
import type { BenchRegistry } from './units.ts';

/** What a bench run is asked to do: the CLI's options, or a test's. */
export interface BenchOptions {
  root: string;
  seed: number;
  seeds: number[];
  catalog?: string[];
  tasks?: string;
  tokenizer: TokenizerName;
  /** How the tool list reaches the model (src/hosts; default mcp-json). A host with a tokenizer of its own measures the whole run with it. */
  host?: Omit<HostSpec, 'tokenizer'>;
  out?: string;
  reports?: string;
  pipelines?: string[];
  /** Sentence encoder of the retrieval pipelines (default use-lite); embeddings cached in .cache/embeddings. */
  encoder?: EncoderName;
  /** Retriever of B3, Tool Attention, ADOL semantic retrieval and the ablations (default DEFAULT_RETRIEVER). */
  retriever?: string;
  quick: boolean;
  /** Catalog sizes of the scaling study (default: its sweep up to N = 1,000, the published range). */
  scalingSizes?: number[];
  /** Bounds on the user's catalog and task files (default DEFAULT_LIMITS). */
  limits?: InputLimits;
  /** Studies to run (registry ids; default all). */
  studies?: string[];
  /** Lanes running pipelines and studies at once (default $TOOLTAX_BENCH_WORKERS, else 2; 1 = serial in this thread). */
  lanes?: number;
  /** Run only this shard's units and write a part folder (`merge` joins the parts). */
  shard?: ShardSpec;
  /** Merge: the parts (read and checked) whose unit results stand in for running the units. */
  parts?: readonly ReadPart[];
  /** Run every unit, whatever the results folder records (default: restore each unit whose fingerprint matches its record). */
  fresh?: boolean;
  /** The pipelines and studies to choose from (default the bench's; another registry runs in one lane, in this thread). */
  registry?: BenchRegistry;
  log: (line: string) => void;
}

/** What a bench wrote: a run (results and reports), or a shard's part (results only: `merge` writes the reports). */
export interface BenchOutcome {
  resultsDir: string;
  reportsDir?: string;
  summaries: PipelineSummary[];
}

/** The options that decide a run's results: every shard of a run must have the same (RunIdentity.settings). */
export function resultSettings(opts: BenchOptions): Record<string, unknown> {
  const { seed, seeds, catalog, tasks, tokenizer, pipelines, encoder, retriever, quick, scalingSizes, limits, studies } = opts;
  return JSON.parse(
    JSON.stringify({ seed, seeds, catalog, tasks, tokenizer, pipelines, encoder, retriever, quick, scalingSizes, limits, studies }),
  ) as Record<string, unknown>;
}
