import type { ShardSpec } from '../results/shard-part.ts';

/**
 * Which part of a run one process takes: `--shard i/n` (1-based, as Playwright and vitest
 * spell it). A batch scheduler's array index can stand for i: `--shard env/n` reads it from
 * the first of these variables that is set, so one command line serves every array task.
 * (The type lives with the part folder it names, in src/results: results never import commands.)
 */
export type { ShardSpec };

/** The most shards a run is split into (a run has a few dozen units). */
const MAX_SHARDS = 64;

/**
 * Where `--shard env/n` finds its index, in order: ours (1-based), Slurm's array task id
 * (relative to SLURM_ARRAY_TASK_MIN, so `--array=0-2` and `--array=1-3` both work), and a
 * Kubernetes Indexed Job's completion index (0-based).
 */
const SHARD_INDEX_ENV = 'TOOLTAX_SHARD_INDEX';

/** `i/n` or `env/n`: one-line error (thrown) when it is neither, or i is outside 1..n. */
export function parseShard(value: string, env: NodeJS.ProcessEnv = process.env): ShardSpec {
  const m = /^\s*(env|\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!m) throw new Error(`expected i/n (e.g. 2/3) or env/n, got ${JSON.stringify(value.slice(0, 40))}`);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new Error(`expected a shard count from 1 to ${MAX_SHARDS}, got ${count}`);
  const index = m[1] === 'env' ? indexFromEnvironment(env) : Number(m[1]);
  if (!Number.isInteger(index) || index < 1 || index > count) throw new Error(`expected a shard index from 1 to ${count}, got ${index}`);
  return { index, count };
}

function indexFromEnvironment(env: NodeJS.ProcessEnv): number {
  const whole = (name: string): number | undefined => {
    const raw = Object.hasOwn(env, name) ? env[name] : undefined;
    if (raw === undefined || raw === '') return undefined;
    if (!/^\d{1,6}$/.test(raw)) throw new Error(`${name}: expected a whole number, got ${JSON.stringify(raw.slice(0, 40))}`);
    return Number(raw);
  };
  const ours = whole(SHARD_INDEX_ENV);
  if (ours !== undefined) return ours;
  const slurm = whole('SLURM_ARRAY_TASK_ID');
  if (slurm !== undefined) return slurm - (whole('SLURM_ARRAY_TASK_MIN') ?? 0) + 1;
  const k8s = whole('JOB_COMPLETION_INDEX');
  if (k8s !== undefined) return k8s + 1;
  throw new Error(`--shard env/n: none of ${SHARD_INDEX_ENV}, SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX is set`);
}
