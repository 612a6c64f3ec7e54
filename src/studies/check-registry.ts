import { checkedRegistry, missingText, RegistryError } from '../util/registry.ts';
import type { Study } from './types.ts';

/**
 * A study registry, checked and frozen (../util/registry.ts): ids unique, each study's id equal
 * to the key it is registered under (results, timings and `--studies` name it by that id), a
 * description, and its flags given. The bench's registry is src/studies/registry.ts; tests
 * build their own with this function (keys default to the studies' ids).
 */
export function checkedStudyRegistry(studies: readonly Study[], keys: readonly string[] = studies.map((s) => s.id)): readonly Study[] {
  if (keys.length !== studies.length) throw new RegistryError(`study registry: ${keys.length} keys for ${studies.length} studies`);
  const key = new Map(studies.map((s, i) => [s, keys[i]!]));
  return checkedRegistry(
    'study registry',
    studies,
    (s) => key.get(s)!,
    (study) => {
      if (study.id !== key.get(study))
        return `registered under ${JSON.stringify(key.get(study))} with id ${JSON.stringify(study.id)}; expected the same`;
      if (typeof study.readsPipelineResults !== 'boolean' || typeof study.needsTasks !== 'boolean')
        return 'expected readsPipelineResults and needsTasks, each true or false';
      return missingText(study.description, 'description');
    },
  );
}
