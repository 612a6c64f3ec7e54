import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vegaEmbedScript } from '../../src/report/vega-bundle.ts';
import { makeTempDir } from '../helpers/temp.ts';

describe('the vega bundle of the report page', () => {
  it('is built once and kept on disk under a key of the package versions and build options', () => {
    const dir = makeTempDir('tooltax-vega-');
    const script = vegaEmbedScript(dir);
    expect(script).toContain('globalThis.vegaEmbed');
    expect(script).toMatch(/tooltax report charts: vega \d+\.\d+\.\d+/);
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^vega-embed-[0-9a-f]{16}\.js$/)]);
    expect(readFileSync(join(dir, files[0]!), 'utf8')).toBe(script);
  });
});
