// ESLint: typescript-eslint's recommended rules. Formatting is Prettier's job (npm run format);
// unused exports are ts-unused-exports' and import cycles test/architecture/imports.test.ts's
// (both in npm run lint / npm test).
import tseslint from 'typescript-eslint';
import noInheritedLookup from './scripts/eslint/no-inherited-lookup.js';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'results/**', 'reports/**', '.cache/**', 'catalogs/**', 'tasks/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Everything src/ reads comes from users' catalogs, tasks and messages: dictionaries keyed by
    // that text are Maps (or guarded by Object.hasOwn). Type-aware, so only over src/.
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { tooltax: { rules: { 'no-inherited-lookup': noInheritedLookup } } },
    rules: { 'tooltax/no-inherited-lookup': 'error' },
  },
);
