import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseShard } from '../../src/commands/shard-spec.ts';

/**
 * The Slurm and Kubernetes examples of docs/sharding.md, as written: the shard each array task
 * or pod takes, with the environment its scheduler sets (by hand here), must cover every shard
 * once and write each part to its own folder; the merge command must name those folders.
 */
const doc = readFileSync('docs/sharding.md', 'utf8');
const blocks = (lang: string) => [...doc.matchAll(new RegExp('```' + lang + '(?: [^\\n]*)?\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** The shard and out folder of `npm run bench -- --shard <s> --out <o>` in `text`, with $VARS from env. */
function shardCommand(text: string, env: Record<string, string>) {
  const m = /npm run bench -- --shard (\S+) --out "?([^"\s']+)"?/.exec(text);
  if (!m) throw new Error(`no shard command in: ${text}`);
  const out = m[2]!.replace(/\$(\w+)/g, (_, v: string) => env[v] ?? '');
  return { shard: parseShard(m[1]!, env), out };
}
const mergeFolders = (text: string) => /npm run bench -- merge ((?:parts\/\S+ )+)--out/.exec(text)![1]!.trim().split(' ');

describe('docs/sharding.md examples', () => {
  it('Slurm: the array tasks 1-3 take shards 1/3, 2/3, 3/3 into the folders the merge reads', () => {
    const script = blocks('sh').find((b) => b.includes('#SBATCH --array'))!;
    const [min, max] = /--array=(\d+)-(\d+)/.exec(script)!.slice(1).map(Number) as [number, number];
    const runs = [];
    for (let id = min; id <= max; id++)
      runs.push(shardCommand(script, { SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: String(min) }));
    expect(runs.map((r) => `${r.shard.index}/${r.shard.count}`)).toEqual(['1/3', '2/3', '3/3']);
    const submit = blocks('sh').find((b) => b.includes('sbatch --dependency'))!;
    expect(mergeFolders(submit)).toEqual(runs.map((r) => r.out));
  });

  it('Kubernetes: an Indexed Job of n completions takes shards 1..n into the folders the merge reads', () => {
    const job = parse(blocks('yaml').find((b) => b.includes('completionMode'))!) as {
      spec: { completions: number; completionMode: string; template: { spec: { containers: { command: string[] }[] } } };
    };
    expect(job.spec.completionMode).toBe('Indexed');
    const command = job.spec.template.spec.containers[0]!.command.join(' ');
    const runs = Array.from({ length: job.spec.completions }, (_, i) => shardCommand(command, { JOB_COMPLETION_INDEX: String(i) }));
    expect(runs.map((r) => r.shard.index)).toEqual([1, 2, 3]);
    expect(runs.every((r) => r.shard.count === job.spec.completions)).toBe(true);
    expect(mergeFolders(doc.slice(doc.indexOf('kubectl wait')))).toEqual(runs.map((r) => r.out));
  });

  it('refuses a shard index outside 1..n, a bad form, or env/n with no scheduler variable, in one line', () => {
    expect(() => parseShard('4/3')).toThrow('expected a shard index from 1 to 3, got 4');
    expect(() => parseShard('0/3')).toThrow(/from 1 to 3, got 0/);
    expect(() => parseShard('2of3')).toThrow(/expected i\/n/);
    expect(() => parseShard('1/0')).toThrow(/shard count from 1/);
    expect(() => parseShard('env/3', {})).toThrow(/none of TOOLTAX_SHARD_INDEX/);
    expect(() => parseShard('env/3', { SLURM_ARRAY_TASK_ID: 'x' })).toThrow(/SLURM_ARRAY_TASK_ID: expected a whole number/);
    expect(parseShard('env/3', { TOOLTAX_SHARD_INDEX: '2', JOB_COMPLETION_INDEX: '0' })).toEqual({ index: 2, count: 3 });
  });
});
