import { validateTemplate } from './template-validator.ts';
import type { NegotiationError, NegotiationRequest, SchemaTemplate } from './types.ts';

/**
 * Schema negotiation (§3.2 step 3, Appendix A.1): the client asks for the template of a
 * scenario, the server answers with the template or an error naming the scenarios it serves.
 */

export function negotiationRequest(scenario: string, preferredLanguage = 'en-US'): NegotiationRequest {
  return { method: 'get_schema_template', params: { scenario, preferred_language: preferredLanguage } };
}

export class SchemaServer {
  private readonly byScenario = new Map<string, SchemaTemplate>();

  constructor(templates: readonly SchemaTemplate[]) {
    for (const t of templates) {
      const errors = validateTemplate(t).filter((i) => i.level === 'error');
      if (errors.length > 0) throw new Error(`template ${t.schema_id}: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
      if (this.byScenario.has(t.scenario)) throw new Error(`two templates for scenario ${t.scenario}`);
      this.byScenario.set(t.scenario, t);
    }
  }

  get scenarios(): string[] {
    return [...this.byScenario.keys()];
  }

  template(scenario: string): SchemaTemplate | undefined {
    return this.byScenario.get(scenario);
  }

  /** Answer a request as received on the wire (untrusted JSON). */
  handle(request: unknown): SchemaTemplate | NegotiationError {
    const r = request as Partial<NegotiationRequest> | null;
    if (typeof r !== 'object' || r === null || r.method !== 'get_schema_template' || typeof r.params?.scenario !== 'string') {
      return { error: { code: 'invalid_request', message: 'expected {"method":"get_schema_template","params":{"scenario":string}}' } };
    }
    const t = this.byScenario.get(r.params.scenario);
    if (!t)
      return {
        error: {
          code: 'unknown_scenario',
          message: `no schema for scenario ${JSON.stringify(r.params.scenario)}`,
          available: this.scenarios,
        },
      };
    return t;
  }
}

export function isNegotiationError(x: SchemaTemplate | NegotiationError): x is NegotiationError {
  return 'error' in x;
}
