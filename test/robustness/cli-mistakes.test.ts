import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/run.ts';
import { UnknownIdError } from '../../src/util/ids.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { cliInProcess, expectOneLine } from '../helpers/cli-in-process.ts';

/**
 * Mistakes on the command line, run in-process through the same program src/cli.ts runs: each
 * is refused with one line and exit 2, before any work, and alike in every command.
 */
const FIXTURE = 'test/fixtures/small-catalog';
const LIVE = ['live', '--provider', 'openai', '--model', 'gpt-4o-mini', '--dry-run'];
/** Commander's line for a refused option value, the same for every option of every command. */
const REFUSED = /^error: option '--[a-z-]+ <[a-z]+>' argument '[^']*' is invalid\. .* \(add --help for usage\)$/;

describe('options that take ids refuse unknown and repeated ids, listing the valid ones', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'a typo in --pipelines',
      ['bench', '--pipelines', 'b1-full-schma'],
      /unknown pipeline "b1-full-schma" \(did you mean b1-full-schema\?\); expected comma-separated pipeline ids among b1-full-schema, b2-static-pruning, .*adol-combined/,
    ],
    [
      'a pipeline that is not registered (default command)',
      ['--pipelines', 'b1-full-schema,first-n'],
      /unknown pipeline "first-n"; expected/,
    ],
    ['a repeated pipeline', ['bench', '--pipelines', 'b1-full-schema,b1-full-schema'], /pipeline "b1-full-schema" given twice/],
    ['an empty pipeline id', ['bench', '--pipelines', 'b1-full-schema,'], /an empty pipeline id; expected comma-separated/],
    [
      'an unknown study',
      ['bench', '--studies', 'scalin'],
      /unknown study "scalin" \(did you mean scaling\?\); expected .*projection, .*kv-schema/,
    ],
    [
      'an unknown retriever (bench)',
      ['bench', '--retriever', 'lerned'],
      /unknown retriever "lerned" \(did you mean learned\?\); expected one of bm25, .*learned\+hybrid, .*dense:<encoder or model directory>/,
    ],
    ['a repeated retriever (retrieval)', ['retrieval', '--retriever', 'bm25,bm25'], /retriever "bm25" given twice/],
    ['an unknown query mode', ['retrieval', '--query', 'rolled'], /unknown query mode "rolled"; expected one of message, rolling/],
    [
      'an unknown tokenizer (catalog)',
      ['catalog', '--tokenizer', 'gpt2'],
      /unknown tokenizer "gpt2"; expected one of cl100k_base, o200k_base/,
    ],
    [
      'an unknown tokenizer (budget)',
      ['budget', '--tokenizer', 'gpt2'],
      /unknown tokenizer "gpt2"; expected one of cl100k_base, o200k_base/,
    ],
    ['an unknown tokenizer (bench)', ['bench', '--tokenizer', 'gpt2'], /unknown tokenizer "gpt2"; expected one of cl100k_base, o200k_base/],
    ['an unknown tokenizer (live)', [...LIVE, '--tokenizer', 'gpt2'], /unknown tokenizer "gpt2"; expected one of cl100k_base, o200k_base/],
    ['an unknown encoder (bench)', ['bench', '--encoder', 'bert'], /unknown encoder "bert"; expected one of use-lite, minilm, tfidf/],
    ['an unknown encoder (live)', [...LIVE, '--encoder', 'bert'], /unknown encoder "bert"; expected one of use-lite, minilm, tfidf/],
    ['an unknown provider', ['live', '--provider', 'azure', '--model', 'm'], /unknown provider "azure"; expected one of openai, anthropic/],
    [
      'a typo in live --pipelines',
      [...LIVE, '--pipelines', 'b1-full-schma'],
      /unknown pipeline "b1-full-schma" \(did you mean b1-full-schema\?\)/,
    ],
    ['a repeated seed', ['bench', '--seeds', '43,43'], /seed 43 given twice/],
  ];
  it.each(cases)('%s', async (_, args, pattern) => {
    const r = await cliInProcess(args);
    expectOneLine(r, pattern);
    expect(r.stderr.trim()).toMatch(REFUSED);
    expect(r.log).toEqual([]);
  });
});

describe('an output folder that is a file, or cannot be created, is refused before any work', () => {
  const dir = makeTempDir('tooltax-cli-outputs-');
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');

  const cases: [string, string[], RegExp][] = [
    ['bench --reports', ['bench', '--reports', file], /'--reports <dir>' .*expected a folder to write into, found a file/],
    ['bench --out below a file', ['bench', '--out', join(file, 'sub')], /'--out <dir>' .*found a file on the way to it \(.*a-file\)/],
    ['catalog --out', ['catalog', '--out', file], /'--out <dir>' .*found a file/],
    ['report --reports', ['report', '--reports', file], /'--reports <dir>' .*found a file/],
    ['live --out', [...LIVE, '--out', file], /'--out <dir>' .*found a file/],
  ];
  it.each(cases)('%s', async (_, args, pattern) => {
    const r = await cliInProcess(args);
    expectOneLine(r, pattern);
    expect(r.stderr.trim()).toMatch(REFUSED);
  });

  it.skipIf(process.getuid?.() === 0)('a folder this user cannot write into', async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    expectOneLine(await cliInProcess(['bench', '--reports', join(locked, 'reports')]), /cannot write into on the way to it/);
    chmodSync(locked, 0o755);
  });

  it('writes nothing: a run refused for its --reports leaves no results folder', async () => {
    const out = join(dir, 'results');
    expectOneLine(await cliInProcess(['bench', '--quick', '--catalog', FIXTURE, '--out', out, '--reports', file]), /found a file/);
    expect(existsSync(out)).toBe(false);
  });

  it('a default reports folder below a file: refused after reading the catalog, before anything is written', async () => {
    const root = makeTempDir('tooltax-cli-root-');
    writeFileSync(join(root, 'reports'), 'not a folder');
    // --force: a partial run writes the default folders only when asked (else results/partial/).
    const r = await cliInProcess(['bench', '--quick', '--force', '--catalog', join(process.cwd(), FIXTURE)], root);
    expectOneLine(r, /reports[/\\]small-catalog: at \(root\): expected a folder --reports can write into, found a file on the way to it/);
    expect(existsSync(join(root, 'results'))).toBe(false);
  });
});

describe('runBench checks the ids it is given in code too', () => {
  it('an unknown study stops the run before anything is written', async () => {
    const root = makeTempDir('tooltax-bench-ids-');
    const run = runBench({
      root,
      seed: 42,
      seeds: [42],
      catalog: [FIXTURE],
      tokenizer: 'cl100k_base',
      quick: true,
      studies: ['nope'],
      log: () => {},
    });
    await expect(run).rejects.toThrow(UnknownIdError);
    await expect(run).rejects.toThrow(/^studies: unknown study "nope"; expected comma-separated study ids among projection, /);
    expect(existsSync(join(root, 'results'))).toBe(false);
  });
});
