import type { CatalogTool } from '../../catalog/types.ts';
import { findingFor, type LintRule } from '../types.ts';

/** Cosine similarity of name and description words at or above which two tools read as one. */
const NEAR_DUPLICATE_SIMILARITY = 0.8;

/** Lower-case words of the name (split at `_-./` and camelCase) and the description. */
function words(t: CatalogTool): string[] {
  const name = t.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  const text = `${name} ${name} ${t.definition.description ?? ''}`;
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

function vector(ws: string[]): Map<string, number> {
  const v = new Map<string, number>();
  for (const w of ws) v.set(w, (v.get(w) ?? 0) + 1);
  return v;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  for (const [w, x] of a) dot += x * (b.get(w) ?? 0);
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((s, x) => s + x * x, 0));
  return dot === 0 ? 0 : dot / (norm(a) * norm(b));
}

/**
 * Tools of different servers whose name and description say nearly the same thing: the
 * confusion the retrieval study measures (a retriever or the model picks the other server's
 * copy). Word vectors with the name counted twice; cosine ≥ NEAR_DUPLICATE_SIMILARITY.
 */
export const nearDuplicate: LintRule = {
  id: 'near-duplicate',
  severity: 'warning',
  summary: `tools of different servers whose names and descriptions are near-identical (word cosine ≥ ${NEAR_DUPLICATE_SIMILARITY})`,
  check({ catalog, host }) {
    const vs = catalog.tools.map((t) => vector(words(t)));
    const out = [];
    for (let i = 0; i < catalog.tools.length; i++) {
      for (let j = i + 1; j < catalog.tools.length; j++) {
        const a = catalog.tools[i]!;
        const b = catalog.tools[j]!;
        if (a.server === b.server) continue;
        const sim = cosine(vs[i]!, vs[j]!);
        if (sim < NEAR_DUPLICATE_SIMILARITY) continue;
        out.push(
          findingFor(this, b, {
            problem: `reads like ${a.id} (similarity ${sim.toFixed(2)}): a model or retriever may pick either`,
            fix: `keep one of the two (turn the other server’s copy off), or say in each description when to use it rather than ${a.id}`,
            recoverable: host.toolTokens(b.definition),
          }),
        );
      }
    }
    return out;
  },
};
