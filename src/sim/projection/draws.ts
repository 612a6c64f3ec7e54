import { Rng, type RngPosition } from '../../util/rng.ts';

/** A stream of uniform draws in [0, 1). An Rng is one. */
export interface Uniforms {
  next(): number;
}

/** The next `count` draws of a stream at once, in order. */
export function takeUniforms(u: Uniforms, count: number): Float64Array {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = u.next();
  return out;
}

/** A standard normal from two uniforms drawn in this order (Box–Muller, the same formula as Rng.normal). */
export function normalOf(first: number, second: number): number {
  const a = 1 - first;
  return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * second);
}

/**
 * The uniforms of one Rng(seed, label) stream, recorded as they are first drawn, so any number
 * of readers replay exactly the sequence a fresh Rng(seed, label) would give.
 */
class UniformTape {
  private values = new Float64Array(0);
  /** Where the stream stands after `values`: the tape keeps this, not a generator (thousands of tapes live for the whole run). */
  private position: RngPosition | undefined;

  constructor(
    private readonly seed: number,
    private readonly label: string,
  ) {}

  /** The tape from its start, at least `count` long (recorded on first use; read-only). */
  atLeast(count: number): Float64Array {
    if (count > this.values.length) {
      // Draw ahead to twice the length (at least 64), so a tape resumes its generator a few times, not once per task.
      const grown = new Float64Array(Math.max(count, this.values.length * 2, 64));
      grown.set(this.values);
      const rng = new Rng(this.seed, this.label, this.position);
      for (let i = this.values.length; i < grown.length; i++) grown[i] = rng.next();
      this.values = grown;
      this.position = rng.position();
    }
    return this.values;
  }
}

/**
 * Tapes shared by many projections of the same tasks (every pipeline, every sensitivity run):
 * a memo only, so a projection gives the same result with or without it, just faster.
 */
export class DrawCache {
  // By label, then seed: no key string is built per lookup (a caller that keeps its label strings pays their hash once).
  private readonly tapes = new Map<string, Map<number, UniformTape>>();

  /**
   * The first draws of Rng(seed, label), at least `count` of them: the recorded tape itself,
   * which may be longer (read-only; no copy or view is made per call).
   */
  uniforms(seed: number, label: string, count: number): Float64Array {
    let bySeed = this.tapes.get(label);
    if (!bySeed) this.tapes.set(label, (bySeed = new Map()));
    let tape = bySeed.get(seed);
    if (!tape) bySeed.set(seed, (tape = new UniformTape(seed, label)));
    return tape.atLeast(count);
  }
}
