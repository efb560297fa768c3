/**
 * The extension point: a product is a module that brings its routes (keyed by the endpoint table's
 * names, so paths, auth and schemas come from src/payment-api/endpoints.ts), its durable jobs, its
 * tables, and how its operations appear in the transaction check and the admin "force outcome".
 */
import type { Request, Router } from 'express';
import type { z } from 'zod';
import type { EndpointName, Endpoints } from '../../src/payment-api/endpoints';
import type {
  TransactionMethod,
  TransactionState,
  TransactionType,
} from '../../src/payment-api/schemas/transaction-check';
import type { SandboxContext } from '../context';
import type { Job } from '../jobs/scheduler';
import type { Migration } from '../store/database';
import type { Operation } from '../store/operations';
import type { SandboxUser } from '../store/users';

type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface EndpointCall<N extends EndpointName> {
  ctx: SandboxContext;
  /** The authenticated caller; undefined only on endpoints whose auth is 'none'. */
  user: SandboxUser | undefined;
  /** The parsed body (POST) or query (GET) per the endpoint's request schema. */
  input: SchemaOutput<Endpoints[N]['request']>;
  params: Endpoints[N] extends { params: infer P } ? SchemaOutput<P> : undefined;
  req: Request;
}

export interface EndpointResult<N extends EndpointName> {
  /** 200 unless said otherwise. */
  status?: number;
  body: z.output<Endpoints[N]['response']>;
}

export interface ProductRoute<N extends EndpointName> {
  /** A request that can move money: subject to the timeoutAfterCommit fault. */
  movesMoney?: boolean;
  handle(call: EndpointCall<N>): EndpointResult<N> | Promise<EndpointResult<N>>;
}

/** Aliases (`aliasOf` in the table) are served by their target's route automatically. */
export type ProductRoutes = { [N in EndpointName]?: ProductRoute<N> };

export interface ForcedOutcome {
  status: 'COMPLETED' | 'FAILED';
  reason?: string;
}

export interface CheckView {
  transactionState: TransactionState;
  transactionType: TransactionType;
  transactionMethod: TransactionMethod;
  /** A settled PIX transfer's end-to-end id (the spec shows none: docs/assumptions.md §10). */
  endToEndId?: string;
}

/** How one kind of operation (operations.product) behaves outside its own routes. */
export interface OperationKind {
  checkView(operation: Operation): CheckView;
  isFinal(operation: Operation): boolean;
  /** Admin override: settle an operation still in progress now, with this outcome. */
  forceOutcome?(ctx: SandboxContext, operation: Operation, outcome: ForcedOutcome): void;
}

export interface SandboxProduct {
  name: string;
  migrations?: readonly Migration[];
  routes?: ProductRoutes;
  jobs?: Readonly<Record<string, (ctx: SandboxContext, job: Job) => void>>;
  operationKinds?: Readonly<Record<string, OperationKind>>;
  /** Admin controls of this product, mounted under /sandbox/ behind the SANDBOX_ADMIN_TOKEN check. */
  adminRoutes?(ctx: SandboxContext): Router;
  /** Routes outside the provider's endpoint table that browsers call without credentials (the card product's security module). */
  browserRoutes?(ctx: SandboxContext): Router;
  /** Runs once after migrations and seeding (e.g. to seed product data). */
  onStart?(ctx: SandboxContext): void;
}

export function requireCaller(user: SandboxUser | undefined): SandboxUser {
  if (!user) throw new Error('endpoint handler expected an authenticated caller; check the endpoint auth');
  return user;
}
