/** Endpoint 1: POST /api/auth/login. The token is a JWT (HS256, 1 hour, `exp` claim; see assumptions). */
import { z } from 'zod';
import { requiredTextSchema } from './common';

export const loginRequestSchema = z
  .strictObject({
    client_id: requiredTextSchema,
    client_secret: requiredTextSchema,
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** Lifetime of a sandbox token, in seconds. */
export const TOKEN_LIFETIME_SECONDS = 3600;

export const loginResponseSchema = z
  .looseObject({
    token: z.string().min(1),
    /** Sandbox extension: seconds until the token expires. The `exp` claim is the authority. */
    expiresIn: z.number().int().positive().optional(),
  })
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof loginResponseSchema>;
