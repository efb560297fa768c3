/**
 * docs/configuration.md is the schema's: a setting added, renamed, re-described or given another default in
 * src/config/env.ts without `npm run docs:config` fails here, and so does a production rule that changes.
 */
import { readFileSync } from 'node:fs';
import { envSchema } from '../../src/config/env';
import { CONFIGURATION_PAGE, pageWithTables } from '../../tools/docs/configuration-page';

const page = readFileSync(CONFIGURATION_PAGE, 'utf8');

test("docs/configuration.md's tables are the schema's", () => {
  expect(page).toBe(pageWithTables(page));
});

test('every variable the engine reads has a row with a description', () => {
  const rows = [...page.matchAll(/^\| `([A-Z0-9_]+)` \| (?:[^|\\]|\\.)+ \| (.+) \|$/gm)].map(
    ([, name = '', text = '']) => ({ name, text }),
  );
  for (const name of Object.keys(envSchema.shape)) {
    expect(rows.filter((row) => row.name === name && row.text.trim().length > 20)).toHaveLength(1);
  }
});

test('the production https list names every URL the engine refuses in clear', () => {
  const section = page.slice(page.indexOf('A URL in plain `http://`'), page.indexOf('## Settings'));
  for (const name of [
    'PAYMENT_API_BASE_URL',
    'ENGINE_PUBLIC_URL',
    'PAYMENT_BROWSER_BASE_URL',
    'PAYMENT_SHIELD_SCRIPT_URL',
    'PAYMENT_SHIELD_SETTINGS_URL',
    'CHECKOUT_PUBLIC_URL',
  ]) {
    expect(section).toContain(`\`${name}\``);
  }
});
