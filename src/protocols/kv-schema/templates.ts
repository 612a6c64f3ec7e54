import type { SchemaTemplate } from './types.ts';

/**
 * Schema templates. flight_booking_v1 and photo_retouch_v2 are the draft's Appendix A.1
 * (Figure 7) and A.3 (Figure 10) verbatim; coffee_order_v1 (the draft's §3.2 "large iced
 * latte") and hotel_booking_v1 are this harness's, written in the same style.
 */

export const FLIGHT_BOOKING_V1: SchemaTemplate = {
  schema_id: 'flight_booking_v1',
  scenario: 'flight_booking',
  keys: [
    {
      key_name: 'origin',
      key_type: 'string',
      required: true,
      semantic_description:
        "Departure city or airport code. Acceptable values: IATA airport codes (e.g., PEK, SHA, JFK) or city names. Example: 'from Beijing' -> 'PEK'.",
    },
    {
      key_name: 'destination',
      key_type: 'string',
      required: true,
      semantic_description: "Arrival city or airport code. Example: 'to Shanghai' -> 'SHA'.",
    },
    {
      key_name: 'departure_date',
      key_type: 'string',
      required: true,
      semantic_description: "Departure date in ISO 8601 format (YYYY-MM-DD). Example: 'next Monday' -> '2026-05-04'.",
    },
    {
      key_name: 'cabin_class',
      key_type: 'string',
      required: false,
      default_value: 'economy',
      semantic_description:
        "Cabin class. Acceptable values: economy, premium_economy, business, first. Example: 'business class' -> 'business'.",
    },
    {
      key_name: 'passenger_count',
      key_type: 'integer',
      required: false,
      default_value: 1,
      semantic_description: "Number of passengers. Range: 1-9. Example: 'two people' -> 2.",
    },
    {
      key_name: 'other',
      key_type: 'string',
      required: false,
      semantic_description:
        "Natural-language descriptions that cannot be mapped to existing keys. Example: 'window seat' -> 'window seat'.",
    },
  ],
};

export const PHOTO_RETOUCH_V2: SchemaTemplate = {
  schema_id: 'photo_retouch_v2',
  scenario: 'photo_retouch',
  keys: [
    {
      key_name: 'skin_smoothing',
      key_type: 'integer',
      required: false,
      default_value: 0,
      semantic_description: "Skin smoothing intensity. Range: 0-10, where 0 means off. Example: 'light skin smoothing' -> 3.",
    },
    {
      key_name: 'teeth_whitening',
      key_type: 'boolean',
      required: false,
      default_value: false,
      semantic_description: "Whether teeth whitening is enabled. Example: 'make the teeth whiter' -> true.",
    },
    {
      key_name: 'background_blur',
      key_type: 'boolean',
      required: false,
      default_value: false,
      semantic_description: "Whether background blur is enabled. Example: 'blur the background' -> true.",
    },
    {
      key_name: 'filter_style',
      key_type: 'string',
      required: false,
      default_value: 'none',
      semantic_description: "Filter style. Acceptable values: none, vintage, cinematic, warm, cool. Example: 'vintage style' -> 'vintage'.",
    },
    {
      key_name: 'eye_enlargement',
      key_type: 'boolean',
      required: false,
      default_value: false,
      semantic_description:
        'Whether eye enlargement is enabled. Note: this key is a boolean switch; use other for fine-grained adjustment requests.',
    },
    {
      key_name: 'other',
      key_type: 'string',
      required: false,
      semantic_description:
        "Photo-editing requirements that cannot be mapped to existing keys. Example: 'make the eyes a little bigger' -> 'increase eye size proportionally'.",
    },
  ],
};

const COFFEE_ORDER_V1: SchemaTemplate = {
  schema_id: 'coffee_order_v1',
  scenario: 'coffee_order',
  keys: [
    {
      key_name: 'drink',
      key_type: 'string',
      required: true,
      semantic_description:
        "Drink name. Acceptable values: espresso, americano, latte, cappuccino, flat_white, mocha, tea. Example: 'a latte' -> 'latte'.",
    },
    {
      key_name: 'size',
      key_type: 'string',
      required: false,
      default_value: 'medium',
      semantic_description: "Cup size. Acceptable values: small, medium, large. Example: 'a large one' -> 'large'.",
    },
    {
      key_name: 'temperature',
      key_type: 'string',
      required: false,
      default_value: 'hot',
      semantic_description: "Served hot or iced. Acceptable values: hot, iced. Example: 'iced latte' -> 'iced'.",
    },
    {
      key_name: 'milk',
      key_type: 'string',
      required: false,
      default_value: 'whole',
      semantic_description: "Milk type. Acceptable values: whole, skimmed, oat, soy, almond, none. Example: 'with oat milk' -> 'oat'.",
    },
    {
      key_name: 'extra_shots',
      key_type: 'integer',
      required: false,
      default_value: 0,
      semantic_description: "Additional espresso shots. Range: 0-4. Example: 'make it a double' -> 1.",
    },
    {
      key_name: 'quantity',
      key_type: 'integer',
      required: false,
      default_value: 1,
      semantic_description: "Number of identical drinks. Range: 1-10. Example: 'two of those' -> 2.",
    },
    {
      key_name: 'pickup_store',
      key_type: 'string',
      required: true,
      semantic_description: "Store identifier for collection. Example: 'the one on King Street' -> 'king_street'.",
    },
    {
      key_name: 'other',
      key_type: 'string',
      required: false,
      semantic_description: "Order details that cannot be mapped to existing keys. Example: 'extra hot please' -> 'extra hot'.",
    },
  ],
};

const HOTEL_BOOKING_V1: SchemaTemplate = {
  schema_id: 'hotel_booking_v1',
  scenario: 'hotel_booking',
  keys: [
    { key_name: 'city', key_type: 'string', required: true, semantic_description: "City of the stay. Example: 'in Lisbon' -> 'Lisbon'." },
    {
      key_name: 'check_in',
      key_type: 'string',
      required: true,
      semantic_description: "Arrival date in ISO 8601 format (YYYY-MM-DD). Example: 'from the 12th of June' -> '2026-06-12'.",
    },
    {
      key_name: 'nights',
      key_type: 'integer',
      required: true,
      semantic_description: "Number of nights. Range: 1-30. Example: 'for a long weekend' -> 3.",
    },
    {
      key_name: 'guests',
      key_type: 'integer',
      required: false,
      default_value: 1,
      semantic_description: "Number of guests. Range: 1-8. Example: 'for my wife and me' -> 2.",
    },
    {
      key_name: 'room_type',
      key_type: 'string',
      required: false,
      default_value: 'double',
      semantic_description: "Room type. Acceptable values: single, double, twin, suite. Example: 'two separate beds' -> 'twin'.",
    },
    {
      key_name: 'max_price_per_night',
      key_type: 'number',
      required: false,
      semantic_description: "Upper price limit per night in EUR. Example: 'under 150 a night' -> 150.",
    },
    {
      key_name: 'breakfast',
      key_type: 'boolean',
      required: false,
      default_value: false,
      semantic_description: "Whether breakfast is included. Example: 'with breakfast' -> true.",
    },
    {
      key_name: 'other',
      key_type: 'string',
      required: false,
      semantic_description:
        "Stay requirements that cannot be mapped to existing keys. Example: 'quiet room away from the lift' -> 'quiet room away from lift'.",
    },
  ],
};

export const SCHEMA_TEMPLATES: readonly SchemaTemplate[] = [FLIGHT_BOOKING_V1, PHOTO_RETOUCH_V2, COFFEE_ORDER_V1, HOTEL_BOOKING_V1];
