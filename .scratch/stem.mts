import porter2Stem from 'wink-porter2-stemmer';
import { analyze } from '../src/retrieval/tokenize.ts';
const t0 = performance.now(); porter2Stem('x'.repeat(32_000)); console.log('porter2 32k', ((performance.now() - t0) / 1000).toFixed(2));
try { console.log('match 10M', ('a'.repeat(10_000_000).match(/[\p{L}\p{N}]+/gu) ?? []).length); } catch (e) { console.log(String(e)); }
try { const t = performance.now(); console.log('analyze 10M letters', analyze('abcdefgh'.repeat(1_250_000)).length, ((performance.now() - t) / 1000).toFixed(2)); } catch (e) { console.log('analyze', String(e)); }
