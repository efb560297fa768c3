/**
 * The merchant webhook operations of the engine's OpenAPI document: endpoints (create, list, read,
 * delete, rotate the secret) and the events with their deliveries (list, read, redeliver).
 */
import { z } from 'zod';
import { withRequestExamples, type OperationSpec } from '../../openapi/document';
import { endpointRequestSchema } from '../../merchant-events/endpoint-request';
import { aboutOne, errors, JSON_BODY, keyed, linksTo, TEMPORAL } from '../openapi-helpers';
import {
  endpointListResponseSchema,
  endpointParamsSchema,
  endpointResponseSchema,
  endpointWithSecretSchema,
  eventListQuerySchema,
  eventListResponseSchema,
  eventParamsSchema,
  eventResponseSchema,
} from './schemas';

const exampleEndpoint = {
  url: 'https://merchant.example.com/webhooks/payouts',
  events: ['payout.completed', 'payout.failed', 'payout_batch.completed'],
};
const endpointBody = withRequestExamples(endpointRequestSchema, [exampleEndpoint]);
const endpointParams = z.object({ endpointId: endpointParamsSchema.shape.endpointId });

export function webhookOperations(): OperationSpec[] {
  const unknownEndpoint = { 400: 'Invalid endpointId', 404: 'Unknown endpoint' };
  return [
    keyed('webhooks:write', {
      id: 'createWebhookEndpoint',
      description:
        "Registers a URL of the merchant's to receive the events it names, signed as Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). The signing secret is in this answer only. The payloads are in this document's webhooks.",
      method: 'post',
      path: '/v1/webhook-endpoints',
      body: endpointBody,
      summary: 'Register an endpoint for event types; the signing secret is in this answer only',
      responses: {
        201: {
          description: 'Registered',
          schema: endpointWithSecretSchema,
          links: linksTo(['getWebhookEndpoint', 'deleteWebhookEndpoint', 'rotateWebhookEndpointSecret'], {
            endpointId: '$response.body#/id',
          }),
        },
        ...errors({
          ...JSON_BODY,
          422: 'A URL with credentials or a #fragment, a host that is not a public address (loopback, private, link-local, metadata), a port other than 443 (or 80 outside production), http in production, or too many endpoints',
        }),
      },
    }),
    keyed('read', {
      id: 'listWebhookEndpoints',
      description: 'Every registered endpoint, oldest first, without secrets.',
      method: 'get',
      path: '/v1/webhook-endpoints',
      summary: 'Every registered endpoint, oldest first (no secrets)',
      responses: { 200: { description: 'The endpoints', schema: endpointListResponseSchema } },
    }),
    keyed('read', {
      id: 'getWebhookEndpoint',
      description: 'One registered endpoint, without its secret.',
      method: 'get',
      path: '/v1/webhook-endpoints/:endpointId',
      params: endpointParams,
      summary: 'One endpoint (no secret)',
      responses: { 200: { description: 'The endpoint', schema: endpointResponseSchema }, ...errors(unknownEndpoint) },
    }),
    keyed('webhooks:write', {
      id: 'deleteWebhookEndpoint',
      description:
        'Deletes an endpoint: its pending deliveries stop (ENDPOINT_DELETED) and no new event is sent to it.',
      method: 'delete',
      path: '/v1/webhook-endpoints/:endpointId',
      params: endpointParams,
      summary: 'Delete an endpoint: its pending deliveries stop (ENDPOINT_DELETED)',
      responses: { 204: { description: 'Deleted' }, ...errors(unknownEndpoint) },
    }),
    keyed('webhooks:write', {
      id: 'rotateWebhookEndpointSecret',
      description:
        'A new signing secret, in this answer only. The old secret keeps signing (a second signature) until previousSecretExpiresAt, so the receiver can switch without losing an event.',
      method: 'post',
      path: '/v1/webhook-endpoints/:endpointId/rotate-secret',
      params: endpointParams,
      summary: 'A new signing secret (in this answer only); the old one signs too until previousSecretExpiresAt',
      responses: { 200: { description: 'Rotated', schema: endpointWithSecretSchema }, ...errors(unknownEndpoint) },
    }),
    keyed('read', {
      id: 'listEvents',
      description:
        'Events announced to the endpoints, those being delivered first and then the latest finished, each with its delivery status and attempts; page with cursor.',
      method: 'get',
      path: '/v1/events',
      query: eventListQuerySchema,
      summary:
        'Events announced to the endpoints (those being delivered first, then the latest finished), with their delivery status and attempts',
      responses: {
        200: { description: 'A page of events', schema: eventListResponseSchema },
        ...errors({ 400: 'Bad query', 422: 'A cursor this API did not give', ...TEMPORAL }),
      },
    }),
    keyed('read', {
      id: 'getEvent',
      description: 'An event, its payload and every delivery attempt per endpoint (status, answer, time).',
      method: 'get',
      path: '/v1/events/:eventId',
      params: eventParamsSchema,
      summary: 'An event, its data and every delivery attempt per endpoint',
      responses: aboutOne(
        { description: 'The event', schema: eventResponseSchema },
        'eventId',
        'No event delivered to an endpoint has this id',
        TEMPORAL,
      ),
    }),
    keyed('operator', {
      id: 'redeliverEvent',
      description: 'Operators: sends the event again to each of its endpoints now, with a fresh retry period.',
      method: 'post',
      path: '/v1/events/:eventId/redeliver',
      params: eventParamsSchema,
      summary: 'Send the event again to each of its endpoints now, with a fresh retry period',
      responses: {
        202: { description: 'Redelivery under way', schema: eventResponseSchema },
        ...errors({
          400: 'Invalid eventId',
          404: 'Unknown event',
          409: 'The delivery is closing: retry in a moment',
          ...TEMPORAL,
        }),
      },
    }),
  ];
}
