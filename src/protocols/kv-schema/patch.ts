import type { KeyDefinition, SchemaPatch } from './types.ts';

/**
 * Conflict detection and patch packaging (§6.2.2). A candidate whose name collides with a base
 * key or an active patch key is merged into it by refining its semantic description (never its
 * type: base keys "MUST NOT ... have their types changed"); otherwise it becomes a new,
 * experimental key. Every patch carries patch_id, parent_schema_id, timestamp and expiration.
 */

export type Conflict = 'none' | 'base-key' | 'patch-key';

export interface PackagedPatch {
  patch: SchemaPatch;
  conflict: Conflict;
  keyName: string;
}

export interface PatchContext {
  parentSchemaId: string;
  baseKeys: ReadonlyMap<string, KeyDefinition>;
  /** Patch keys currently advertised (experimental, stable or deprecated). */
  patchKeys: ReadonlyMap<string, KeyDefinition>;
  patchId: string;
  timestamp: Date;
  observationWindowDays: number;
}

function examplesOf(description: string): string {
  const at = description.indexOf('Example mapping: ');
  return at >= 0 ? description.slice(at + 'Example mapping: '.length).replace(/\.$/, '') : description;
}

export function packagePatch(candidate: KeyDefinition, ctx: PatchContext): PackagedPatch {
  const expiration = new Date(ctx.timestamp.getTime() + ctx.observationWindowDays * 86_400_000);
  const head = {
    patch_id: ctx.patchId,
    parent_schema_id: ctx.parentSchemaId,
    timestamp: ctx.timestamp.toISOString(),
    expiration: expiration.toISOString(),
  };
  const existing = ctx.baseKeys.get(candidate.key_name) ?? ctx.patchKeys.get(candidate.key_name);
  if (existing) {
    const refined: KeyDefinition = {
      ...existing,
      semantic_description: `${existing.semantic_description} Further mapping examples: ${examplesOf(candidate.semantic_description)}.`,
    };
    return {
      patch: { ...head, modified_keys: [refined] },
      conflict: ctx.baseKeys.has(candidate.key_name) ? 'base-key' : 'patch-key',
      keyName: candidate.key_name,
    };
  }
  return {
    patch: { ...head, new_keys: [{ ...candidate, required: false, experimental: true }] },
    conflict: 'none',
    keyName: candidate.key_name,
  };
}
