/**
 * The part of Go's text/template (with sprig's `env` and `default`) that ops/temporal/config.yaml uses,
 * so that a test can read the file as the Temporal server will without the server's binary: `{{ expr }}`,
 * `{{ $name := expr }}`, `{{ if expr }} … {{ end }}` (not nested), the `{{-`/`-}}` trims; expressions are
 * "literals", $names, `env "NAME"`, `default X Y` and parentheses. Anything else throws, so that a new
 * construct in the file fails the test instead of being rendered wrong.
 */
type Env = Readonly<Record<string, string | undefined>>;

/** Splits `default "x" (env "Y")` into its words, keeping quoted strings and parenthesised groups whole. */
function words(expression: string): string[] {
  const found: string[] = [];
  let index = 0;
  while (index < expression.length) {
    if (expression[index] === ' ') {
      index += 1;
      continue;
    }
    let end = index;
    if (expression[index] === '"') end = expression.indexOf('"', index + 1) + 1;
    else if (expression[index] === '(') {
      let depth = 0;
      do {
        if (expression[end] === '(') depth += 1;
        if (expression[end] === ')') depth -= 1;
        end += 1;
      } while (depth > 0 && end < expression.length);
    } else while (end < expression.length && expression[end] !== ' ') end += 1;
    found.push(expression.slice(index, end));
    index = end;
  }
  return found;
}

function evaluate(expression: string, env: Env, variables: Map<string, string>): string {
  const [head, ...args] = words(expression.trim());
  if (head === undefined) throw new Error('empty template expression');
  if (args.length === 0) {
    if (/^".*"$/.test(head)) return head.slice(1, -1);
    if (head.startsWith('(')) return evaluate(head.slice(1, -1), env, variables);
    if (head.startsWith('$')) {
      const value = variables.get(head.slice(1));
      if (value === undefined) throw new Error(`undefined template variable ${head}`);
      return value;
    }
  }
  if (head === 'env' && args.length === 1) return env[evaluate(args[0] ?? '', env, variables)] ?? '';
  if (head === 'default' && args.length === 2) {
    const value = evaluate(args[1] ?? '', env, variables);
    return value === '' ? evaluate(args[0] ?? '', env, variables) : value;
  }
  throw new Error(`template expression not understood here: ${expression}`);
}

export function renderGoTemplate(text: string, env: Env): string {
  const variables = new Map<string, string>();
  let output = '';
  let skipping = false;
  let trimNext = false;
  let cursor = 0;
  for (const match of text.matchAll(/\{\{(-?)\s*(.*?)\s*(-?)\}\}/gs)) {
    let literal = text.slice(cursor, match.index);
    if (trimNext) literal = literal.replace(/^\s+/, '');
    if (!skipping) output += literal;
    if (match[1] === '-' && !skipping) output = output.replace(/\s+$/, '');
    cursor = (match.index ?? 0) + match[0].length;
    trimNext = match[3] === '-';
    const action = match[2] ?? '';
    const assignment = /^\$(\w+)\s*:=\s*(.+)$/.exec(action);
    if (action === 'end') skipping = false;
    else if (action.startsWith('if ')) skipping = evaluate(action.slice(3), env, variables) === '';
    else if (skipping) continue;
    else if (assignment) variables.set(assignment[1] ?? '', evaluate(assignment[2] ?? '', env, variables));
    else output += evaluate(action, env, variables);
  }
  const rest = text.slice(cursor);
  return output + (trimNext ? rest.replace(/^\s+/, '') : rest);
}

/** Every `env "NAME"` the template reads. */
export function templateVariables(text: string): Set<string> {
  return new Set([...text.matchAll(/env "([A-Z0-9_]+)"/g)].map((match) => match[1] ?? ''));
}
