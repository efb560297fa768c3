/**
 * The engine's API reference page (`GET /docs`): Redocly's `build-docs` renders the engine's OpenAPI document into
 * one HTML file with Redoc's script inlined (no CDN), under build/docs/. `npm run build:docs` builds it; `npm start`
 * and the tests build it when it is absent or was built from another document (build/docs/openapi.json).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { engineOpenApi } from '../../src/api/openapi-document';
import { REFERENCE_PAGE } from '../../src/api/reference-page';

const root = path.join(__dirname, '..', '..');
const builtFrom = path.join(path.dirname(REFERENCE_PAGE), 'openapi.json');

/** A blank picture in place of a remote one. */
const BLANK_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/**
 * The page as a browser offline can show it: Redoc's sidebar footer shows Redocly's logo from their CDN (the only
 * remote fetch of the page), replaced by a blank picture; and an empty icon, so the browser does not ask for /favicon.ico.
 */
function offline(html: string): string {
  return html
    .replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, BLANK_SVG)
    .replace('<head>', '<head>\n  <link rel="icon" href="data:,">');
}

/** Builds the page (a few seconds) from the document as the code states it now. */
export function buildReferencePage(): void {
  mkdirSync(path.dirname(REFERENCE_PAGE), { recursive: true });
  const document = `${JSON.stringify(engineOpenApi(), null, 2)}\n`;
  const source = `${builtFrom}.next`;
  writeFileSync(source, document);
  const cli = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  execFileSync(
    process.execPath,
    [
      cli,
      'build-docs',
      source,
      '--inlineBundle',
      '--title=Payout engine API',
      '-o',
      REFERENCE_PAGE,
      `--config=${path.join(root, 'redocly-engine.yaml')}`,
    ],
    {
      cwd: root,
      stdio: 'ignore',
      // Off, the page sends Redocly no usage telemetry (and the CLI none either).
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    },
  );
  writeFileSync(REFERENCE_PAGE, offline(readFileSync(REFERENCE_PAGE, 'utf8')));
  // Moved last: the page on disk is the one this document made.
  renameSync(source, builtFrom);
}

/** Builds the page unless the one on disk was built from today's document. */
export function ensureReferencePage(): void {
  const current = `${JSON.stringify(engineOpenApi(), null, 2)}\n`;
  if (existsSync(REFERENCE_PAGE) && existsSync(builtFrom) && readFileSync(builtFrom, 'utf8') === current) return;
  buildReferencePage();
}

if (require.main === module) buildReferencePage();
