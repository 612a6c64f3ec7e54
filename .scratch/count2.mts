const LONG_RUN_SOURCE = `[\\p{L}\\p{M}]{100,}|[^\\s\\p{L}\\p{M}\\p{N}]{100,}|\\s{100,}`;
const text = 'a'.repeat(10_000_000);
try { console.log(new RegExp(LONG_RUN_SOURCE, 'u').test(text)); } catch (e) { console.log('HAS_LONG_RUN', String(e)); }
try { console.log([...text.matchAll(new RegExp(LONG_RUN_SOURCE, 'gu'))].length); } catch (e) { console.log('LONG_RUN', String(e)); }
for (const n of [100_000, 1_000_000, 3_000_000]) { try { new RegExp(LONG_RUN_SOURCE, 'u').test('a'.repeat(n)); console.log(n, 'ok'); } catch (e) { console.log(n, String(e)); } }
