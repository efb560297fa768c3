/** What list tests ask of a list served from the read model: every page, walked by its cursor, and whether it came newest first. */
import type { EngineHarness } from './engine-harness';

/** Every item of `path` (which carries its limit), page after page by nextCursor until none. */
export async function everyPage<T>(stack: EngineHarness, path: string): Promise<T[]> {
  const seen: T[] = [];
  let cursor: string | undefined;
  do {
    const page: { status: number; body: { data: T[]; nextCursor?: string } } = await stack.api<{
      data: T[];
      nextCursor?: string;
    }>('GET', `${path}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    seen.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return seen;
}

/** The index of the first item not strictly before the next in (createdAt, id) descending; -1 when in order. */
export function firstOutOfOrder<T extends { createdAt: string }>(
  items: readonly T[],
  idOf: (item: T) => string,
): number {
  return items.findIndex((item, index) => {
    const next = items[index + 1];
    return (
      next !== undefined &&
      (next.createdAt > item.createdAt || (next.createdAt === item.createdAt && idOf(next) >= idOf(item)))
    );
  });
}
