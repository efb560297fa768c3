/**
 * Every callback the provider sends, routed by its `type` field. The engine's callback routes parse
 * with the schema of their own path, where `type` is optional like every field routing does not need;
 * this helper serves a single ingress or tooling that must tell callbacks apart, so it needs `type`.
 */
import { z } from 'zod';
import { cardCallbackSchema } from './card';
import { cashInCallbackSchema } from './cash-in';
import { cryptoWithdrawalCallbackSchema } from './crypto';
import { pixCopyPasteCallbackSchema } from './pix-copy-paste';
import { withdrawalCallbackSchema } from './withdrawal';

export const callbackSchemasByType = {
  Withdrawal: withdrawalCallbackSchema,
  PixCopyPaste: pixCopyPasteCallbackSchema,
  Deposit: cashInCallbackSchema,
  CryptoWithdrawal: cryptoWithdrawalCallbackSchema,
  Card: cardCallbackSchema,
} as const;

export type CallbackType = keyof typeof callbackSchemasByType;
export const CALLBACK_TYPES = Object.keys(callbackSchemasByType) as [CallbackType, ...CallbackType[]];

export type ProviderCallback = { [K in CallbackType]: z.output<(typeof callbackSchemasByType)[K]> }[CallbackType];

/** The callback's type when it is one we know, else undefined. */
export function callbackTypeOf(payload: unknown): CallbackType | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const type = (payload as { type?: unknown }).type;
  return typeof type === 'string' && (CALLBACK_TYPES as readonly string[]).includes(type)
    ? (type as CallbackType)
    : undefined;
}

/** Parses any callback: picks the schema by `type`, so errors name the fields of that one schema. */
export const providerCallbackSchema = z.unknown().transform((payload, ctx): ProviderCallback => {
  const type = callbackTypeOf(payload);
  if (type === undefined) {
    ctx.addIssue({ code: 'custom', path: ['type'], message: `must be one of ${CALLBACK_TYPES.join(', ')}` });
    return z.NEVER;
  }
  const parsed = callbackSchemasByType[type].safeParse(payload);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
    return z.NEVER;
  }
  return parsed.data;
});
