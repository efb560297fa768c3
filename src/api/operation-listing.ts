/**
 * The lists of charges, card payments and infractions, served from the read model (src/read-model): newest
 * first, paged by an opaque cursor. Temporal is not asked: a just-created operation is listed at once, the
 * list answers while Temporal is away, and after it has forgotten the operation.
 */
import { z } from 'zod';
import { centavosToReais } from '../money/centavos';
import type { OperationKind } from '../read-model/operation-records';
import type { ReadModel, StoredOperation } from '../read-model/read-model';
import { encodeCursor, pageWindow } from './list-cursor';
import { timestampSchema } from './openapi-timestamps';
import { listPageSchema } from './lifecycle-view';

/**
 * The list of operations the merchant named (charges, card payments): each item its externalId, status, amount in reais
 * and times; `item` makes one of a row, `page` is a page of them. The document names them `<name>ListItem` and `<name>List`.
 */
export function merchantOperationList<const T extends readonly [string, ...string[]]>(states: T, name: string) {
  const status = z.enum(states);
  const schema = z
    .object({
      externalId: z.string(),
      status,
      amount: z.number(),
      createdAt: timestampSchema,
      updatedAt: timestampSchema.describe('Its last move'),
    })
    .meta({ id: `${name}ListItem` });
  const item = (operation: StoredOperation): z.infer<typeof schema> => ({
    externalId: operation.id,
    status: status.parse(operation.status),
    amount: centavosToReais(operation.amountCents ?? 0),
    createdAt: operation.createdAt.toISOString(),
    updatedAt: operation.updatedAt.toISOString(),
  });
  return { item, page: listPageSchema(schema, `${name}List`) };
}

export interface OperationListQuery {
  status?: string | undefined;
  dueBefore?: Date | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export class OperationListing {
  constructor(private readonly readModel: Pick<ReadModel, 'listOperations'>) {}

  async list<T>(
    kind: OperationKind,
    query: OperationListQuery,
    item: (operation: StoredOperation) => T,
  ): Promise<{ data: T[]; nextCursor?: string }> {
    const page = await this.readModel.listOperations({
      kind,
      ...pageWindow(query),
      ...(query.status ? { status: query.status } : {}),
      ...(query.dueBefore ? { dueBefore: query.dueBefore } : {}),
    });
    return { data: page.operations.map(item), ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) };
  }
}
