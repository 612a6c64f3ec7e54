import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULTS_FORMAT_VERSION } from '../../src/results/format.ts';
import { MANIFEST_FILE } from '../../src/results/manifest.ts';
import { readManifest, readTables } from '../../src/results/read.ts';
import { InputError } from '../../src/util/input-error.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { FIXTURE_RUN_INFO, FIXTURE_TABLES, writeFixtureResults } from '../report/fixture.ts';
import { cliInProcess, expectOneLine } from '../helpers/cli-in-process.ts';

/** Results files carry their format version and are checked against a JSON Schema as they are read. */
const edit = (file: string, change: (json: Record<string, unknown>) => void) => {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(json);
  writeFileSync(file, JSON.stringify(json));
};

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  return 'accepted';
}

describe('results format', () => {
  it('is written into run.json and every table, and read back as written', () => {
    const dir = writeFixtureResults();
    expect(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')).formatVersion).toBe(RESULTS_FORMAT_VERSION);
    expect(JSON.parse(readFileSync(join(dir, 'tables', 'table3-measured.json'), 'utf8')).formatVersion).toBe(RESULTS_FORMAT_VERSION);
    const { files: _, ...manifest } = readManifest(dir)!;
    expect(manifest).toEqual(FIXTURE_RUN_INFO);
    expect(readTables(dir)).toEqual(FIXTURE_TABLES);
  });

  it('names another version, or none, in one line', () => {
    const dir = writeFixtureResults();
    edit(join(dir, MANIFEST_FILE), (m) => (m.formatVersion = 2));
    expect(refusal(() => readManifest(dir))).toMatch(
      /run\.json: at \$\.formatVersion: expected results format 1 \(what this tooltax reads\), found format 2: written by another tooltax/,
    );
    edit(join(dir, MANIFEST_FILE), (m) => delete m.formatVersion);
    expect(refusal(() => readManifest(dir))).toMatch(/found none: written by an older tooltax; run the bench again with this one$/);
  });

  it('names the file and the JSON path of a field that does not match the schema', () => {
    const dir = writeFixtureResults();
    const table = join(dir, 'tables', 'table3-measured.json');
    edit(table, (t) => ((t.columns as { kind: string }[])[1]!.kind = 'guessed'));
    expect(refusal(() => readTables(dir))).toMatch(
      /table3-measured\.json: at \$\.columns\[1\]\.kind: expected a table JSON written by the bench, found a value that must be equal to one of the allowed values/,
    );
    edit(table, (t) => ((t.columns as { kind: string }[])[1]!.kind = 'measured'));
    edit(table, (t) => ((t.rows as Record<string, unknown>[])[0]!.toolTokens = { n: 1 }));
    expect(refusal(() => readTables(dir))).toMatch(/at \$\.rows\[0\]\.toolTokens: .*found a value that must be string,number,null/);
    edit(join(dir, MANIFEST_FILE), (m) => delete m.pipelines);
    expect(refusal(() => readManifest(dir))).toMatch(
      /run\.json: at \$: expected the run manifest written by the bench, found no "pipelines"/,
    );
  });

  it('`report` on results of another version says so in one line', async () => {
    const dir = writeFixtureResults();
    edit(join(dir, MANIFEST_FILE), (m) => (m.formatVersion = 0));
    const r = await cliInProcess(['report', '--results', dir, '--reports', join(makeTempDir('tooltax-format-'), 'reports')]);
    expectOneLine(r, /run\.json: at \$\.formatVersion: expected results format 1 .*found format 0/);
  });
});
