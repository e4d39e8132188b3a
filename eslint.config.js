// ESLint: typescript-eslint's recommended rules plus its type-aware promise rules over the sources, tests,
// benches and scripts, and the layering rule for the folders that already keep it (the OWL model and its
// neighbours never reach up into the tool layer, the transport or the actors).
import tseslint from 'typescript-eslint';

const upward = ['tools', 'http', 'actors'].flatMap((layer) => [`../${layer}/*`, `../../${layer}/*`, `../../../${layer}/*`]);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test/fixtures/', 'examples/'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // type-aware: a promise nobody awaits or catches is an unhandled rejection waiting to end a thread
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', name: ['test', 'describe', 'it', 'suite'], package: 'node:test' }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // one import statement per module (a type-only one beside it is fine)
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/model/**/*.ts', 'src/reasoner/**/*.ts', 'src/imports/**/*.ts', 'src/auth/**/*.ts', 'src/settings/**/*.ts', 'src/util/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: upward, message: 'the domain never imports the tool layer, the transport or the actors' }] }] },
  },
);
