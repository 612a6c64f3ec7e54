// Author's aid: `npx tsx scripts/check-server.ts github` prints a server spec's problems and
// how its token budget compares with the calibration target.
import { buildDefinition } from '../src/catalog/build-definition.ts';
import { serializeToolDefinition } from '../src/catalog/types.ts';
import { validateServerSpec } from '../src/catalog/validate-spec.ts';
import { countTokens } from '../src/tokens/counter.ts';
import { SERVER_SPECS } from '../src/catalog/servers/index.ts';

const wanted = process.argv[2];
for (const spec of SERVER_SPECS.filter((s) => !wanted || s.server === wanted)) {
  const problems = validateServerSpec(spec);
  const tokens = (notes: (t: (typeof spec.tools)[number]) => string[]) =>
    spec.tools.map((t) => countTokens(serializeToolDefinition(buildDefinition(t, notes(t)))));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const base = tokens(() => []);
  const full = tokens((t) => [...t.notes, ...spec.notes]);
  console.log(`${spec.server}: ${spec.tools.length}/${spec.targetToolCount} tools, target ${spec.targetTokensPerTool} tokens/tool`);
  console.log(
    `  base mean ${mean(base).toFixed(0)} (min ${Math.min(...base)}, max ${Math.max(...base)}); with every note ${mean(full).toFixed(0)}`,
  );
  for (const [i, t] of spec.tools.entries())
    console.log(`  ${t.name.padEnd(34)} base ${base[i]}  full ${full[i]}  summary ${countTokens(t.summary)}`);
  console.log(problems.length ? problems.map((p) => `  PROBLEM ${p}`).join('\n') : '  no problems');
}
