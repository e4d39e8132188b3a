// ESLint: typescript-eslint's recommended rules over the sources, tests, benches and scripts, and the
// layering rule for the folders that already keep it (the OWL model and its neighbours never reach up
// into the tool layer, the transport or the actors).
import tseslint from 'typescript-eslint';

const upward = ['tools', 'http', 'actors'].flatMap((layer) => [`../${layer}/*`, `../../${layer}/*`, `../../../${layer}/*`]);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test/fixtures/', 'examples/'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
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
