/**
 * RFC 4180 records out of CSV text: quoted fields may hold commas, line breaks and doubled quotes;
 * records end at CRLF, LF or CR; a UTF-8 BOM and blank lines are skipped. A malformed record becomes
 * an error naming its line and the parser carries on with the next line, so that every bad row of a
 * file is reported at once.
 */
export type CsvRecord = { line: number; fields: string[] } | { line: number; error: string };

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

export function* csvRecords(text: string): Generator<CsvRecord> {
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;

  /** Moves past one line break at `position` if there is one; true when it did. */
  const skipLineBreak = (): boolean => {
    const code = text.charCodeAt(position);
    if (code === CR) {
      position += text.charCodeAt(position + 1) === LF ? 2 : 1;
    } else if (code === LF) {
      position += 1;
    } else {
      return false;
    }
    line += 1;
    return true;
  };
  const skipRestOfLine = (): void => {
    while (position < text.length && !skipLineBreak()) position += 1;
  };

  while (position < text.length) {
    if (skipLineBreak()) continue; // a blank line
    const recordLine = line;
    const fields: string[] = [];
    let error: string | undefined;
    for (;;) {
      if (text.charCodeAt(position) === QUOTE) {
        // Quoted field: runs to the quote not followed by another quote.
        let value = '';
        let from = position + 1;
        let closed = false;
        while (!closed) {
          const quote = text.indexOf('"', from);
          if (quote === -1) break;
          value += text.slice(from, quote);
          if (text.charCodeAt(quote + 1) === QUOTE) {
            value += '"';
            from = quote + 2;
          } else {
            closed = true;
            from = quote + 1;
          }
        }
        if (!closed) {
          yield { line: recordLine, error: `line ${recordLine}: a quoted field is not closed (the file ends inside it)` };
          return;
        }
        line += countLineBreaks(text, position, from);
        position = from;
        fields.push(value);
        const next = text.charCodeAt(position);
        if (position < text.length && next !== COMMA && next !== CR && next !== LF) {
          error = `line ${line}: unexpected text after a closing quote; inside a quoted field write a quote as ""`;
          break;
        }
      } else {
        let end = position;
        while (end < text.length) {
          const code = text.charCodeAt(end);
          if (code === COMMA || code === CR || code === LF) break;
          end += 1;
        }
        const value = text.slice(position, end);
        if (value.includes('"')) {
          error = `line ${line}: a quote inside an unquoted field; quote the whole field and write the quote as ""`;
          break;
        }
        fields.push(value);
        position = end;
      }
      if (text.charCodeAt(position) === COMMA) {
        position += 1;
        continue;
      }
      skipLineBreak();
      break;
    }
    if (error !== undefined) {
      skipRestOfLine();
      yield { line: recordLine, error };
    } else {
      yield { line: recordLine, fields };
    }
  }
}

function countLineBreaks(text: string, from: number, to: number): number {
  let breaks = 0;
  for (let index = from; index < to; index += 1) {
    const code = text.charCodeAt(index);
    if (code === LF || (code === CR && text.charCodeAt(index + 1) !== LF)) breaks += 1;
  }
  return breaks;
}
