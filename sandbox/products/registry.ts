/**
 * Merges the product modules into one registry. A route, job kind or operation kind claimed twice is
 * a start-up error, so two products can never silently shadow each other.
 */
import type { SandboxContext } from '../context';
import type { Job } from '../jobs/scheduler';
import type { Migration } from '../store/database';
import type { OperationKind, ProductRoutes, SandboxProduct } from './product';
import { authProduct } from './auth-login';
import { cardPaymentsProduct } from './card-payments';
import { cashInProduct } from './cash-in';
import { cryptoProduct } from './crypto';
import { infractionsProduct } from './infractions';
import { internalTransfersProduct } from './internal-transfers';
import { pixCopyPasteProduct } from './pix-copy-paste';
import { transactionCheckProduct } from './transaction-check';
import { withdrawalsProduct } from './withdrawals';

export interface ProductRegistry {
  products: readonly SandboxProduct[];
  routes: ProductRoutes;
  jobs: ReadonlyMap<string, (ctx: SandboxContext, job: Job) => void>;
  operationKinds: ReadonlyMap<string, OperationKind>;
  migrations: readonly Migration[];
}

/** The products this sandbox serves; add a new product module here. */
export const DEFAULT_PRODUCTS: readonly SandboxProduct[] = [
  authProduct,
  withdrawalsProduct,
  pixCopyPasteProduct,
  internalTransfersProduct,
  cashInProduct,
  cardPaymentsProduct,
  cryptoProduct,
  infractionsProduct,
];

function claim<V>(map: Map<string, V>, what: string, key: string, value: V, owner: string): void {
  if (map.has(key)) throw new Error(`sandbox product ${owner}: ${what} ${key} is already registered`);
  map.set(key, value);
}

export function buildRegistry(products: readonly SandboxProduct[] = DEFAULT_PRODUCTS): ProductRegistry {
  const jobs = new Map<string, (ctx: SandboxContext, job: Job) => void>();
  const kinds = new Map<string, OperationKind>();
  const routes = new Map<string, unknown>();
  const migrations = new Map<string, Migration>();
  // The check reads the operation kinds of every product, so it is built last and sees them all.
  const all = [...products, transactionCheckProduct(kinds)];
  for (const product of all) {
    for (const [name, route] of Object.entries(product.routes ?? {})) claim(routes, 'route', name, route, product.name);
    for (const [kind, job] of Object.entries(product.jobs ?? {})) claim(jobs, 'job', kind, job, product.name);
    for (const [kind, operationKind] of Object.entries(product.operationKinds ?? {}))
      claim(kinds, 'operation kind', kind, operationKind, product.name);
    for (const migration of product.migrations ?? [])
      claim(migrations, 'migration', migration.id, migration, product.name);
  }
  return {
    products: all,
    routes: Object.fromEntries(routes),
    jobs,
    operationKinds: kinds,
    migrations: [...migrations.values()],
  };
}
