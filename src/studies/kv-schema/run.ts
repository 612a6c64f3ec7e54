import type { Encoder } from '../../embed/types.ts';
import type { TokenizerName } from '../../tokens/counter.ts';
import { DEFAULT_SEED } from '../../util/rng.ts';
import { simulateEvolution, type DailyKeyRow, type EvolutionSummary, type TimelineRow } from '../../protocols/kv-schema/evolution.ts';
import type { KeyInducer } from '../../protocols/kv-schema/key-inducer.ts';
import { measureKvTokens, type KvTokenRow } from '../../protocols/kv-schema/measure.ts';
import { EVOLUTION_PARAMS, EVOLUTION_PARAMS_SOURCE, type EvolutionParams } from '../../protocols/kv-schema/params.ts';
import { FLIGHT_EVOLUTION_SCRIPT, type TrafficScript } from '../../protocols/kv-schema/traffic.ts';
import type { SchemaPatch, SchemaTemplate } from '../../protocols/kv-schema/types.ts';

/**
 * Entry point of the structured key-value schema study: NL vs payload tokens with negotiation
 * and break-even for every template, and the self-evolution simulation (§6.2) on a seeded
 * traffic script. The measured run must be given the real sentence encoder (use-lite).
 */

export interface KvSchemaStudyOptions {
  seed?: number;
  encoder: Encoder;
  script?: TrafficScript;
  params?: EvolutionParams;
  inducer?: KeyInducer;
  /** Default both (cl100k_base, o200k_base). */
  tokenizers?: readonly TokenizerName[];
}

export interface KvSchemaStudyResult {
  seed: number;
  encoder: { name: string; description: string };
  tokenRows: KvTokenRow[];
  evolution: {
    summary: EvolutionSummary;
    timeline: TimelineRow[];
    daily: DailyKeyRow[];
    patches: SchemaPatch[];
    finalSchema: SchemaTemplate;
  };
  params: EvolutionParams;
  paramsSource: string;
}

export async function runKvSchemaStudy(opts: KvSchemaStudyOptions): Promise<KvSchemaStudyResult> {
  const seed = opts.seed ?? DEFAULT_SEED;
  const params = opts.params ?? (structuredClone(EVOLUTION_PARAMS) as unknown as EvolutionParams);
  const evolution = await simulateEvolution({
    script: opts.script ?? FLIGHT_EVOLUTION_SCRIPT,
    encoder: opts.encoder,
    seed,
    params,
    inducer: opts.inducer,
  });
  return {
    seed,
    encoder: { name: opts.encoder.name, description: opts.encoder.description },
    tokenRows: measureKvTokens(undefined, undefined, opts.tokenizers),
    evolution,
    params,
    paramsSource: EVOLUTION_PARAMS_SOURCE,
  };
}
