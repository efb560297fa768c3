/**
 * docs/security.md's table of API key scopes says what the code keeps: the scope each operation's security
 * requirement names in the engine's OpenAPI document (which the API enforces: test/api/api-key-scopes.test.ts),
 * and the codec's, for every route behind an API key and no other.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scopedRoutes } from '../../src/api/auth';
import { CODEC_SCOPE } from '../../src/api/codec-routes';
import { engineOperations } from '../../src/api/openapi-document';

const page = readFileSync(path.join(__dirname, '..', '..', 'docs', 'security.md'), 'utf8');

function documentedScopes(): Record<string, string> {
  const section = page.slice(
    page.indexOf('## API keys and their scopes'),
    page.indexOf('## Defences, each with its test'),
  );
  const rows = [...section.matchAll(/^\| `((?:GET|POST|DELETE) \S+)` \| `([\w:]+)` \|/gm)];
  return Object.fromEntries(rows.map(([, route = '', scope = '']) => [route, scope]));
}

test('docs/security.md lists every keyed route with the scope the code checks, and nothing else', () => {
  const routes: [string, string][] = [
    ...scopedRoutes(engineOperations()).map(({ method, path: route, scope }): [string, string] => [
      `${method.toUpperCase()} ${route}`,
      scope,
    ]),
    ['POST /codec/decode', CODEC_SCOPE],
    ['POST /codec/encode', CODEC_SCOPE],
  ];
  const declared = Object.fromEntries(routes);
  expect(Object.keys(declared).length).toBeGreaterThanOrEqual(34);
  expect(documentedScopes()).toEqual(declared);
});
