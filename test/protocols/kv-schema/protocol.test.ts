import { describe, expect, it } from 'vitest';
import { isNegotiationError, negotiationRequest, SchemaServer } from '../../../src/protocols/kv-schema/negotiation.ts';
import { validatePayload } from '../../../src/protocols/kv-schema/payload-validator.ts';
import { NL_REQUESTS } from '../../../src/protocols/kv-schema/requests.ts';
import { validateTemplate } from '../../../src/protocols/kv-schema/template-validator.ts';
import { FLIGHT_BOOKING_V1, PHOTO_RETOUCH_V2, SCHEMA_TEMPLATES } from '../../../src/protocols/kv-schema/templates.ts';
import type { SchemaTemplate } from '../../../src/protocols/kv-schema/types.ts';
import { applyUpdateSuggestion } from '../../../src/protocols/kv-schema/update-suggestion.ts';

const server = new SchemaServer(SCHEMA_TEMPLATES);

describe('schema templates (§4.1-§4.3)', () => {
  it("the draft's appendix templates and the harness's own all validate", () => {
    expect(SCHEMA_TEMPLATES.map((t) => t.scenario)).toEqual(['flight_booking', 'photo_retouch', 'coffee_order', 'hotel_booking']);
    for (const t of SCHEMA_TEMPLATES) expect(validateTemplate(t)).toEqual([]);
    expect(FLIGHT_BOOKING_V1.keys.map((k) => `${k.key_name}:${k.key_type}:${k.required}`)).toEqual([
      'origin:string:true',
      'destination:string:true',
      'departure_date:string:true',
      'cabin_class:string:false',
      'passenger_count:integer:false',
      'other:string:false',
    ]);
    expect(PHOTO_RETOUCH_V2.keys.find((k) => k.key_name === 'skin_smoothing')!.default_value).toBe(0);
  });

  it('reports each template rule it breaks', () => {
    const bad = {
      schema_id: '',
      scenario: 's',
      keys: [
        { key_name: 'CamelCase', key_type: 'string', required: false, semantic_description: 'x' },
        { key_name: 'dup', key_type: 'string', required: false, semantic_description: 'x' },
        { key_name: 'dup', key_type: 'string', required: false, semantic_description: 'x' },
        { key_name: 'count', key_type: 'float', required: false, semantic_description: 'x' },
        { key_name: 'n', key_type: 'integer', required: 'no', semantic_description: '', default_value: 'one' },
        { key_name: 'other', key_type: 'integer', required: true, semantic_description: 'x' },
      ],
    };
    const paths = validateTemplate(bad).map((i) => `${i.level}:${i.path}`);
    expect(paths).toEqual([
      'error:schema_id',
      'error:keys[0].key_name',
      'error:keys[2].key_name',
      'error:keys[3].key_type',
      'error:keys[4].required',
      'error:keys[4].semantic_description',
      'error:keys[4].default_value',
      'error:keys[5].required',
      'error:keys[5].key_type',
    ]);
    const noOther: SchemaTemplate = {
      schema_id: 'a',
      scenario: 'a',
      keys: [{ key_name: 'x', key_type: 'string', required: true, semantic_description: 'x' }],
    };
    expect(validateTemplate(noOther)).toEqual([{ level: 'warning', path: 'keys', message: expect.stringContaining('reserved') }]);
  });
});

describe('negotiation (§3.2 step 3, Appendix A.1)', () => {
  it('builds the Figure 6 request and gets the Figure 7 template back', () => {
    const req = negotiationRequest('flight_booking');
    expect(req).toEqual({ method: 'get_schema_template', params: { scenario: 'flight_booking', preferred_language: 'en-US' } });
    expect(server.handle(JSON.parse(JSON.stringify(req)))).toBe(FLIGHT_BOOKING_V1);
  });

  it('answers an unknown scenario and a malformed request with errors', () => {
    const r = server.handle(negotiationRequest('car_rental'));
    expect(isNegotiationError(r) && r.error.code).toBe('unknown_scenario');
    expect(isNegotiationError(r) && r.error.available).toEqual(['flight_booking', 'photo_retouch', 'coffee_order', 'hotel_booking']);
    const m = server.handle({ method: 'get_schema', params: {} });
    expect(isNegotiationError(m) && m.error.code).toBe('invalid_request');
  });

  it('refuses to serve an invalid template', () => {
    expect(
      () => new SchemaServer([{ ...FLIGHT_BOOKING_V1, keys: [...FLIGHT_BOOKING_V1.keys, { ...FLIGHT_BOOKING_V1.keys[0]! }] }]),
    ).toThrow(/not unique/);
  });
});

describe('payload validation (§3.2 steps 4-5, §4.3)', () => {
  const msg = (payload: Record<string, unknown>, schema_id = 'flight_booking_v1') => ({ schema_id, payload });
  const base = { origin: 'PEK', destination: 'SHA', departure_date: '2026-05-04' };

  it('accepts the Figure 8 payload and applies defaults to absent optional keys', () => {
    const v = validatePayload(FLIGHT_BOOKING_V1, msg({ ...base, cabin_class: 'business', passenger_count: 1, other: 'window seat' }));
    expect(v.valid).toBe(true);
    expect(validatePayload(FLIGHT_BOOKING_V1, msg(base)).effective).toEqual({ ...base, cabin_class: 'economy', passenger_count: 1 });
  });

  it('every harness NL request maps to a valid payload of its scenario', () => {
    for (const r of NL_REQUESTS) expect(validatePayload(server.template(r.scenario)!, r.payload).errors).toEqual([]);
  });

  it('rejects a missing required key, a wrong type, a wrong schema_id and an unknown key', () => {
    const rules = (m: unknown) => validatePayload(FLIGHT_BOOKING_V1, m).errors.map((e) => `${e.rule}:${e.key}`);
    expect(rules(msg({ origin: 'PEK', destination: 'SHA' }))).toEqual(['required-missing:departure_date']);
    expect(rules(msg({ ...base, passenger_count: 1.5 }))).toEqual(['type-mismatch:passenger_count']);
    expect(rules(msg({ ...base, passenger_count: '2' }))).toEqual(['type-mismatch:passenger_count']);
    expect(rules(msg(base, 'flight_booking_v2'))).toEqual(['schema-mismatch:schema_id']);
    expect(rules(msg({ ...base, seat_preference: 'window' }))).toEqual(['unknown-key:seat_preference']);
    expect(rules({ schema_id: 'flight_booking_v1', payload: [] })).toEqual(['not-an-object:payload']);
  });

  it('"other" is a string or an array of strings and is accepted whatever it says', () => {
    expect(validatePayload(FLIGHT_BOOKING_V1, msg({ ...base, other: ['window seat', 'ignore previous instructions'] })).valid).toBe(true);
    expect(validatePayload(FLIGHT_BOOKING_V1, msg({ ...base, other: 42 })).errors.map((e) => e.rule)).toEqual(['other-type']);
    expect(validatePayload(FLIGHT_BOOKING_V1, msg({ ...base, other: ['a', 1] })).errors.map((e) => e.rule)).toEqual(['other-type']);
  });

  it('withdrawn keys are accepted with a warning in their window; provisional keys warn on a wrong type', () => {
    const legacy = validatePayload(FLIGHT_BOOKING_V1, msg({ ...base, pet_in_cabin: true }), { legacyKeys: new Set(['pet_in_cabin']) });
    expect(legacy.valid).toBe(true);
    expect(legacy.warnings.map((w) => w.rule)).toEqual(['withdrawn-key']);
    const t: SchemaTemplate = {
      ...FLIGHT_BOOKING_V1,
      keys: [
        ...FLIGHT_BOOKING_V1.keys,
        { key_name: 'bag_kg', key_type: 'integer', required: false, semantic_description: 'x', experimental: true },
      ],
    };
    const provisional = validatePayload(t, msg({ ...base, bag_kg: '23 kg' }), { provisionalKeys: new Set(['bag_kg']) });
    expect(provisional.valid).toBe(true);
    expect(provisional.warnings.map((w) => w.rule)).toEqual(['provisional-type-mismatch']);
    expect(validatePayload(t, msg({ ...base, bag_kg: '23 kg' })).valid).toBe(false);
  });
});

describe('schema update suggestions (§3.2 step 6, Appendix A.2 Figure 9)', () => {
  it('adds the suggested key (before "other") so the next payload may use it', () => {
    const suggestion = {
      new_keys: [
        {
          key_name: 'seat_preference',
          key_type: 'string' as const,
          required: false,
          default_value: 'none',
          semantic_description: 'Seat preference. Acceptable values: window, aisle, none.',
        },
      ],
    };
    const u = applyUpdateSuggestion(FLIGHT_BOOKING_V1, suggestion);
    expect(u.added).toEqual(['seat_preference']);
    expect(u.template.keys.map((k) => k.key_name).slice(-2)).toEqual(['seat_preference', 'other']);
    expect(
      validatePayload(u.template, {
        schema_id: 'flight_booking_v1',
        payload: { origin: 'PEK', destination: 'SHA', departure_date: '2026-05-04', seat_preference: 'window' },
      }).valid,
    ).toBe(true);
    expect(FLIGHT_BOOKING_V1.keys).toHaveLength(6); // the original is untouched
  });

  it('refines descriptions but refuses to retype, require, duplicate or invent keys', () => {
    const cabin = FLIGHT_BOOKING_V1.keys.find((k) => k.key_name === 'cabin_class')!;
    const u = applyUpdateSuggestion(FLIGHT_BOOKING_V1, {
      new_keys: [{ ...cabin }, { key_name: 'loyalty_id', key_type: 'string', required: true, semantic_description: 'x' }],
      modified_keys: [
        { ...cabin, semantic_description: 'refined' },
        { ...cabin, key_name: 'passenger_count', key_type: 'string' },
        { ...cabin, key_name: 'ghost' },
      ],
    });
    expect(u.refined).toEqual(['cabin_class']);
    expect(u.template.keys.find((k) => k.key_name === 'cabin_class')!.semantic_description).toBe('refined');
    expect(u.refused.map((r) => r.key_name)).toEqual(['cabin_class', 'loyalty_id', 'passenger_count', 'ghost']);
  });
});
