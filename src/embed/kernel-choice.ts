import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toStableJson, writeFileAtomic } from '../util/files.ts';
import { readJsonFileIfValid, type JsonFileFormat } from '../util/json-file.ts';
import { CACHE_DIR_ENV } from './cache.ts';

/**
 * Which kernels use-lite's matrix products run on is decided by timing them on the machine at
 * hand: the widest instruction set is not always the fastest (a kernel tiled for one register
 * file spills on another), so no kernel is assumed to win. The result is kept per machine (CPU
 * model, its flags, the addon's build), so later runs do not time again.
 */

/** One way the products can run: `install` routes them and returns what undoes it. */
export interface KernelCandidate {
  name: string;
  install(): () => void;
}

export interface KernelTiming {
  name: string;
  /** Texts of the calibration batch per CPU-second of the thread that ran them, best round. */
  textsPerSecond: number;
}

export interface KernelChoice {
  kernel: string;
  /** measured: timed now; cached: timed by an earlier run on this machine; forced: a setting named it; only: nothing else runs here. */
  how: 'measured' | 'cached' | 'forced' | 'only';
  /** Why, in a few words, when no timing decided (the setting, or why the addon is missing). */
  reason?: string;
  /** Fastest first. */
  timings: KernelTiming[];
}

/**
 * Times each candidate on `runBatch` (which embeds `texts` texts) by `clock` (seconds: the
 * thread's CPU time, so other processes' load does not count) and returns them fastest first.
 * One untimed run warms the model up; then rounds are interleaved, so what load remains hits
 * every candidate alike, and each candidate keeps its best round.
 */
export async function timeKernels(
  candidates: readonly KernelCandidate[],
  runBatch: () => Promise<unknown>,
  texts: number,
  clock: () => number,
  rounds = 2,
): Promise<KernelTiming[]> {
  const best = new Map(candidates.map((c) => [c.name, Infinity]));
  await runBatch();
  for (let round = 0; round < rounds; round++)
    for (const candidate of candidates) {
      const restore = candidate.install();
      try {
        const started = clock();
        await runBatch();
        best.set(candidate.name, Math.min(best.get(candidate.name)!, clock() - started));
      } finally {
        restore();
      }
    }
  return candidates
    .map((c) => ({ name: c.name, textsPerSecond: texts / Math.max(best.get(c.name)!, 1e-9) }))
    .sort((a, b) => b.textsPerSecond - a.textsPerSecond || a.name.localeCompare(b.name));
}

/** The CPU's feature flags (from /proc/cpuinfo), or undefined where the system does not list them. */
export function cpuFlags(): string[] | undefined {
  if (!existsSync('/proc/cpuinfo')) return undefined;
  return (/^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '').trim().split(/\s+/);
}

/** The CPU and build a timing holds for: CPU model, its flags, the kernels the addon offers and the addon's bytes. */
export function machineKey(kernels: readonly string[], addonFile: string | undefined): string {
  const flags = cpuFlags()?.join(' ') ?? '';
  const addon = addonFile && existsSync(addonFile) ? sha(readFileSync(addonFile)) : 'none';
  return [
    process.arch,
    cpus()[0]?.model ?? 'unknown CPU',
    `flags ${sha(flags.trim())}`,
    `kernels ${kernels.join(',')}`,
    `addon ${addon}`,
  ].join('; ');
}

const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex').slice(0, 16);

const CHOICE_FILE = 'kernel-choice.json';

/**
 * Where timings are kept: $TOOLTAX_CACHE_DIR (the embedding cache root) when set, else this
 * package's own `.cache`: a timing belongs to the machine and the build, not to a project.
 */
export function kernelChoiceDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[CACHE_DIR_ENV] || join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.cache');
}

interface ChoiceFile {
  version: 1;
  /** One entry per machine key (a cache folder may be shared between machines). */
  machines: { machine: string; kernel: string; timings: KernelTiming[] }[];
}

/** The choice timed earlier for this machine in `dir`, if any (a damaged file counts as none). */
export function cachedChoice(dir: string, key: string): KernelChoice | undefined {
  const saved = readChoiceFile(dir).machines.find((m) => m.machine === key);
  return saved ? { kernel: saved.kernel, how: 'cached', timings: saved.timings } : undefined;
}

/** Keeps a measured choice for this machine beside the other machines' (a shared cache folder). */
export function saveChoice(dir: string, key: string, choice: KernelChoice): void {
  const file = readChoiceFile(dir);
  file.machines = [...file.machines.filter((m) => m.machine !== key), { machine: key, kernel: choice.kernel, timings: choice.timings }];
  try {
    writeFileAtomic(join(dir, CHOICE_FILE), toStableJson(file));
  } catch {
    // A read-only install: the next run times again, which costs about a second.
  }
}

const CHOICE_FORMAT: JsonFileFormat<ChoiceFile> = {
  what: 'the encoder kernel timings (kernel-choice.json)',
  version: { field: 'version', value: 1 },
  schema: {
    type: 'object',
    required: ['version', 'machines'],
    additionalProperties: false,
    properties: {
      version: { type: 'integer', const: 1 },
      machines: {
        type: 'array',
        items: {
          type: 'object',
          required: ['machine', 'kernel', 'timings'],
          additionalProperties: false,
          properties: {
            machine: { type: 'string' },
            kernel: { type: 'string' },
            timings: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'textsPerSecond'],
                additionalProperties: false,
                properties: { name: { type: 'string' }, textsPerSecond: { type: 'number' } },
              },
            },
          },
        },
      },
    },
  },
};

/** The kept timings; a missing or damaged file counts as none (the next load times again). */
function readChoiceFile(dir: string): ChoiceFile {
  return readJsonFileIfValid(join(dir, CHOICE_FILE), CHOICE_FORMAT) ?? { version: 1, machines: [] };
}

/** One line: the kernel that runs, and why. */
export function describeChoice(choice: KernelChoice): string {
  const label = (name: string) => (name === WASM_KERNEL ? "tfjs's wasm kernels" : `native/sgemm ${name}`);
  const rates = choice.timings.map((t) => `${t.name} ${t.textsPerSecond.toFixed(1)}`).join(', ');
  switch (choice.how) {
    case 'measured':
    case 'cached':
      return `${label(choice.kernel)}, the fastest timed on this CPU (texts per CPU-second on the calibration batch: ${rates})`;
    case 'forced':
      return `${label(choice.kernel)} (${choice.reason}; not timed)`;
    case 'only':
      return `${label(choice.kernel)} (${choice.reason})`;
  }
}

/** The name of tfjs's own wasm kernels among the candidates. */
export const WASM_KERNEL = 'wasm';
