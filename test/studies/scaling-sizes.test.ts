import { describe, expect, it } from 'vitest';
import { DEFAULT_SCALING_SIZES, MAX_SCALING_SIZE, parseScalingSizes } from '../../src/studies/scaling/sizes.ts';

describe('--scaling-sizes', () => {
  it('reads distinct whole numbers in the order given', () => {
    expect(parseScalingSizes('30, 1000,10000')).toEqual([30, 1000, 10000]);
  });

  it.each(['', '30,,60', '0', '-5', '12.5', 'ten', `${MAX_SCALING_SIZE + 1}`, '1e3x'])('refuses %j in one line', (value) => {
    expect(() => parseScalingSizes(value)).toThrow(/^expected comma-separated whole numbers from 1 to 100,000$/);
  });

  it('refuses a repeated size', () => {
    expect(() => parseScalingSizes('30,120,30')).toThrow(/repeated/);
  });

  it('defaults to the published range (the paper reports up to N = 1,000)', () => {
    expect(Math.max(...DEFAULT_SCALING_SIZES)).toBe(1000);
  });
});
