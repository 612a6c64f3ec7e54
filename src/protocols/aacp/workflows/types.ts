import { buildPacket, serialisePacket, type PacketSpec } from '../packet.ts';
import { assertTransmittable } from '../validator.ts';

export type WorkflowId = 'payroll' | 'it-provisioning' | 'invoice' | 'contract-review';

/** One coordination message produced by a rule-based encoder (draft §6.1): zero LLM cost. */
export interface EncodedHop {
  workflow: WorkflowId;
  /** Stable id, e.g. `fetch-employees`. */
  hop: string;
  packet: string;
}

/** Build, serialise and pass the §7 gate: a rule-based encoder never emits an invalid packet. */
export function emit(spec: PacketSpec): string {
  const text = serialisePacket(buildPacket(spec));
  assertTransmittable(text);
  return text;
}
