import { tokenize } from '../src/embed/tfidf.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { loadRealSuite, loadLiveMcpBenchSuite } from '../src/tasks/bundled-suites.ts';
import { readFileSync, readdirSync } from 'node:fs';
import { toolFields } from '../src/retrieval/tool-fields.ts';
const texts: string[] = [];
const add = (c: any) => { for (const t of c.tools) { texts.push(...Object.values(toolFields(t)) as string[], t.summary, JSON.stringify(t.definition)); } };
add(loadCatalog('catalogs/synthetic-120'));
const real = loadRealSuite(process.cwd())!; add(real.catalog); texts.push(...real.tasks.flatMap((t: any) => t.turns.map((u: any) => u.user)));
const lmb = loadLiveMcpBenchSuite(process.cwd())!; add(lmb.catalog); texts.push(...lmb.tasks.flatMap((t: any) => t.turns.map((u: any) => u.user)));
add(loadCatalog(readdirSync('catalogs/real/extra').filter(f=>f.endsWith('.json')).map(f=>'catalogs/real/extra/'+f)));
for (const f of ['tasks/tasks.jsonl', 'tasks/calibration.jsonl']) try { for (const l of readFileSync(f, 'utf8').split('\n')) if (l) texts.push(...JSON.parse(l).turns.map((u: any) => u.user)); } catch {}
let max = 0, word = '';
for (const text of texts) for (const w of text.match(/[\p{L}\p{N}]+/gu) ?? []) for (const t of tokenize(w)) if (t.length > max) { max = t.length; word = t; }
console.log(texts.length, 'texts; longest word token', max, word.slice(0, 80));
