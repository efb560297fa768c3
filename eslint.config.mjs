// Lint rules that matter here: no floating promises anywhere, and nothing with I/O or
// non-determinism inside workflows/ (Temporal replays workflow code; it must be a pure function of history).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', '.tools/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.mjs', '*.js', 'bin/*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly' } },
  },
  {
    // Scripts the sandbox serves to browsers as they are (the card security module): browser globals, no Node.
    files: ['sandbox/**/shield/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'script',
      parserOptions: { projectService: false, project: false, program: null },
      globals: { window: 'readonly', document: 'readonly', fetch: 'readonly', URL: 'readonly', atob: 'readonly', btoa: 'readonly', TextEncoder: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
  },
  {
    files: ['workflows/**/*.ts', 'tools/bench/bare-workflow.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must not use Node built-ins (no I/O in workflows).' })),
          patterns: [
            { group: ['**/activities', '**/activities/*'], allowTypeImports: true, message: 'Import activity types only: import type * as activities.' },
            { group: ['**/src/api/**', '**/sandbox/**', '**/tools/**', '**/src/payment-api/client*', '**/src/payment-api/http-*', '**/src/temporal/**', '!**/src/temporal/search-attributes', '**/src/cli/**', '**/src/config/**', '**/src/logging/**'], message: 'Workflows may import only deterministic shared modules.' },
            { group: ['express', 'better-sqlite3', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'], message: 'Not available in workflow code.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use workflow time through the SDK (workflowInfo / sleep), not Date.now.' },
        { object: 'Math', property: 'random', message: 'Use uuid4() from @temporalio/workflow.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() or condition() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() in a loop.' },
        { name: 'fetch', message: 'No I/O in workflows: call an activity.' },
        { name: 'process', message: 'No environment access in workflows.' },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
);
