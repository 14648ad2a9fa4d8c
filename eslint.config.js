import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

/**
 * Import direction: a file imports from its own layer and the ones below it, never from a layer above.
 * `refuse` turns a list of higher folders into the rule that rejects a relative import reaching them.
 */
const refuse = (folders, message) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [{ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message }] },
  ],
})

/** The server's layers, lowest first; `app.ts` and `server.ts` sit on top of them all. */
const SERVER_LAYERS = ['db', 'lib', 'cache', 'auth', 'audit', 'modules', 'seed']
const SERVER_TOP = ['app', 'server']
const serverLayerRules = SERVER_LAYERS.map((layer, i) => ({
  files: [`apps/server/src/${layer}/**/*.ts`],
  rules: refuse(
    [...SERVER_LAYERS.slice(i + 1), ...SERVER_TOP],
    `${layer}/ imports only from ${['config.ts', ...SERVER_LAYERS.slice(0, i)].join(', ')} and itself ` +
      `(server layers: ${SERVER_LAYERS.join(' ← ')} ← app.ts).`,
  ),
}))

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', '.vitest-reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@amg/server', '@amg/server/*', '@amg/web', '@amg/web/*'],
              message: 'The contract is shared by the apps and imports nothing from them.',
            },
            { regex: '^(\\.\\./)+apps(/|$)', message: 'The contract imports nothing from the apps.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/config.ts'],
    rules: refuse(
      [...SERVER_LAYERS, ...SERVER_TOP],
      'config.ts reads the environment and imports no server code.',
    ),
  },
  ...serverLayerRules,
  // the console: lib ← components ← features ← app
  {
    files: ['apps/web/src/lib/**/*.{ts,tsx}'],
    rules: refuse(['components', 'features', 'app'], 'lib/ imports no widget, feature or app module.'),
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}'],
    rules: refuse(
      ['features', 'app'],
      'components/ import only lib/ and each other, never a feature or the app.',
    ),
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(app|features)(/|$)',
              message:
                'A feature imports no app module and no other feature: move what they share to components/ or lib/.',
            },
            {
              // from features/<name>/, `../<other>/…` is another feature
              regex: '^\\.\\./[^.]',
              message: 'A feature imports no other feature: move what they share to components/ or lib/.',
            },
          ],
        },
      ],
    },
  },
)
