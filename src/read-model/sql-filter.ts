/** What the read model's queries share: a WHERE built from optional filters, and an integer as either driver answers it. */
import { z } from 'zod';

/** A sum, count or BIGINT as either driver answers it (PostgreSQL's bigints come as text). */
export const sqlInteger = z
  .union([z.number(), z.string()])
  .transform((value) => Number(value))
  .pipe(z.number().int());

/** A WHERE built from optional filters, its values numbered as the SQL runner takes them ($1, $2, …). */
export class SqlFilter {
  private readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  /** `clause` gets the values' placeholders, comma-separated: `(created_at, id) < ($3, $4)`. */
  where(clause: (placeholders: string) => string, ...values: unknown[]): void {
    const names = values.map((value) => this.param(value));
    this.clauses.push(clause(names.join(', ')));
  }

  /** A value's placeholder, for a clause outside the WHERE (LIMIT). */
  param(value: unknown): string {
    return `$${this.params.push(value)}`;
  }

  text(): string {
    return this.clauses.length > 0 ? ` WHERE ${this.clauses.join(' AND ')}` : '';
  }
}
