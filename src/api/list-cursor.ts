/**
 * The lists served from the read model (payouts, charges, card payments, infractions): the query parameters
 * they share and their opaque cursor, the last row's place [createdAt in ms, id] as base64url JSON.
 */
import { z } from 'zod';
import type { ListPosition } from '../read-model/read-model';
import { ApiError } from './errors';

const timestamp = z.iso.datetime({ offset: true });

/** What every list takes: a creation window, a page size and the previous page's nextCursor. */
export const listPageQueryShape = {
  createdFrom: timestamp.optional().describe('RFC 3339; created at or after it'),
  createdTo: timestamp.optional().describe('RFC 3339; created before it (after createdFrom)'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,512}$/, 'must be the nextCursor of a previous page')
    .optional(),
};

const positionSchema = z.tuple([z.number().int().nonnegative(), z.string().min(1).max(64)]);

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.getTime(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition {
  let parsed: z.ZodSafeParseResult<[number, string]>;
  try {
    parsed = positionSchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    parsed = positionSchema.safeParse(undefined);
  }
  if (!parsed.success)
    throw new ApiError(422, 'INVALID_CURSOR', 'The cursor is not one this API gave', [
      { path: 'cursor', message: 'must be the nextCursor of a previous page' },
    ]);
  return { createdAt: new Date(parsed.data[0]), id: parsed.data[1] };
}

export function invalidFilter(path: string, message: string): ApiError {
  return new ApiError(422, 'INVALID_FILTER', `${path} ${message}`, [{ path, message }]);
}

/** The page's window: createdTo after createdFrom, the cursor one this API gave. */
export function pageWindow(query: {
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}): { limit: number; createdFrom?: Date; createdTo?: Date; after?: ListPosition } {
  if (query.createdFrom && query.createdTo && Date.parse(query.createdFrom) >= Date.parse(query.createdTo))
    throw invalidFilter('createdTo', 'must be after createdFrom');
  return {
    limit: query.limit,
    ...(query.createdFrom ? { createdFrom: new Date(query.createdFrom) } : {}),
    ...(query.createdTo ? { createdTo: new Date(query.createdTo) } : {}),
    ...(query.cursor ? { after: decodeCursor(query.cursor) } : {}),
  };
}
