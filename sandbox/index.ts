/** The sandbox of the payment provider: `createSandbox` and what products need to extend it. */
export { createSandbox, sandboxDbPath, type Sandbox, type SandboxOptions } from './create-sandbox';
export type { SandboxContext } from './context';
export type {
  SandboxProduct,
  ProductRoutes,
  OperationKind,
  CheckView,
  ForcedOutcome,
  EndpointCall,
  EndpointResult,
} from './products/product';
export { DEFAULT_PRODUCTS } from './products/registry';
export { ACCOUNTS } from './ledger/ledger';
export { SEEDED_USERS, RECIPIENT_CREDENTIALS } from './store/users';
export { outcomeForAmount, RULE_FAILED_REASON } from './products/pix-out';
