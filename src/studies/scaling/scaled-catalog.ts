import { calibrateServer, commonCalibrationFactor } from '../../catalog/calibrate.ts';
import { authoredTool, generateCatalog } from '../../catalog/generate.ts';
import type { ServerSpec } from '../../catalog/spec.ts';
import { toolId, type Catalog, type CatalogTool } from '../../catalog/types.ts';
import type { TokenizerName } from '../../tokens/counter.ts';
import { Rng } from '../../util/rng.ts';

/**
 * Catalogs of any size N from the same calibrated generator as the 120-tool testbed.
 *
 * N >= 120: the 120-tool catalog itself (instance 1 of every server, ids `github/...`), then
 * further instances of the six authored servers in the published-table order: `github-2`,
 * `filesystem-2`, `database-2`, `slack-2`, `web-2`, `jira-2`, `github-3`, ... Each instance
 * keeps its spec's tool names, summaries, tags, preconditions (auth scopes included: a second
 * GitHub org reached with the same credentials) and sample responses, gets its own server id,
 * and is calibrated by `calibrateServer` to the same per-server target as the testbed, with a
 * calibration stream of its own (`calibrate:github-2`): every instance hits its published
 * mean; where calibration draws server-wide notes the descriptions differ between instances,
 * elsewhere (a tool padded with its own notes only) they are identical (at N = 1,000, 271
 * distinct definitions; retrievers that embed definitions see ties between such copies). The
 * last instance is partial when N is not a multiple of the instance sizes: a seeded sample of
 * that calibrated instance's tools, kept in spec order.
 *
 * N < 120: a subset of the 120-tool catalog: every tool in `required` (the tools the study's
 * conversations use) plus a seeded sample of the others, in catalog order. Definitions are
 * the calibrated testbed definitions unchanged.
 *
 * Instance calibrations are memoised per (spec, instance, seed, tokenizer), so a sweep over
 * N pays for each instance once.
 */

export interface ScaledCatalog {
  catalog: Catalog;
  /** Server instances in the catalog and how many tools each contributes. */
  instances: { server: string; spec: string; instance: number; tools: number; full: boolean; targetMean: number }[];
  method: 'subset' | 'replicate';
}

function instanceServerId(spec: ServerSpec, instance: number): string {
  return instance === 1 ? spec.server : `${spec.server}-${instance}`;
}

/** One calibrated instance of a server spec, as catalog tools. */
function serverInstance(
  made: InstanceCache,
  spec: ServerSpec,
  instance: number,
  factor: number,
  seed: number,
  tokenizer: TokenizerName,
): CatalogTool[] {
  const server = instanceServerId(spec, instance);
  const key = `${server}|${factor}|${seed}|${tokenizer}`;
  const known = made.get(key);
  if (known) return known;
  const calibrated = calibrateServer({ ...spec, server }, spec.targetTokensPerTool * factor, seed, tokenizer);
  const tools = spec.tools.map((t, i) => authoredTool(server, t, calibrated.definitions[i]!));
  made.set(key, tools);
  return tools;
}

/** The testbed's own catalog (instance 1 of every server), as generateCatalog builds it. */
function baseCatalog(made: InstanceCache, specs: readonly ServerSpec[], seed: number, tokenizer: TokenizerName): Catalog {
  const key = `base|${specs.map((s) => s.server).join(',')}|${seed}|${tokenizer}`;
  let tools = made.get(key);
  if (!tools) {
    tools = generateCatalog(specs, seed, tokenizer).catalog.tools;
    made.set(key, tools);
  }
  return { name: '', source: '', servers: specs.map((s) => s.server), tools };
}

/** Calibrated server instances (and the testbed's tools) by server, factor, seed and tokenizer. */
export type InstanceCache = Map<string, CatalogTool[]>;

export interface ScaledCatalogOptions {
  seed: number;
  /** Tool ids a sub-catalog (N below the testbed size) must keep. */
  required?: readonly string[];
  /** Calibration tokenizer (the published targets are cl100k_base). */
  tokenizer?: TokenizerName;
  /**
   * The testbed catalog already generated from `specs` with this seed (the bench's own);
   * generated here when absent. Must hold exactly the specs' tools.
   */
  base?: Catalog;
  /**
   * The instances made so far: a caller that builds several sizes (the scaling study, once per
   * run) passes one map to all of them so each server instance is calibrated once; absent, this
   * call makes its own. The tools in it are shared: treat them as read-only.
   */
  made?: InstanceCache;
}

/** True when `catalog` holds exactly the tools the specs generate (the synthetic testbed), in any order. */
export function isTestbedOf(catalog: Catalog, specs: readonly ServerSpec[]): boolean {
  const ids = new Set(specs.flatMap((s) => s.tools.map((t) => toolId(s.server, t.name))));
  return catalog.tools.length === ids.size && catalog.tools.every((t) => ids.has(t.id));
}

export function scaledCatalog(specs: readonly ServerSpec[], n: number, opts: ScaledCatalogOptions): ScaledCatalog {
  const tokenizer = opts.tokenizer ?? 'cl100k_base';
  const factor = commonCalibrationFactor(specs);
  if (opts.base && !isTestbedOf(opts.base, specs)) throw new Error('scaled catalog: the base catalog is not the testbed of these specs');
  const made = opts.made ?? new Map<string, CatalogTool[]>();
  const base = opts.base ?? baseCatalog(made, specs, opts.seed, tokenizer);
  const baseSize = base.tools.length;
  if (!Number.isInteger(n) || n < 1) throw new Error(`scaled catalog: N must be a positive integer, got ${n}`);
  const name = `synthetic-scaled-${n}`;
  const source = `tooltax scaled generator (${specs.length} authored servers), seed ${opts.seed}, N=${n}`;

  if (n <= baseSize) {
    const required = new Set(opts.required ?? []);
    for (const id of required)
      if (!base.tools.some((t) => t.id === id))
        throw new Error(`scaled catalog: required tool ${id} is not in the ${baseSize}-tool testbed`);
    if (required.size > n) throw new Error(`scaled catalog: ${required.size} required tools do not fit in N=${n}`);
    const rest = new Rng(opts.seed, `scaling:subset:${n}`).shuffle(base.tools.filter((t) => !required.has(t.id)).map((t) => t.id));
    const keep = new Set([...required, ...rest.slice(0, n - required.size)]);
    const tools = base.tools.filter((t) => keep.has(t.id));
    const servers = specs.map((s) => s.server).filter((s) => tools.some((t) => t.server === s));
    return {
      catalog: { name, source, servers, tools },
      instances: servers.map((s) => {
        const spec = specs.find((x) => x.server === s)!;
        const count = tools.filter((t) => t.server === s).length;
        return {
          server: s,
          spec: s,
          instance: 1,
          tools: count,
          full: count === spec.tools.length,
          targetMean: spec.targetTokensPerTool * factor,
        };
      }),
      method: 'subset',
    };
  }

  const tools = [...base.tools];
  const instances: ScaledCatalog['instances'] = specs.map((s) => ({
    server: s.server,
    spec: s.server,
    instance: 1,
    tools: s.tools.length,
    full: true,
    targetMean: s.targetTokensPerTool * factor,
  }));
  for (let instance = 2; tools.length < n; instance++) {
    for (const spec of specs) {
      if (tools.length >= n) break;
      const all = serverInstance(made, spec, instance, factor, opts.seed, tokenizer);
      const room = n - tools.length;
      let part = all;
      if (all.length > room) {
        const keep = new Set(new Rng(opts.seed, `scaling:partial:${all[0]!.server}`).shuffle(all.map((t) => t.id)).slice(0, room));
        part = all.filter((t) => keep.has(t.id));
      }
      tools.push(...part);
      instances.push({
        server: all[0]!.server,
        spec: spec.server,
        instance,
        tools: part.length,
        full: part.length === all.length,
        targetMean: spec.targetTokensPerTool * factor,
      });
    }
  }
  return { catalog: { name, source, servers: instances.map((i) => i.server), tools }, instances, method: 'replicate' };
}
