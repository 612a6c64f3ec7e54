import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childDir, nameFromPath } from '../../src/util/paths.ts';

describe('paths from flags', () => {
  it('names a catalog after its resolved path, never `..` or empty', () => {
    expect(nameFromPath('some/dir/..')).toBe('some');
    expect(nameFromPath('catalogs/x.json')).toBe('x');
    expect(nameFromPath('/')).toBe('catalog');
    expect(nameFromPath('.')).toBe(nameFromPath(process.cwd()));
  });

  it('keeps a derived output folder inside its parent', () => {
    expect(childDir('results', 'some', '--catalog')).toBe(resolve('results', 'some'));
    expect(childDir('results', '', '--catalog')).toBe(resolve('results'));
    for (const bad of ['..', join('..', 'x'), '/etc', '.'])
      expect(() => childDir('results', bad, '--catalog')).toThrow(/--catalog: .*expected a name that stays inside/);
  });
});
