/**
 * Copies the findings block the last bench wrote (reports/findings.md) into README.md between
 * its findings markers. Run after `npm run bench` when the findings changed; a test fails while
 * the README's block differs from reports/findings.md.
 *
 *   npx tsx scripts/sync-readme-findings.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const readmeFile = join(ROOT, 'README.md');
const readme = readFileSync(readmeFile, 'utf8');
const block = readFileSync(join(ROOT, 'reports', 'findings.md'), 'utf8').replace(/^## Findings\n\n/, '');
const markers = /(<!-- findings:begin[^>]*-->\n)[\s\S]*?(<!-- findings:end -->)/;
if (!markers.test(readme)) {
  console.error('sync-readme-findings: README.md: expected the <!-- findings:begin … --> and <!-- findings:end --> markers, found none');
  process.exit(2);
}
const next = readme.replace(markers, (_, begin: string, end: string) => `${begin}${block.trimEnd()}\n${end}`);
if (next !== readme) writeFileSync(readmeFile, next);
console.log(next === readme ? 'README.md: findings already current' : 'README.md: findings updated from reports/findings.md');
