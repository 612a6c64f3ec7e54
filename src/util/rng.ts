import seedrandom from 'seedrandom';

/** An ARC4 stream position (see Rng.position). */
export interface RngPosition {
  readonly i: number;
  readonly j: number;
  readonly S: Uint8Array;
}

/** Seed used everywhere unless the user passes --seed. */
export const DEFAULT_SEED = 42;

/**
 * The one source of randomness in tooltax. Every random choice goes through an Rng built
 * from a seed and a label, so independent streams (catalog, tasks, projection...) never
 * shift each other when one of them draws more numbers.
 */
export class Rng {
  private readonly prng: seedrandom.StatefulPRNG<seedrandom.State.Arc4>;

  constructor(seed: number | string, label = '', from?: RngPosition) {
    // With a position: the generator continues where position() left it (the seed is not used).
    this.prng = from
      ? seedrandom('', { state: { i: from.i, j: from.j, S: Array.from(from.S) } })
      : seedrandom(`${seed}:${label}`, { state: true });
  }

  /**
   * Where this generator is in its stream: `new Rng(seed, label, position)` continues it exactly.
   * Lets a holder of many paused streams keep its state alone instead of a live generator.
   */
  position(): RngPosition {
    const { i, j, S } = this.prng.state();
    return { i, j, S: Uint8Array.from(S) };
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.prng.quick();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Pick by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** Standard normal draw (Box–Muller). */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** An independent child stream, stable for a given label. */
  fork(label: string): Rng {
    return new Rng(`${this.next()}`, label);
  }
}
