/**
 * What a merchant asks when registering an endpoint: where to POST and which event types. One schema
 * for the shape (400) and the rules that need the configuration (422) in `endpointRuleProblems`.
 */
import { z } from 'zod';
import { urlRefusal, type EndpointPolicy } from './endpoint-transport';
import { signatureSchemeSchema } from './endpoint-store';
import { MERCHANT_EVENT_TYPES, merchantEventTypeSchema } from './merchant-event';

/** The most endpoints an engine delivers to: each event is one workflow with one delivery per endpoint. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

export const endpointRequestSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2_048),
  events: z.array(merchantEventTypeSchema).min(1).max(MERCHANT_EVENT_TYPES.length),
  signatureScheme: signatureSchemeSchema
    .default('standard-webhooks')
    .describe(
      'standard-webhooks: webhook-id, webhook-timestamp, webhook-signature (verify with any Standard Webhooks library). legacy (deprecated): X-Webhook-* as before, and the standard headers beside them',
    ),
});
export type EndpointRequest = z.infer<typeof endpointRequestSchema>;

/**
 * Rules beyond the shape: no credentials in the URL (they would be logged and shown), no fragment, and
 * an endpoint the engine may call (endpoint-transport.ts: public host, allowed port, https in production).
 */
export function endpointRuleProblems(
  request: EndpointRequest,
  policy: EndpointPolicy,
): { path: string; message: string }[] {
  const url = new URL(request.url);
  const problems: { path: string; message: string }[] = [];
  if (url.username !== '' || url.password !== '')
    problems.push({
      path: 'url',
      message: 'must not carry a user name or password: the signature authenticates the engine',
    });
  if (url.hash !== '') problems.push({ path: 'url', message: 'must not have a #fragment' });
  const refused = urlRefusal(url, policy);
  if (refused) problems.push({ path: 'url', message: refused });
  return problems;
}
