import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from '../../src/live/journal.ts';
import { liveResultFiles } from '../helpers/result-files.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { byContent, keywordAgent, startScriptedLlmServer, type StandInServer } from '../live/scripted-llm-server.ts';
import { cli, expectOneLineError } from './cli-helpers.ts';

/**
 * `live` through the CLI against the scripted stand-in (answering by content): a run killed with
 * SIGKILL part-way and started again with the same arguments, a run split into two shards and
 * merged, and a folder of another run refused (`npm run test:e2e`; the same in-process,
 * with a journal cut short by hand, is test/live/live-resume.test.ts).
 */
const RUN_BOUND_MS = 90_000;
const KEY = 'sk-e2e-resume-not-a-secret';
const env = { ...process.env, OPENAI_API_KEY: KEY };

let server: StandInServer;
/** The request at which the stand-in kills `victim` (SIGKILL) instead of answering it. */
let killAt = -1;
let victim: ChildProcess | undefined;
/** The bodies of the requests the stand-in answered, in order. */
const answered: string[] = [];

const liveArgs = (out: string, ...more: string[]) => [
  'live',
  '--provider',
  'openai',
  '--model',
  'stand-in',
  '--price',
  '1,2',
  '--base-url',
  server.url,
  '--tasks',
  '3',
  '--pipelines',
  'b1-full-schema,b4-cli-lazy',
  '--encoder',
  'tfidf',
  '--retries',
  '0',
  '--max-usd',
  '10',
  '--out',
  out,
  ...more,
];

/** Runs the CLI and returns what the stand-in answered meanwhile. */
async function answeredDuring(args: string[]): Promise<{ code: number; stdout: string; stderr: string; answered: string[] }> {
  const from = answered.length;
  const r = await cli(args, RUN_BOUND_MS, env);
  return { ...r, answered: answered.slice(from) };
}

beforeAll(async () => {
  const agent = byContent(keywordAgent());
  server = await startScriptedLlmServer((r) => {
    if (r.index === killAt) {
      victim!.kill('SIGKILL');
      // Never answered: the process that sent it is gone.
      return { kind: 'delay', ms: RUN_BOUND_MS, then: agent(r) };
    }
    answered.push(JSON.stringify(r.body));
    return agent(r);
  });
});
afterAll(() => server.close());

describe('live through the CLI: killed and resumed, sharded and merged', () => {
  const dir = makeTempDir('tooltax-e2e-live-resume-');
  let whole: { answered: string[] };

  it(
    'a run killed with SIGKILL after N answered requests resumes: no answered request is sent again, and the files equal a run in one go',
    async () => {
      const first = await answeredDuring(liveArgs(join(dir, 'whole')));
      expect(first.code, first.stderr).toBe(0);
      whole = first;
      const n = Math.floor(first.answered.length / 2);
      expect(n).toBeGreaterThan(2);

      const out = join(dir, 'killed');
      const from = answered.length;
      killAt = server.requests.length + n;
      victim = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...liveArgs(out)], { env, stdio: 'ignore' });
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => victim!.on('exit', (_code, s) => resolve(s)));
      expect(signal).toBe('SIGKILL');
      const beforeKill = answered.slice(from);
      expect(beforeKill).toEqual(first.answered.slice(0, n));
      // Every answered call was in the journal before the next request went out; the run left no live-run.json.
      const journal = readFileSync(join(out, JOURNAL_FILE), 'utf8').trim().split('\n');
      expect(journal).toHaveLength(1 + n);
      expect(existsSync(join(out, 'live-run.json'))).toBe(false);

      const again = await answeredDuring(liveArgs(out));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`${n} calls replayed from the journal, ${first.answered.length - n} sent`));
      // The request the kill left unanswered is sent again; none that was answered is.
      expect(again.answered).toEqual(first.answered.slice(n));
      expect(JSON.stringify(server.requests[killAt]!.body)).toBe(first.answered[n]);
      expect(liveResultFiles(out)).toEqual(liveResultFiles(join(dir, 'whole')));
    },
    RUN_BOUND_MS * 4,
  );

  it(
    'live --shard 1/2 and 2/2 merged with `merge` equal the unsharded run; merge sends nothing',
    async () => {
      const parts = [1, 2].map((i) => join(dir, `part${i}`));
      const sent: string[] = [];
      for (const [i, part] of parts.entries()) {
        const r = await answeredDuring(liveArgs(part, '--shard', `${i + 1}/2`, '--max-usd', '5'));
        expect(r.code, r.stderr).toBe(0);
        expect(r.answered.length).toBeGreaterThan(0);
        sent.push(...r.answered);
      }
      expect(sent.sort()).toEqual([...whole.answered].sort());
      const merged = await answeredDuring(['merge', ...parts, '--out', join(dir, 'merged')]);
      expect(merged.code, merged.stderr).toBe(0);
      expect(merged.answered).toEqual([]);
      expect(liveResultFiles(join(dir, 'merged'))).toEqual(liveResultFiles(join(dir, 'whole')));
    },
    RUN_BOUND_MS * 4,
  );

  it('a folder holding a run with other settings is refused in one line naming the option (exit 2)', async () => {
    const r = await answeredDuring(liveArgs(join(dir, 'whole'), '--max-steps', '3'));
    expectOneLineError(
      r,
      /live-journal\.jsonl: at \$\.run\.maxSteps: expected the journal of a run with this run's --max-steps \(3\), found a run with 8: .*--fresh/,
    );
    expect(r.answered).toEqual([]);
  });
});
