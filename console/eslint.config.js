// The console's lint is the phone app's (web/eslint.config.js): imports go
// one way, app -> features -> shared (components, lib, i18n). A feature
// never reaches into another; shared code never reaches into a feature or
// the app. Every import from another folder goes through '@/'.
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import { importX } from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import globals from 'globals'

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)

const zones = [
  ...features.map((f) => ({
    target: `./src/features/${f}`,
    from: './src/features',
    except: [`./${f}`],
    message: 'A feature does not import another feature: move the shared part to src/components or src/lib, or compose them in src/app.',
  })),
  { target: './src/features', from: './src/app', message: 'Features do not import src/app (imports go app -> features -> shared).' },
  ...['lib', 'components', 'i18n'].map((dir) => ({
    target: `./src/${dir}`,
    from: ['./src/features', './src/app'],
    message: `src/${dir} is shared code: it imports no feature and not the app.`,
  })),
  { target: './src/lib', from: ['./src/components'], message: 'src/lib imports only src/lib and src/i18n.' },
]

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-unresolved': 'error',
      'import-x/no-cycle': ['error', { maxDepth: 3 }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*'], message: "Import from another folder through '@/' (e.g. '@/lib/api'), not '../'." }] },
      ],
      // Query keys come from each feature's keys factory, never an inline
      // array that can drift from the one a query was stored under.
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: "Use the feature's query-key factory (e.g. auditKeys.list(filters)), not an inline array.",
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['*.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
)
