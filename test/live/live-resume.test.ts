import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { live, mergeLiveParts, type LiveCommandOptions } from '../../src/commands/live.ts';
import { JOURNAL_FILE } from '../../src/live/journal.ts';
import { checkParts, readPart } from '../../src/results/shard-part.ts';
import { liveResultFiles } from '../helpers/result-files.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { standInLiveOptions } from '../helpers/small-runs.ts';
import { byContent, keywordAgent, startScriptedLlmServer, type StandInServer } from './scripted-llm-server.ts';

/**
 * Resumable and sharded live runs, in-process against the scripted stand-in (answering by
 * content, so the same request gets the same reply whenever it is sent). The CLI killed with
 * SIGKILL and started again is test/robustness/live-resume.e2e.ts.
 */
const root = process.cwd();
const quiet = () => {};
let server: StandInServer;
let savedKey: string | undefined;

const options = (out: string, more: Partial<LiveCommandOptions> = {}): LiveCommandOptions =>
  // A price, so that what each call costs (and what a resumed run counts as spent) is not zero.
  standInLiveOptions(server.url, out, { tasks: 3, maxUsd: 10, price: [1, 2], retries: 0, ...more });

/** Runs `live` and returns its exit status and the request bodies the stand-in got meanwhile. */
async function run(o: LiveCommandOptions): Promise<{ code: number; sent: string[] }> {
  const from = server.requests.length;
  const code = await live(o, root, quiet);
  return { code, sent: server.requests.slice(from).map((r) => JSON.stringify(r.body)) };
}

/** A folder holding what a run killed after `calls` answered calls leaves: its journal up to there, and the next line torn. */
function killedAfter(whole: string, calls: number): string {
  const lines = readFileSync(join(whole, JOURNAL_FILE), 'utf8').split('\n');
  const dir = makeTempDir('tooltax-live-killed-');
  writeFileSync(join(dir, JOURNAL_FILE), `${lines.slice(0, 1 + calls).join('\n')}\n${lines[1 + calls]!.slice(0, 50)}`);
  return dir;
}

const errorOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('no error');
};

let whole: string;
let wholeSent: string[];

beforeAll(async () => {
  savedKey = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = 'sk-standin-resume';
  server = await startScriptedLlmServer(byContent(keywordAgent()));
  whole = makeTempDir('tooltax-live-whole-');
  const r = await run(options(whole));
  expect(r.code).toBe(0);
  wholeSent = r.sent;
});

afterAll(async () => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  await server.close();
});

describe('resumable live runs', () => {
  it('replays what the journal recorded (a torn last line ignored), sends only the rest, and ends with the files of a run in one go', async () => {
    expect(wholeSent.length).toBeGreaterThan(8);
    const calls = Math.floor(wholeSent.length / 2);
    const dir = killedAfter(whole, calls);
    const r = await run(options(dir));
    expect(r.code).toBe(0);
    // Not one recorded call was sent again: the stand-in got exactly the calls after them.
    expect(r.sent).toEqual(wholeSent.slice(calls));
    expect(liveResultFiles(dir)).toEqual(liveResultFiles(whole));
    // Started again once more, a finished run sends nothing and writes the same files.
    const again = await run(options(dir));
    expect(again).toEqual({ code: 0, sent: [] });
    expect(liveResultFiles(dir)).toEqual(liveResultFiles(whole));
  });

  it('counts what the recorded calls cost against --max-usd: a resumed run stops where a run in one go with that cap stops', async () => {
    const spent = (dir: string) => (JSON.parse(readFileSync(join(dir, 'live-run.json'), 'utf8')) as { spentUsd: number }).spentUsd;
    const cap = 0.8 * spent(whole);
    const capped = makeTempDir('tooltax-live-capped-');
    const inOneGo = await run(options(capped, { maxUsd: cap }));
    expect(inOneGo.code).toBe(1);
    const calls = Math.floor(inOneGo.sent.length / 2);
    expect(calls).toBeGreaterThan(1);
    const dir = killedAfter(capped, calls);
    const resumed = await run(options(dir, { maxUsd: cap }));
    expect(resumed.code).toBe(1);
    // Had the replayed calls not been counted, the resumed run would have sent more.
    expect(resumed.sent).toEqual(inOneGo.sent.slice(calls));
    expect(liveResultFiles(dir)).toEqual(liveResultFiles(capped));
    expect(spent(dir)).toBeLessThanOrEqual(cap);
    // With a higher cap, the same folder goes on from where the cap stopped it.
    const more = await run(options(dir));
    expect(more.sent).toEqual(wholeSent.slice(inOneGo.sent.length));
    expect(liveResultFiles(dir)).toEqual(liveResultFiles(whole));
  });

  it('refuses a folder holding a run with other settings in one line naming the difference, and leaves it as it was', async () => {
    const dir = makeTempDir('tooltax-live-other-');
    cpSync(whole, dir, { recursive: true });
    const before = liveResultFiles(dir);
    const cases: [Partial<LiveCommandOptions>, RegExp][] = [
      [
        { maxTokens: 128 },
        /live-journal\.jsonl: at \$\.run\.maxTokens: expected the journal of a run with this run's --max-tokens \(128\), found a run with 256: .*--fresh.*another --out/,
      ],
      [{ model: 'other-model' }, /at \$\.run\.model: .*--model \("other-model"\), found a run with "stand-in"/],
      [{ pipelines: ['b1-full-schema'] }, /at \$\.run\.pipelines: .*--pipelines/],
      [{ seed: 7 }, /at \$\.run\.(seed|tasks): /],
      [{ shard: { index: 1, count: 2 } }, /at \$\.shard: expected the journal of shard 1\/2 \(--shard\), found one of the whole run/],
      [{ dryRun: true }, /live-journal\.jsonl: at \(root\): expected a folder without a live run/],
    ];
    for (const [more, pattern] of cases) {
      const from = server.requests.length;
      const message = await errorOf(run(options(dir, more)));
      expect(message).toMatch(pattern);
      expect(message).not.toContain('\n');
      expect(server.requests.length).toBe(from);
      expect(liveResultFiles(dir)).toEqual(before);
    }
    // A damaged line (not the last one) is refused in one line too.
    const journal = join(dir, JOURNAL_FILE);
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines[2] = lines[2]!.replace(/^\{"seq":\d+/, '{"seq":"two"');
    writeFileSync(journal, lines.join('\n'));
    expect(await errorOf(run(options(dir)))).toMatch(
      /live-journal\.jsonl line 3: at \$\.seq: expected a recorded call \(must be integer\)/,
    );
  });

  it('--fresh starts over: the journal and the files its run listed go, a file of the user there stays', async () => {
    const dir = makeTempDir('tooltax-live-fresh-');
    cpSync(whole, dir, { recursive: true });
    writeFileSync(join(dir, 'requests', 'my-notes.json'), '{"mine":true}\n');
    // Files of another run, with the journal of this one: --fresh removes only what that journal and live-run.json list.
    const r = await run(options(dir, { fresh: true, pipelines: ['b1-full-schema'] }));
    expect(r.code).toBe(0);
    expect(r.sent).toEqual(wholeSent.slice(0, r.sent.length));
    expect(readFileSync(join(dir, 'requests', 'my-notes.json'), 'utf8')).toBe('{"mine":true}\n');
    const listed = (JSON.parse(readFileSync(join(dir, 'live-run.json'), 'utf8')) as { files: string[] }).files;
    expect(readdirSync(join(dir, 'requests')).sort()).toEqual(
      [...listed.filter((f) => f.startsWith('requests/')).map((f) => f.slice('requests/'.length)), 'my-notes.json'].sort(),
    );
  });
});

describe('sharded live runs', () => {
  it('live --shard 1/2 and 2/2, merged, make the folder of an unsharded run (timings masked), sending nothing more', async () => {
    const parts: string[] = [];
    const sent: string[][] = [];
    for (const index of [1, 2]) {
      const out = makeTempDir(`tooltax-live-part${index}-`);
      // Each shard's cap is its own: half the unsharded run's each.
      const r = await run(options(out, { shard: { index, count: 2 }, maxUsd: 5 }));
      expect(r.code).toBe(0);
      parts.push(out);
      sent.push(r.sent);
    }
    expect(sent.every((s) => s.length > 0)).toBe(true);
    expect([...sent[0]!, ...sent[1]!].sort()).toEqual([...wholeSent].sort());
    const read = parts.map((p) => readPart(p));
    checkParts(read);
    const merged = join(makeTempDir('tooltax-live-merged-'), 'live');
    const from = server.requests.length;
    expect(await mergeLiveParts(read, merged, root, quiet)).toBe(0);
    expect(server.requests.length).toBe(from);
    const want = liveResultFiles(whole);
    const got = liveResultFiles(merged);
    expect([...got.keys()]).toEqual([...want.keys()]);
    for (const [file, text] of want) expect(got.get(file), file).toBe(text);
    // Parts whose shard.json settings were edited alike (shard.json lists the files, not itself) are checked like any input.
    const edited = parts.map((p) => {
      const copy = makeTempDir('tooltax-live-edited-');
      cpSync(p, copy, { recursive: true });
      const file = join(copy, 'shard.json');
      const part = JSON.parse(readFileSync(file, 'utf8')) as { run: { settings: Record<string, unknown> } };
      part.run.settings.tasks = 'all of them';
      writeFileSync(file, JSON.stringify(part));
      return readPart(copy);
    });
    checkParts(edited);
    expect(await errorOf(mergeLiveParts(edited, join(merged, '..', 'edited'), root, quiet))).toMatch(
      /shard\.json: at \$\.run\.settings\.tasks: expected a live run's settings \(must be object\)/,
    );
    // A shard the cap stopped is a part, but not one to merge: one line says so.
    const stoppedPart = makeTempDir('tooltax-live-stopped-');
    expect((await run(options(stoppedPart, { shard: { index: 2, count: 2 }, maxUsd: 0.001 }))).code).toBe(1);
    const withStopped = [read[0]!, readPart(stoppedPart)];
    checkParts(withStopped);
    const message = await errorOf(mergeLiveParts(withStopped, join(merged, '..', 'again'), root, quiet));
    expect(message).toMatch(
      /live-run\.json: at \$\.stopped: expected a shard that ran to the end \(null\), found "budget cap: .*run that shard again/,
    );
    expect(message).not.toContain('\n');
  });
});
