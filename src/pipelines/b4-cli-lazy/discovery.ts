import type { CatalogTool } from '../../catalog/types.ts';
import { PROJECTION_PARAMS, valuesOf, type ProjectionParams } from '../../sim/projection/params.ts';
import { rightPickProbability } from '../../sim/selection.ts';
import type { Rng } from '../../util/rng.ts';

/**
 * How the simulated model decides which `--help` to run after reading `--list`.
 *
 * - `policy` (Table 3's B4): for each needed tool whose help is not yet in context, the model
 *   picks a line of the list; it is the right one with the selection model's probability among
 *   the list's other lines (src/sim/selection.ts, CLI-line weight). A wrong pick runs `--help`
 *   on a confusable tool (one of the same server's other tools, uniformly: siblings such as
 *   list_issues / search_issues are the likely confusions — an assumption), whose output stays
 *   in context like any other. After a wrong help the model takes a second look with
 *   probability `discovery.secondLook`, up to `discovery.maxHelpAttempts` helps per tool; a tool
 *   it never finds stays visible by its list line only (the projection then treats it as a
 *   call without its options, or a give-up).
 * - `oracle` (the ablation "B4, oracle discovery"): `--help` for exactly the needed tools.
 */
export type DiscoveryMode = 'policy' | 'oracle';

export interface HelpPlan {
  /** Tool ids to run `--help` on, in order. */
  helps: string[];
  /** Whether the needed tool's own help was among them. */
  found: boolean;
}

export function planHelps(
  needed: CatalogTool,
  catalog: readonly CatalogTool[],
  /** Tools whose help is already in context or must not be picked as a confusion (the turn's other needs). */
  exclude: ReadonlySet<string>,
  rng: Rng,
  mode: DiscoveryMode,
  params: ProjectionParams = PROJECTION_PARAMS,
): HelpPlan {
  if (mode === 'oracle') return { helps: [needed.id], found: true };
  const v = valuesOf(params);
  const pRight = rightPickProbability({ schemas: 0, summaries: 0, cliLines: catalog.length - 1 }, v);
  const helps: string[] = [];
  const maxAttempts = Math.max(1, Math.round(v['discovery.maxHelpAttempts']));
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const uPick = rng.next();
    const uWhich = rng.next();
    const uAgain = rng.next();
    if (uPick < pRight) return { helps: [...helps, needed.id], found: true };
    const wrong = confusable(needed, catalog, new Set([...exclude, ...helps]));
    if (wrong) helps.push(wrong[Math.floor(uWhich * wrong.length)]!.id);
    if (uAgain >= v['discovery.secondLook']) break;
  }
  return { helps, found: false };
}

/** Tools the model may take for `needed`: the same server's others, else any other tool. */
function confusable(needed: CatalogTool, catalog: readonly CatalogTool[], exclude: ReadonlySet<string>): CatalogTool[] | null {
  const open = catalog.filter((t) => t.id !== needed.id && !exclude.has(t.id));
  const siblings = open.filter((t) => t.server === needed.server);
  const pool = siblings.length ? siblings : open;
  return pool.length ? pool : null;
}
