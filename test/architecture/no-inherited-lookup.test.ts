import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import noInheritedLookup from '../../scripts/eslint/no-inherited-lookup.js';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * The lint rule that keeps plain-object dictionaries out of lookups by untrusted text
 * (scripts/eslint/no-inherited-lookup.js, on src/ in npm run lint): what it reports and what it
 * lets through. test/robustness/hostile-words.test.ts runs the code on such words.
 */
// Each probe is its own project, with the ES library only (the repository's project would load
// all of src/): a type-aware linter keeps the file list of the program it first built, so a file
// written after that is not in it.
let n = 0;
async function reported(code: string): Promise<string[]> {
  const dir = makeTempDir(`tooltax-lint-rule-${n++}-`);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, lib: ['es2022'], types: [] }, include: ['*.ts'] }),
  );
  const file = join(dir, 'probe.ts');
  writeFileSync(file, code);
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: {
          parser: tseslint.parser,
          parserOptions: { project: join(dir, 'tsconfig.json'), tsconfigRootDir: dir },
        },
        plugins: { tooltax: { rules: { 'no-inherited-lookup': noInheritedLookup } } },
        rules: { 'tooltax/no-inherited-lookup': 'error' },
      },
    ],
  });
  const [result] = await eslint.lintFiles([file]);
  return result!.messages.map((m) => m.message.split(' on a plain object')[0]!);
}

describe('lint rule tooltax/no-inherited-lookup', () => {
  it('reports lookups, writes and `in` by an open string on a string-indexed object', async () => {
    const code = `
      const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = { pr: ['pull', 'request'] };
      export function f(w: string, row: Record<string, number>, id: \`\${string}/\${string}\`): unknown {
        if (w in row) row[w] = 1;
        return [ABBREVIATIONS[w], row[id]];
      }`;
    expect(await reported(code)).toEqual(['w in row', 'row[w]', 'ABBREVIATIONS[w]', 'row[id]']);
  });

  it('lets through Maps, known keys, arrays and lookups guarded by Object.hasOwn', async () => {
    const code = `
      type Field = 'name' | 'description';
      const WEIGHTS: Record<Field, number> = { name: 3, description: 1 };
      const MAP = new Map<string, number>();
      export function f(w: string, f: Field, xs: string[], i: number, o: Record<string, number>): unknown {
        const own = Object.hasOwn(o, w) ? o[w] : undefined;
        if (typeof w === 'string' && Object.hasOwn(o, w)) o[w] = 2;
        return [MAP.get(w), WEIGHTS[f], xs[i], o['known'], own, Object.hasOwn(o, w) && o[w]];
      }`;
    expect(await reported(code)).toEqual([]);
  });
});
