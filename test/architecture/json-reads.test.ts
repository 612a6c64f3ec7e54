import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every JSON file the harness writes and reads back goes through one validated reader
 * (src/util/json-file.ts; run.json and the tables through src/results/format.ts), never
 * `JSON.parse(readFileSync(…)) as T`. The files listed here are read with a cast on purpose.
 */
const CAST_ON_PURPOSE: Record<string, string> = {
  'src/util/provenance.ts': "our own package.json's version",
  'src/report/vega-bundle.ts': "an installed package's package.json (name, version, licence)",
  'src/mcp/capture.ts': "an installed package's package.json (name, version)",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const CAST_READ = /JSON\.parse\(\s*readFileSync\([^;]*?\)\s*\)\s*as\s/s;

describe('JSON files read back', () => {
  it('are read through the validated reader, not with a cast', () => {
    const files = sourceFiles('src');
    expect(files.length).toBeGreaterThan(100);
    const casting = files.filter((f) => CAST_READ.test(readFileSync(f, 'utf8'))).map((f) => f.split('\\').join('/'));
    expect(casting.filter((f) => !Object.hasOwn(CAST_ON_PURPOSE, f))).toEqual([]);
    // The list shrinks with the code: an entry whose file no longer casts is removed.
    expect(Object.keys(CAST_ON_PURPOSE).filter((f) => !casting.includes(f))).toEqual([]);
  });
});
