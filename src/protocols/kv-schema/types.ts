/**
 * Message shapes of the structured key-value schema protocol (draft-zhou-structured-data-schema-
 * interaction-00, seed 003): schema templates (§4.1), negotiation (§3.2 step 3, Appendix A.1),
 * payloads (§3.2 step 4, A.2), update suggestions (§3.2 step 6, A.2 Figure 9) and patches (§6.2.2).
 */

/** §4.1: "A JSON Schema type identifier". */
export const KEY_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

export interface KeyDefinition {
  key_name: string;
  key_type: KeyType;
  required: boolean;
  default_value?: JsonValue;
  semantic_description: string;
  /** §6.2.3: advertised on patch keys during the trial. */
  experimental?: boolean;
  /** §6.2.3: advertised during the deprecation grace period. */
  deprecated?: boolean;
}

export interface SchemaTemplate {
  schema_id: string;
  scenario: string;
  keys: KeyDefinition[];
}

/** Appendix A.1 Figure 6. */
export interface NegotiationRequest {
  method: 'get_schema_template';
  params: { scenario: string; preferred_language?: string };
}

export interface NegotiationError {
  error: { code: 'invalid_request' | 'unknown_scenario'; message: string; available?: string[] };
}

/** Appendix A.2 Figure 8. */
export interface StructuredPayload {
  schema_id: string;
  payload: Record<string, unknown>;
}

/** Appendix A.2 Figure 9: `schema_update_suggestion`. */
export interface SchemaUpdateSuggestion {
  new_keys?: KeyDefinition[];
  modified_keys?: KeyDefinition[];
}

/** §6.2.2 Patch Packaging: "MUST carry a patch_id, a parent_schema_id, a timestamp, and an expiration date". */
export interface SchemaPatch extends SchemaUpdateSuggestion {
  patch_id: string;
  parent_schema_id: string;
  timestamp: string;
  expiration: string;
}
