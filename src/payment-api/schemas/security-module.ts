/**
 * The browser side of card payments: the security module's endpoints ({shield_script_url},
 * {shield_settings_url} and what the module calls itself) and the card token. The spec shows only
 * the steps; every shape here is our choice (sandbox/README.md, browser-side 3DS).
 */
import { z } from 'zod';
import { CARD_CURRENCIES, MAX_INSTALLMENTS, threeDSSchema } from './card';

/** The name under which shield.js puts its module on `window` (ShieldHelper.getModuleName()). */
export const SHIELD_MODULE_NAME = 'SandboxShield';

/** GET /shield/public-key: the environment's fixed RSA public key (the spec's <PUBLIC_KEY>), SPKI PEM. */
export const shieldPublicKeyResponseSchema = z
  .looseObject({ publicKey: z.string().min(1) })
  .meta({ id: 'ShieldPublicKeyResponse' });

export const shieldSettingsQuerySchema = z.strictObject({
  publicKey: z.string().min(1, { message: 'must be the public key of the environment' }),
});

/** GET /shield/settings?publicKey=: the 3DS settings of the environment the key belongs to. */
export const shieldSettingsResponseSchema = z
  .looseObject({
    environment: z.string(),
    moduleName: z.string(),
    threeDS: z.looseObject({
      enabled: z.boolean(),
      version: z.string(),
      /** How long the buyer has to answer a challenge; prepareThreeDS rejects after it. */
      challengeTimeoutMs: z.number().int().positive(),
    }),
    /** Accepted currencies and their minor units (the unit of prepareThreeDS's amount). */
    currencies: z.record(z.string(), z.number().int().min(0)),
  })
  .meta({ id: 'ShieldSettingsResponse' });
export type ShieldSettings = z.infer<typeof shieldSettingsResponseSchema>;

/** POST /shield/sessions: what prepareThreeDS sends to open a 3DS session. */
export const threeDSSessionRequestSchema = z.strictObject({
  publicKey: z.string().min(1),
  /** Minor units of the currency (ShieldHelper.convertDecimalToCents). */
  amount: z
    .number()
    .int({ message: 'must be an integer amount in minor units (cents)' })
    .positive()
    .max(Number.MAX_SAFE_INTEGER),
  installments: z.number().int().min(1).max(MAX_INSTALLMENTS),
  currency: z.enum(CARD_CURRENCIES, { message: `must be one of ${CARD_CURRENCIES.join(', ')}` }),
  /**
   * module.encrypt's token, when the checkout gives it to prepareThreeDS (not among the spec's arguments): the sandbox
   * reads the card from it to choose frictionless or challenge. Refused with SANDBOX_SHIELD_THREE_DS=spec.
   */
  cardToken: z.string().min(1).max(2_048).optional(),
  /**
   * The card the module read from the page's card fields, encrypted like module.encrypt's token: how the sandbox's
   * issuer learns the card when prepareThreeDS is called with the spec's arguments only (ignored with `spec`).
   */
  pageCardToken: z.string().min(1).max(2_048).optional(),
});

export const THREE_DS_SESSION_STATUSES = ['CHALLENGE_REQUIRED', 'AUTHENTICATED', 'DENIED', 'EXPIRED', 'USED'] as const;
export type ThreeDSSessionStatus = (typeof THREE_DS_SESSION_STATUSES)[number];

/** The answer of POST /shield/sessions and GET /shield/sessions/:id; threeDS only once AUTHENTICATED. */
export const threeDSSessionResponseSchema = z
  .looseObject({
    sessionId: z.string(),
    status: z.enum(THREE_DS_SESSION_STATUSES),
    threeDS: threeDSSchema.optional(),
    /** While CHALLENGE_REQUIRED: the time left to answer the challenge. */
    challengeTimeoutMs: z.number().int().min(0).optional(),
  })
  .meta({ id: 'ThreeDSSession' });
export type ThreeDSSessionResponse = z.infer<typeof threeDSSessionResponseSchema>;

/** A browser origin (scheme://host[:port]): where the challenge page posts its result. */
export const browserOriginSchema = z
  .string()
  .refine((value) => URL.canParse(value) && new URL(value).origin === value, {
    message: 'must be an origin: scheme://host[:port]',
  });

export const challengePageQuerySchema = z.strictObject({ parentOrigin: browserOriginSchema });

/** The challenge page's form (urlencoded): the buyer's choice. */
export const challengeDecisionSchema = z.strictObject({
  decision: z.enum(['approve', 'deny']),
  parentOrigin: browserOriginSchema,
});

/**
 * What module.encrypt puts in the token (RSA-OAEP SHA-256 over this JSON): the spec's encrypt
 * arguments. Only the sandbox, which holds the private key, reads it; it is never stored.
 */
export const cardTokenPayloadSchema = z.strictObject({
  number: z.string().regex(/^\d{12,19}$/),
  holderName: z.string().trim().min(1),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(1000).max(9999),
  cvv: z.string().regex(/^\d{3,4}$/),
});
export type CardTokenPayload = z.infer<typeof cardTokenPayloadSchema>;
