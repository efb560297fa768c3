/** The provider contract: one import for every schema, type and helper. */
export * from './common';
export * from './errors';
export * from './auth';
export * from './card';
export * from './security-module';
export * from './withdrawal';
export * from './pix-copy-paste';
export * from './cash-in';
export * from './deposit';
export * from './internal-transfer';
export * from './transaction-check';
export * from './crypto';
export * from './infractions';
export * from './callbacks';
