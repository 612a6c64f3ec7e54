import { Rng } from '../../util/rng.ts';

/** A stream of uniform draws in [0, 1). An Rng is one. */
export interface Uniforms {
  next(): number;
}

/** A standard normal from two uniforms (Box–Muller, the same formula as Rng.normal). */
export function normalFrom(u: Uniforms): number {
  const a = 1 - u.next();
  const b = u.next();
  return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * b);
}

/**
 * The uniforms of one Rng(seed, label) stream, recorded as they are first drawn, so any number
 * of readers replay exactly the sequence a fresh Rng(seed, label) would give.
 */
class UniformTape {
  private readonly values: number[] = [];
  private rng: Rng | null = null;

  constructor(
    private readonly seed: number,
    private readonly label: string,
  ) {}

  at(i: number): number {
    while (this.values.length <= i) {
      this.rng ??= new Rng(this.seed, this.label);
      this.values.push(this.rng.next());
    }
    return this.values[i]!;
  }

  reader(): Uniforms {
    return new TapeReader(this, this.values);
  }
}

/** Replays a tape from its start (a class, not a closure: one is made per task and seed). */
class TapeReader implements Uniforms {
  private i = 0;
  constructor(
    private readonly tape: UniformTape,
    private readonly values: readonly number[],
  ) {}

  next(): number {
    return this.i < this.values.length ? this.values[this.i++]! : this.tape.at(this.i++);
  }
}

/**
 * Tapes shared by many projections of the same tasks (every pipeline, every sensitivity run):
 * a memo only, so a projection gives the same result with or without it, just faster.
 */
export class DrawCache {
  private readonly tapes = new Map<string, UniformTape>();

  reader(seed: number, label: string): Uniforms {
    const key = `${seed}\u0000${label}`;
    let tape = this.tapes.get(key);
    if (!tape) this.tapes.set(key, (tape = new UniformTape(seed, label)));
    return tape.reader();
  }
}
