import { createHash } from 'node:crypto';
import type { ToolNotAvailableError } from './hallucination-gate.ts';

/**
 * Structured events (paper §5.7): one `routing` event per turn, one `hallucination_gate` event
 * per rejected call (or `unpromoted_call` when the gate is switched off). The bench adds the
 * task id and writes them to `events/<pipeline>.seed<n>.jsonl`.
 */
export interface RoutingEvent {
  type: 'routing';
  turn: number;
  /** sha256 of the query vector's float32 bytes, first 16 hex digits. */
  query_embedding_hash: string;
  /** Tools with ISO ≥ θ the router examined, best first, and their ISO scores (4 decimals). */
  candidates: string[];
  scores: number[];
  gated_out_by_state: { tool: string; unmet: string[] }[];
  active_set: string[];
  phase1_tokens: number;
  phase2_tokens: number;
  /** Query embedding (a cache lookup in the bench) + routing, this turn; raw encoder timings: the router-latency table. */
  latency_ms: number;
  theta: number;
  k: number;
  reembedded_with_observation: boolean;
}

export interface GateEvent {
  type: 'hallucination_gate' | 'unpromoted_call';
  turn: number;
  tool: string;
  /** The structured error returned to the model (absent when the gate is off). */
  error?: ToolNotAvailableError;
}

export function vectorHash(v: Float32Array): string {
  return createHash('sha256')
    .update(Buffer.from(v.buffer, v.byteOffset, v.byteLength))
    .digest('hex')
    .slice(0, 16);
}

export function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
