/**
 * The one HTML skeleton of every page the engine and the sandbox serve (the checkout, the 3DS challenge), and
 * the escapes their text goes through.
 */

/** Text for HTML content or a quoted attribute: every character that could close either, as a numeric reference. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** JSON that cannot close the <script> element it sits in. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export interface HtmlPage {
  title: string;
  /** The page's own style sheet, inline (a CSP may pin it by hash). */
  style: string;
  /** More of <head>: scripts, their configuration. */
  head?: string;
  body: string;
}

export function htmlPage({ title, style, head = '', body }: HtmlPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
${head}</head>
<body>
${body}
</body>
</html>
`;
}
