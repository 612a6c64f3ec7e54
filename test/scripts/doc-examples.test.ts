import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ciProblems,
  commandProblems,
  docFiles,
  inlineCommands,
  markerProblems,
  shellBlocks,
  splitComment,
  type CliHelp,
} from '../../scripts/doc-examples.ts';

const FENCE = '```';
const doc = [
  '# Title',
  '',
  `${FENCE}sh example needs=chromium`,
  'npm run bench -- budget --catalog <dumps> --max-tool-tokens <N>   # usage: checked, not run',
  'npm run bench -- catalog --from-server "node a.js # not a comment" \\',
  '                         --out /tmp/x   # exits 1: a comment after a continuation',
  '',
  '# a comment line',
  `${FENCE}`,
  `${FENCE}sh`,
  'npm test',
  `${FENCE}`,
  `${FENCE}text`,
  '$ npm run bench -- --nope',
  `${FENCE}`,
  'Run `npm run bench -- --quick` or `npx tsx scripts/missing.ts`.',
].join('\n');

describe('the commands the docs show (scripts/doc-examples.ts)', () => {
  it('reads each shell block: marker, needs, commands with continuations, comments, expected status, usage forms', () => {
    const [example, unmarked, ...none] = shellBlocks('x.md', doc);
    expect(none).toEqual([]);
    expect(example).toMatchObject({ line: 3, marker: 'example', needs: ['chromium'] });
    expect(example!.commands).toEqual([
      {
        file: 'x.md',
        line: 4,
        text: 'npm run bench -- budget --catalog <dumps> --max-tool-tokens <N>',
        usage: true,
        expectedExit: 0,
      },
      {
        file: 'x.md',
        line: 5,
        text: 'npm run bench -- catalog --from-server "node a.js # not a comment" --out /tmp/x',
        usage: false,
        expectedExit: 1,
      },
    ]);
    expect(unmarked).toMatchObject({ line: 10, marker: undefined });
    expect(markerProblems([example!, unmarked!])).toEqual([
      'x.md:10: a shell block needs a marker: ```sh example (the doc check runs it), ```sh ci (.ci/run runs it) or ```sh usage (checked, not run)',
    ]);
    expect(inlineCommands('x.md', doc).map((c) => c.text)).toEqual(['npm run bench -- --quick', 'npx tsx scripts/missing.ts']);
    expect(splitComment("echo 'a # b' # c")).toEqual({ code: "echo 'a # b'", comment: 'c' });
    const [usage] = shellBlocks('u.md', `${FENCE}sh usage\nnpm run bench -- --shard 1/3\n${FENCE}\n`);
    expect(usage!.commands.map((c) => [c.text, c.usage])).toEqual([['npm run bench -- --shard 1/3', true]]);
  });

  it('finds each line of a ci block among the steps of .ci/run, extra arguments and env words allowed', () => {
    const blocks = shellBlocks('r.md', `${FENCE}sh ci\nnpm ci && npm test\nnpm run bench\nnpm run lint\n${FENCE}\n`);
    const ci = 'set -e\nSGEMM_BUILD_STRICT=1 npm ci\nnpm test   # tests\nnpm run bench -- --quick --out /tmp/r\n# npm run lint\n';
    expect(ciProblems(blocks, ci)).toEqual(['r.md:4: `npm run lint` is in a ```sh ci block but .ci/run has no step that runs it']);
  });

  it('names the script, file, command or option that does not exist', () => {
    const repo = { scripts: { bench: 'x', report: 'y' }, exists: (p: string) => p === 'scripts/there.ts' };
    const cli: CliHelp = {
      commands: new Map([
        ['bench', 'Options:\n  --quick  small run\n  --catalog <paths>  dumps'],
        ['report', 'Options:\n  --results <dir>\n  --reports <dir>'],
      ]),
      defaultCommand: 'bench',
    };
    const problems = (text: string) =>
      commandProblems({ file: 'x.md', line: 1, text, usage: false, expectedExit: 0 }, repo, cli).map((p) =>
        p.replace(/^x\.md:1: `[^`]*`: /, ''),
      );
    expect(problems('npm run bench -- --quick --catalog=a')).toEqual([]);
    expect(problems('npm run bench -- --quik')).toEqual(['"bench" has no option --quik (npm run bench -- bench --help)']);
    expect(problems('npm run bench -- --quick-ish')).toEqual(['"bench" has no option --quick-ish (npm run bench -- bench --help)']);
    expect(problems('npm run report -- --results <dir> --reports <dir>')).toEqual([]);
    expect(problems('npm run bench -- lint')).toEqual(['the CLI has no command "lint" (npm run bench -- --help lists bench, report)']);
    expect(problems('npm run bench -- <command> --help')).toEqual([]);
    expect(problems('npm run perf')).toEqual(['package.json has no script "perf"']);
    expect(problems('npx tsx scripts/there.ts && npx tsx scripts/gone.ts')).toEqual(['no file scripts/gone.ts']);
    expect(problems('npx -y some-server && export A=<key>')).toEqual([]);
  });

  it('passes on the real docs: every shell block marked, every ci line a step of .ci/run, every script and file there', () => {
    const files = docFiles('.');
    expect(files).toContain('README.md');
    expect(files).toContain('docs/reports.md');
    const blocks = files.flatMap((f) => shellBlocks(f, readFileSync(f, 'utf8')));
    expect(blocks.filter((b) => b.marker === 'example').length).toBeGreaterThan(3);
    expect(markerProblems(blocks)).toEqual([]);
    expect(ciProblems(blocks, readFileSync('.ci/run', 'utf8'))).toEqual([]);
    const repo = {
      scripts: (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts,
      exists: existsSync,
    };
    const commands = [...blocks.flatMap((b) => b.commands), ...files.flatMap((f) => inlineCommands(f, readFileSync(f, 'utf8')))];
    expect(commands.flatMap((c) => commandProblems(c, repo))).toEqual([]);
  });
});
