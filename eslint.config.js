// ESLint: typescript-eslint's recommended rules plus import-x's cycle check. Formatting is
// Prettier's job (npm run format); unused exports are knip's (npm run lint).
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

export default tseslint.config(
  { ignores: ['node_modules/**', 'results/**', 'reports/**', '.cache/**', 'catalogs/**', 'tasks/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.js'] } } },
    rules: {
      // A cycle between modules makes load order matter and layers blur; the folder-level
      // check lives in test/architecture/imports.test.ts.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
);
