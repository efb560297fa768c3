/**
 * The documentation's shell examples as a test runs them: every block fenced `sh` of README.md, then of
 * each file of docs/ in the order of their names, split into commands, each with the answer its comment
 * promises. A promise is a comment right after a command (or at the end of its last line) that starts with
 * an HTTP status: `# 201 {"status":"PENDING","qrcode":"000201…"}`; the JSON, when given, must be part of
 * the answer, where `…` stands for any text and a value `"…"` or `[…]` for any value. Blocks fenced
 * `shell` (installing, starting or testing the stack itself) are not run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Promised {
  status: number;
  /** The answer's JSON must contain this (see jsonPromiseHolds). */
  body?: unknown;
}

export interface ExampleCommand {
  /** `README.md:46`: where the command starts. */
  where: string;
  text: string;
  promise?: Promised;
}

export interface ExampleBlock {
  where: string;
  commands: ExampleCommand[];
}

/** README.md first, then docs/*.md by name: the order a reader meets them from the README's links. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => path.join('docs', name));
  return ['README.md', ...docs];
}

/** The blocks fenced `sh` of one Markdown file, in order. */
export function shellBlocks(file: string, markdown: string): ExampleBlock[] {
  const blocks: ExampleBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const fence = /^```(\S*)/.exec(lines[index] ?? '');
    if (!fence) continue;
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && !(lines[index] ?? '').startsWith('```'); index += 1)
      body.push(lines[index] ?? '');
    if (fence[1] === 'sh') blocks.push({ where: `${file}:${start + 1}`, commands: commandsOf(file, start + 2, body) });
  }
  return blocks;
}

/** A comment that promises an answer: `# 201` or `# 200 {...}`. */
function promiseOf(comment: string): Promised | undefined {
  const match = /^(\d{3})(?:\s+(\{.*\}))?\s*$/.exec(comment.trim());
  if (!match) return undefined;
  return { status: Number(match[1]), ...(match[2] ? { body: parsePromisedJson(match[2]) } : {}) };
}

/** JSON where `[…]` may stand for any array. */
export function parsePromisedJson(text: string): unknown {
  return JSON.parse(text.replace(/\[…\]/g, '"…"'));
}

/** Where a line's trailing comment starts, outside quotes; -1 when it has none. */
function commentStart(line: string, quote: string | undefined): { at: number; quote: string | undefined } {
  let open = quote;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (open) {
      if (character === open) open = undefined;
      else if (character === '\\' && open === '"') index += 1;
    } else if (character === "'" || character === '"') open = character;
    else if (character === '\\') index += 1;
    else if (character === '#' && (index === 0 || /\s/.test(line[index - 1] ?? '')))
      return { at: index, quote: undefined };
  }
  return { at: -1, quote: open };
}

function commandsOf(file: string, firstLine: number, lines: string[]): ExampleCommand[] {
  const commands: ExampleCommand[] = [];
  let current: { start: number; lines: string[] } | undefined;
  let quote: string | undefined;
  let heredoc: string | undefined;
  let last: ExampleCommand | undefined;
  const finish = (trailing?: string) => {
    if (!current) return;
    last = { where: `${file}:${current.start}`, text: current.lines.join('\n') };
    const promise = trailing === undefined ? undefined : promiseOf(trailing);
    if (promise) last.promise = promise;
    commands.push(last);
    current = undefined;
  };
  lines.forEach((line, offset) => {
    if (heredoc !== undefined) {
      current?.lines.push(line);
      if (line === heredoc) {
        heredoc = undefined;
        finish();
      }
      return;
    }
    if (!current) {
      const comment = /^\s*#(.*)$/.exec(line);
      if (comment) {
        // A comment right after a command may promise its answer.
        const promise = promiseOf(comment[1] ?? '');
        if (promise && last && !last.promise) last.promise = promise;
        return;
      }
      if (line.trim() === '') {
        last = undefined;
        return;
      }
      current = { start: firstLine + offset, lines: [] };
    }
    const { at, quote: open } = commentStart(line, quote);
    quote = open;
    const code = at >= 0 ? line.slice(0, at).trimEnd() : line;
    current.lines.push(code);
    const here = /<<-?\s*'?([A-Za-z_]+)'?/.exec(code);
    if (here && !quote) {
      heredoc = here[1];
      return;
    }
    if (quote || code.endsWith('\\')) return;
    finish(at >= 0 ? line.slice(at + 1) : undefined);
  });
  finish();
  return commands;
}

export function documentationExamples(root: string): ExampleBlock[] {
  return documentationFiles(root).flatMap((file) => shellBlocks(file, readFileSync(path.join(root, file), 'utf8')));
}
