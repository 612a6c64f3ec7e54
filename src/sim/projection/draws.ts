import { Rng, type RngPosition } from '../../util/rng.ts';

/** A stream of uniform draws in [0, 1). An Rng is one. */
export interface Uniforms {
  next(): number;
}

/**
 * The next `count` draws of a stream at once, in order: from a shared tape without copying,
 * else drawn one by one. A simulated task reads its draws from one array: a draw returned by a
 * call is a boxed number when the call is not inlined, and a projection run makes ~80 million.
 */
export function takeUniforms(u: Uniforms, count: number): Float64Array {
  if (u instanceof TapeReader) return u.take(count);
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

  /** Draws [start, end), recorded on first use; a view of the tape (read-only). */
  range(start: number, end: number): Float64Array {
    if (end > this.values.length) {
      // Draw ahead to twice the length (at least 64), so a tape resumes its generator a few times, not once per turn.
      const grown = new Float64Array(Math.max(end, this.values.length * 2, 64));
      grown.set(this.values);
      const rng = new Rng(this.seed, this.label, this.position);
      for (let i = this.values.length; i < grown.length; i++) grown[i] = rng.next();
      this.values = grown;
      this.position = rng.position();
    }
    return this.values.subarray(start, end);
  }

  reader(): Uniforms {
    return new TapeReader(this);
  }
}

/** Replays a tape from its start (a class, not a closure: one is made per task and seed). */
class TapeReader implements Uniforms {
  private i = 0;
  constructor(private readonly tape: UniformTape) {}

  next(): number {
    return this.take(1)[0]!;
  }

  take(count: number): Float64Array {
    const view = this.tape.range(this.i, this.i + count);
    this.i += count;
    return view;
  }
}

/**
 * Tapes shared by many projections of the same tasks (every pipeline, every sensitivity run):
 * a memo only, so a projection gives the same result with or without it, just faster.
 */
export class DrawCache {
  // By label, then seed: no key string is built per lookup (a caller that keeps its label strings pays their hash once).
  private readonly tapes = new Map<string, Map<number, UniformTape>>();

  reader(seed: number, label: string): Uniforms {
    let bySeed = this.tapes.get(label);
    if (!bySeed) this.tapes.set(label, (bySeed = new Map()));
    let tape = bySeed.get(seed);
    if (!tape) bySeed.set(seed, (tape = new UniformTape(seed, label)));
    return tape.reader();
  }
}
