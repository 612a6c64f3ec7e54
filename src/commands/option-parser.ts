import { InvalidArgumentError } from 'commander';

/** An option's value parser from one that throws plain errors: a refusal is commander's one-line usage error. */
export function asOptionParser<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };
}
