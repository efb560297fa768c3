/**
 * `npm run screenshots:jaeger-install`: Jaeger all-in-one at docker-compose.yml's version with its UI
 * embedded, built as Jaeger's Makefile builds it (`make build-all-in-one`), for machines without Docker:
 * - the UI from a jaeger-ui checkout at the same tag, named by JAEGER_UI_SOURCE
 *   (`git clone --depth 1 --branch v1.62.0 https://github.com/jaegertracing/jaeger-ui`), copied and built
 *   with its own pinned tools (yarn 1, `yarn install --frozen-lockfile`, `yarn build`: Vite);
 * - its files gzipped into the query service's embedded assets (cmd/query/app/ui/actual), as `make build-ui`;
 * - the Go module `github.com/jaegertracing/jaeger` from the Go module proxy, `go build ./cmd/all-in-one`.
 * Into the git-ignored `.tools/jaeger/<version>/all-in-one`; built once (a second run finds it and does
 * nothing). About 10 minutes on 2 cores, most of it the UI. Not part of CI: only the trace pictures need it.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { onPath } from '../pip-wheels';
import { JAEGER_DIR, JAEGER_VERSION, jaegerBinary } from './jaeger';

const MODULE = 'github.com/jaegertracing/jaeger';
/** The yarn of jaeger-ui's lockfile (v1 format); run through npx, so nothing is installed globally. */
const YARN = 'yarn@1.22.22';

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${signal ?? `code ${code}`}`)),
    );
  });
}

/** The checkout JAEGER_UI_SOURCE names, checked to be jaeger-ui at JAEGER_VERSION (UI and backend are released together). */
function uiSource(): string {
  const source = process.env.JAEGER_UI_SOURCE;
  const clone = `git clone --depth 1 --branch v${JAEGER_VERSION} https://github.com/jaegertracing/jaeger-ui`;
  if (!source) throw new Error(`Set JAEGER_UI_SOURCE to a jaeger-ui checkout at v${JAEGER_VERSION} (${clone}).`);
  const manifest = path.join(source, 'packages', 'jaeger-ui', 'package.json');
  if (!existsSync(manifest))
    throw new Error(`${source} is not a jaeger-ui checkout (no packages/jaeger-ui/package.json): ${clone}`);
  const { version } = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(manifest, 'utf8')));
  if (version !== JAEGER_VERSION)
    throw new Error(`${source} is jaeger-ui ${version}; Jaeger ${JAEGER_VERSION} embeds ${JAEGER_VERSION}: ${clone}`);
  return source;
}

/** Builds the UI in a copy of the checkout (its node_modules and build left out); the folder of the built files. */
async function buildUi(source: string, work: string, log: (line: string) => void): Promise<string> {
  const copy = path.join(work, 'jaeger-ui');
  const leftOut = new Set(['.git', path.join('packages', 'jaeger-ui', 'build')]);
  const copied = (file: string): boolean => {
    const relative = path.relative(source, file);
    return !leftOut.has(relative) && !relative.split(path.sep).includes('node_modules');
  };
  cpSync(source, copy, { recursive: true, filter: copied });
  // The lockfile names yarn's mirror of the npm registry; the same tarballs (checked by the same hashes) come from the npm registry itself.
  const lockfile = path.join(copy, 'yarn.lock');
  writeFileSync(
    lockfile,
    readFileSync(lockfile, 'utf8').replaceAll('https://registry.yarnpkg.com/', 'https://registry.npmjs.org/'),
  );
  log(`jaeger-ui: yarn install (its prepare script builds the plexus package) and vite build, in ${copy}`);
  await run('npx', ['--yes', YARN, 'install', '--frozen-lockfile', '--network-timeout', '600000'], copy);
  await run('npx', ['--yes', YARN, 'build'], path.join(copy, 'packages', 'jaeger-ui'));
  return path.join(copy, 'packages', 'jaeger-ui', 'build');
}

/** `make build-ui`: every file of the UI gzipped into the folder the query service embeds (`//go:embed actual/*`). */
function embedUi(built: string, assets: string): void {
  for (const entry of readdirSync(built, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const from = path.join(entry.parentPath, entry.name);
    const to = path.join(assets, `${path.relative(built, from)}.gz`);
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, gzipSync(readFileSync(from)));
  }
  if (!existsSync(path.join(assets, 'index.html.gz'))) throw new Error(`the UI build in ${built} has no index.html`);
}

async function buildJaeger(work: string, built: string, log: (line: string) => void): Promise<string> {
  const downloaded = z
    .object({ Dir: z.string() })
    .parse(JSON.parse(await run('go', ['mod', 'download', '-json', `${MODULE}@v${JAEGER_VERSION}`], work)));
  const source = path.join(work, 'jaeger');
  cpSync(downloaded.Dir, source, { recursive: true });
  // The module cache is read-only; the copy takes the UI's files.
  await run('chmod', ['-R', 'u+w', source], work);
  embedUi(built, path.join(source, 'cmd', 'query', 'app', 'ui', 'actual'));
  log(`go build ${MODULE}/cmd/all-in-one@v${JAEGER_VERSION}`);
  const binary = path.join(work, 'all-in-one');
  // -mod=mod: the module's go.sum may lack entries for its build's tool dependencies; the proxy's checksum database checks them.
  await run('go', ['build', '-mod=mod', '-o', binary, './cmd/all-in-one'], source);
  return binary;
}

async function main(): Promise<void> {
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  const target = jaegerBinary();
  if (existsSync(target)) {
    log(`Jaeger ${JAEGER_VERSION} is already built: ${target}`);
    return;
  }
  if (!onPath('go'))
    throw new Error('Go is not on PATH: install it (https://go.dev/dl, or apt-get install golang-go) and run again.');
  const source = uiSource();
  mkdirSync(JAEGER_DIR, { recursive: true });
  // Built in a folder of its own, then moved: an interrupted build leaves nothing that looks installed.
  const work = mkdtempSync(path.join(JAEGER_DIR, '.build-'));
  try {
    const built = await buildUi(source, work, log);
    renameSync(await buildJaeger(work, built, log), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  log(`Jaeger ${JAEGER_VERSION} with its UI: ${target}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
