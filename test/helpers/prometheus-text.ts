/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), enough to prove an endpoint
 * parses: every line is a comment, a HELP/TYPE line, or a sample `name{labels} value [timestamp]`.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Metric family name → its TYPE. */
  types: Map<string, string>;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+-?\\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,\s*|$)/y;
const TYPE_LINE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);

function parseValue(text: string, line: string): number {
  // Prometheus reads these case-insensitively (Go's ParseFloat), and prom-client writes `Nan`.
  const special = text.toLowerCase();
  if (special === '+inf' || special === 'inf') return Infinity;
  if (special === '-inf') return -Infinity;
  if (special === 'nan') return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a number in: ${line}`);
  return value;
}

function parseLabels(text: string | undefined, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!text) return labels;
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`bad labels in: ${line}`);
    labels[match[1] as string] = (match[2] as string).replace(/\\"/g, '"').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
  }
  return labels;
}

export function parsePrometheusText(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('# TYPE')) {
      const match = TYPE_LINE.exec(line);
      if (!match) throw new Error(`bad TYPE line: ${line}`);
      if (types.has(match[1] as string)) throw new Error(`TYPE declared twice: ${line}`);
      types.set(match[1] as string, match[2] as string);
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    samples.push({
      name: match[1] as string,
      labels: parseLabels(match[2], line),
      value: parseValue(match[3] as string, line),
    });
  }
  return { samples, types };
}

/** The sum of a metric's samples whose labels include `labels`. */
export function sampleSum(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return exposition.samples
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** Every metric family name an exposition exports (a histogram's _bucket/_sum/_count under its own name too). */
export function exportedNames(exposition: Exposition): Set<string> {
  const names = new Set<string>(exposition.types.keys());
  for (const sample of exposition.samples) names.add(sample.name);
  return names;
}

export async function scrape(url: string): Promise<Exposition> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return parsePrometheusText(await response.text());
}
