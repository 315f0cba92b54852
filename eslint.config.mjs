// ESLint: typescript-eslint's recommended rules and the layers of ARCHITECTURE.md as import
// restrictions. Import cycles (type-only ones included) are madge's job: `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** A layer may import only the folders listed for it (besides itself and node/npm modules). */
const layer = (folder, forbidden, message) => ({
  files: [`${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((name) => ({ group: [`**/${name}/*`, `**/${name}`], message: `${folder}/ must not import ${name}/: ${message}` })) },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', '.tmp/**', 'node_modules/**', 'data/**', 'eslint.config.mjs', 'test/support/summary-reporter.js', 'bin/marque.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  layer('domain', ['datasources', 'resolvers', 'rest', 'mcp', 'workers', 'bin'], 'domain/ is pure logic and imports only domain/'),
  layer('datasources', ['resolvers', 'rest', 'mcp', 'workers', 'bin'], 'adapters implement the ports and import nothing above them'),
  layer('resolvers', ['rest', 'mcp', 'workers', 'bin'], 'resolvers sit below every transport and worker'),
  layer('workers', ['rest', 'mcp', 'bin'], 'workers consume the change feed, never a transport'),
  layer('rest', ['workers', 'mcp', 'bin'], 'the REST layer runs persisted operations; workers run beside it'),
  layer('mcp', ['workers', 'bin'], 'the MCP server calls the REST routes; workers run beside it'),
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-unused-expressions': 'off', '@typescript-eslint/no-non-null-assertion': 'off' } },
);
