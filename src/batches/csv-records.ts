/**
 * RFC 4180 records out of UTF-8 CSV bytes, read by csv-parse: quoted fields may hold delimiters, line
 * breaks and doubled quotes; records end at CRLF, LF or CR; blank lines are skipped. A malformed record
 * becomes an error naming its line, and reading carries on at the next line with a fresh parser, so that
 * every bad row of a file is reported at once (csv-parse's own recovery would read on inside the broken
 * quote). Records come out as the caller asks for them: a file far over a limit is not read past it.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { z } from 'zod';

export type CsvRecord = { line: number; fields: string[] } | { line: number; error: string };

export type CsvDelimiter = ',' | ';';

/** Bytes handed to the parser at a time. */
const CHUNK = 64 * 1024;

/** What the parser says about the first record it could not read (a CsvError's context: where it stood). */
const failureSchema = z.object({ code: z.string(), lines: z.number(), records: z.number(), empty_lines: z.number() });
type Failure = z.infer<typeof failureSchema>;
/** Where the parser stood after a record: the line it ended on, and the blank lines skipped so far. */
type Position = { lines: number; empty_lines: number };
const recordSchema = z.object({
  record: z.array(z.string()),
  info: z.object({ lines: z.number(), empty_lines: z.number(), records: z.number() }),
});

export async function* csvRecords(utf8: Buffer, delimiter: CsvDelimiter): AsyncGenerator<CsvRecord> {
  let from = 0;
  let linesBefore = 0;
  while (from < utf8.length) {
    let failure: Failure | undefined;
    const parser = parse({
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      relax_column_count: true,
      skip_records_with_error: true,
      info: true,
      on_skip: (error) => {
        failure ??= failureSchema.parse(error);
      },
    });
    const source = Readable.from(chunks(utf8, from), { objectMode: false });
    source.pipe(parser);
    let last: Position = { lines: 0, empty_lines: 0 };
    try {
      for await (const raw of parser as AsyncIterable<unknown>) {
        const { record, info } = recordSchema.parse(raw);
        // What the parser reads after a broken record is not to be trusted: it goes on from the next line below.
        if (failure && info.records > failure.records) break;
        yield { line: linesBefore + startLine(last, info), fields: record };
        last = info;
      }
    } finally {
      source.destroy();
      parser.destroy();
    }
    if (!failure) return;
    const line = linesBefore + startLine(last, failure);
    yield { line, error: describeFailure(failure.code, line, linesBefore + failure.lines) };
    if (failure.code === 'CSV_QUOTE_NOT_CLOSED') return;
    from = afterLines(utf8, from, failure.lines);
    linesBefore += failure.lines;
  }
}

/** The line a record starts on: after the previous record's last line and the blank lines in between. */
function startLine(previous: Position, current: Position): number {
  return previous.lines + 1 + (current.empty_lines - previous.empty_lines);
}

/** The parser's messages quote the field's text; these name the line and the fix, and nothing the file holds. */
function describeFailure(code: string, recordLine: number, errorLine: number): string {
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `line ${recordLine}: a quoted field is not closed (the file ends inside it)`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `line ${errorLine}: unexpected text after a closing quote; inside a quoted field write a quote as ""`;
    case 'INVALID_OPENING_QUOTE':
      return `line ${errorLine}: a quote inside an unquoted field; quote the whole field and write the quote as ""`;
    default:
      return `line ${errorLine}: the row cannot be read as CSV (${code})`;
  }
}

function* chunks(bytes: Buffer, from: number): Generator<Buffer> {
  for (let at = from; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
}

/** The offset just past `lines` line breaks (CRLF, LF or CR) counted from `from`. */
function afterLines(bytes: Buffer, from: number, lines: number): number {
  let seen = 0;
  let index = from;
  while (index < bytes.length && seen < lines) {
    const byte = bytes[index];
    if (byte === 0x0d) {
      index += bytes[index + 1] === 0x0a ? 2 : 1;
      seen += 1;
    } else {
      if (byte === 0x0a) seen += 1;
      index += 1;
    }
  }
  return index;
}

/**
 * The delimiter of a file, from its header line: the one that splits it into more of the known column
 * names; a header that names none of them is split by whichever of the two it holds (`;` when both or
 * neither decide, only if it holds no comma). Excel pt-BR writes `;`, everything else `,`.
 */
export function detectDelimiter(utf8: Buffer, knownColumns: ReadonlySet<string>): CsvDelimiter {
  const header = firstLine(utf8);
  const known = (delimiter: CsvDelimiter) =>
    header.split(delimiter).filter((name) => knownColumns.has(name.trim().replace(/^"(.*)"$/, '$1'))).length;
  const comma = known(',');
  const semicolon = known(';');
  if (comma !== semicolon) return semicolon > comma ? ';' : ',';
  return header.includes(';') && !header.includes(',') ? ';' : ',';
}

/** The first line that is not blank; a header never holds a line break. */
function firstLine(utf8: Buffer): string {
  const head = utf8.subarray(0, 64 * 1024).toString('utf8');
  return head.split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
}
