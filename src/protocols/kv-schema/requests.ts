import type { StructuredPayload } from './types.ts';

/**
 * Natural-language requests a client agent would forward to a server agent without the
 * protocol, each paired with the structured payload it maps to under the negotiated schema.
 * Written for this harness (the draft's §5 utterances are the first of flight and photo).
 */

export interface NlRequest {
  scenario: string;
  text: string;
  payload: StructuredPayload;
}

const flight = (payload: Record<string, unknown>) => ({ schema_id: 'flight_booking_v1', payload });
const photo = (payload: Record<string, unknown>) => ({ schema_id: 'photo_retouch_v2', payload });
const coffee = (payload: Record<string, unknown>) => ({ schema_id: 'coffee_order_v1', payload });
const hotel = (payload: Record<string, unknown>) => ({ schema_id: 'hotel_booking_v1', payload });

export const NL_REQUESTS: readonly NlRequest[] = [
  {
    scenario: 'flight_booking',
    text: 'Book me a flight from Beijing to Shanghai next Monday, business class, and I prefer a window seat.',
    payload: flight({
      origin: 'PEK',
      destination: 'SHA',
      departure_date: '2026-05-04',
      cabin_class: 'business',
      passenger_count: 1,
      other: 'window seat',
    }),
  },
  {
    scenario: 'flight_booking',
    text: 'Hi, my user needs two economy seats from London Heathrow to New York JFK on 14 June 2026 for herself and her husband. Any time of day is fine, but they would like to sit together if possible.',
    payload: flight({
      origin: 'LHR',
      destination: 'JFK',
      departure_date: '2026-06-14',
      cabin_class: 'economy',
      passenger_count: 2,
      other: 'seats together',
    }),
  },
  {
    scenario: 'flight_booking',
    text: 'Please find a premium economy ticket for one adult flying Frankfurt to Singapore on the 3rd of July 2026.',
    payload: flight({ origin: 'FRA', destination: 'SIN', departure_date: '2026-07-03', cabin_class: 'premium_economy' }),
  },
  {
    scenario: 'flight_booking',
    text: 'The user wants to fly from Paris to Rome on 22 May 2026 with three colleagues, four travellers in total, economy is fine, and one of them uses a wheelchair so they will need assistance at the gate.',
    payload: flight({
      origin: 'CDG',
      destination: 'FCO',
      departure_date: '2026-05-22',
      passenger_count: 4,
      other: 'wheelchair assistance at the gate for one passenger',
    }),
  },
  {
    scenario: 'photo_retouch',
    text: 'Please retouch this photo: smooth the skin, whiten teeth, make the background blurry, and add a vintage filter. Also, I want my eyes to look bigger.',
    payload: photo({
      skin_smoothing: 7,
      teeth_whitening: true,
      background_blur: true,
      filter_style: 'vintage',
      eye_enlargement: false,
      other: 'increase eye size proportionally',
    }),
  },
  {
    scenario: 'photo_retouch',
    text: 'Could you give this portrait a warm, cinematic look? Just a light touch on the skin please, nothing that looks fake.',
    payload: photo({ skin_smoothing: 3, filter_style: 'cinematic', other: 'warm tone' }),
  },
  {
    scenario: 'photo_retouch',
    text: "Blur everything behind the people in this group shot and whiten everyone's teeth a little, but leave the colours exactly as they are.",
    payload: photo({ background_blur: true, teeth_whitening: true, filter_style: 'none' }),
  },
  {
    scenario: 'photo_retouch',
    text: 'For this headshot I need the skin smoothed quite strongly, a cool filter, and please remove the small scratch on the left side of the image.',
    payload: photo({ skin_smoothing: 8, filter_style: 'cool', other: 'remove scratch on left side' }),
  },
  {
    scenario: 'coffee_order',
    text: 'Help me order a large iced latte with oat milk for pickup at the King Street store.',
    payload: coffee({ drink: 'latte', size: 'large', temperature: 'iced', milk: 'oat', pickup_store: 'king_street' }),
  },
  {
    scenario: 'coffee_order',
    text: 'I would like two medium cappuccinos, one of them with an extra shot, to collect from the station branch in about ten minutes.',
    payload: coffee({
      drink: 'cappuccino',
      size: 'medium',
      quantity: 2,
      pickup_store: 'station',
      other: 'extra shot in one of the two; collect in about ten minutes',
    }),
  },
  {
    scenario: 'coffee_order',
    text: 'Can you get me a small flat white with skimmed milk from the King Street shop, and make it extra hot please?',
    payload: coffee({ drink: 'flat_white', size: 'small', milk: 'skimmed', pickup_store: 'king_street', other: 'extra hot' }),
  },
  {
    scenario: 'coffee_order',
    text: 'A double-shot americano, no milk, large, for pickup at the airport store.',
    payload: coffee({ drink: 'americano', size: 'large', milk: 'none', extra_shots: 1, pickup_store: 'airport' }),
  },
  {
    scenario: 'hotel_booking',
    text: 'Find a double room in Lisbon for my wife and me from 12 June 2026 for three nights, breakfast included, ideally under 150 euros a night.',
    payload: hotel({
      city: 'Lisbon',
      check_in: '2026-06-12',
      nights: 3,
      guests: 2,
      room_type: 'double',
      breakfast: true,
      max_price_per_night: 150,
    }),
  },
  {
    scenario: 'hotel_booking',
    text: 'The user needs a single room in Berlin for one night on 2 September 2026 close to the conference centre, and a quiet room away from the lift if possible.',
    payload: hotel({
      city: 'Berlin',
      check_in: '2026-09-02',
      nights: 1,
      room_type: 'single',
      other: ['close to the conference centre', 'quiet room away from lift'],
    }),
  },
  {
    scenario: 'hotel_booking',
    text: 'Please book a twin room in Vienna for two colleagues, arriving 20 October 2026 and staying five nights, with a budget of 120 euros per night.',
    payload: hotel({ city: 'Vienna', check_in: '2026-10-20', nights: 5, guests: 2, room_type: 'twin', max_price_per_night: 120 }),
  },
  {
    scenario: 'hotel_booking',
    text: 'We want a suite in Barcelona for a family of four from 1 August 2026 for a week, with breakfast, and a cot for the baby.',
    payload: hotel({
      city: 'Barcelona',
      check_in: '2026-08-01',
      nights: 7,
      guests: 4,
      room_type: 'suite',
      breakfast: true,
      other: 'baby cot',
    }),
  },
];
