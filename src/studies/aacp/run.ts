import type { TokenizerName } from '../../tokens/counter.ts';
import { DEFAULT_SEED } from '../../util/rng.ts';
import type { LlmPacketEncoder } from '../../protocols/aacp/llm-encoder.ts';
import { coordinationMessages } from '../../protocols/aacp/messages.ts';
import { measureHops, measureWorkflows, type HopTokenRow, type WorkflowTokenRow } from '../../protocols/aacp/measure.ts';
import { AACP_PARAMS, PUBLISHED_AACP_PAYROLL } from '../../protocols/aacp/params.ts';
import { AacpRegistry } from '../../protocols/aacp/registry.ts';
import { simulateStream, type StreamSummary } from '../../protocols/aacp/stream.ts';

/**
 * Entry point of the AACP study: coordination-token measurements for the four §6.1 workflows
 * and the payroll stream through the three-tier fallback encoder. Returns plain rows.
 */

export interface AacpStudyOptions {
  seed?: number;
  /** Registry file (created if missing; a corrupt one stops the run and is left as it is). */
  registryPath?: string;
  runs?: number;
  /** Tier-3 encoder of the main stream; default StandInLlmEncoder. The reference-SDK comparison always uses a stand-in. */
  llm?: LlmPacketEncoder;
  /** Default both (cl100k_base, o200k_base). */
  tokenizers?: readonly TokenizerName[];
}

export interface AacpStudyResult {
  seed: number;
  hopRows: HopTokenRow[];
  /** Packet text per `workflow/hop`, as measured. */
  packets: Record<string, string>;
  /** English instruction per `workflow/hop`, as measured. */
  english: Record<string, string>;
  workflowRows: WorkflowTokenRow[];
  /** Stale-safe fallback (ours) and, for comparison, the reference SDK's Tier 2 on the same stream. */
  streamRows: StreamSummary[];
  registryPath: string | null;
  registryEntriesAtStart: number;
  params: typeof AACP_PARAMS;
  published: typeof PUBLISHED_AACP_PAYROLL;
}

export async function runAacpStudy(opts: AacpStudyOptions = {}): Promise<AacpStudyResult> {
  const seed = opts.seed ?? DEFAULT_SEED;
  const registry = opts.registryPath ? AacpRegistry.open(opts.registryPath) : AacpRegistry.inMemory();
  const registryEntriesAtStart = registry.size;
  const messages = coordinationMessages();
  const hopRows = measureHops(messages, opts.tokenizers);
  const safe = await simulateStream({ seed, runs: opts.runs, registry, llm: opts.llm });
  const reference = await simulateStream({ seed, runs: opts.runs, staleSafe: false });
  return {
    seed,
    hopRows,
    packets: Object.fromEntries(messages.map((m) => [`${m.workflow}/${m.hop}`, m.packet])),
    english: Object.fromEntries(messages.map((m) => [`${m.workflow}/${m.hop}`, m.english])),
    workflowRows: measureWorkflows(hopRows),
    streamRows: [safe.summary, reference.summary],
    registryPath: opts.registryPath ?? null,
    registryEntriesAtStart,
    params: AACP_PARAMS,
    published: PUBLISHED_AACP_PAYROLL,
  };
}
