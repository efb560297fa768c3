/**
 * The sandbox's test cards (docs/sandbox.md, sandbox/README.md, outcome rules): the card number alone decides the 3DS
 * flow and the acquirer's answer. Any other card that passes Luhn, has a known brand and a future
 * expiry is frictionless and approved.
 */
export const TEST_CARDS = {
  frictionless: '4000000000001000',
  challenge: '4000000000003220',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export type TestCardBehaviour = keyof typeof TEST_CARDS;

export function testCardBehaviour(number: string): TestCardBehaviour {
  const digits = number.replace(/\s/g, '');
  const match = (Object.keys(TEST_CARDS) as TestCardBehaviour[]).find((behaviour) => TEST_CARDS[behaviour] === digits);
  return match ?? 'frictionless';
}

/** A card whose issuer always asks the buyer: endpoint 2 refuses it without a 3DS result. */
export const requiresChallenge = (number: string): boolean => testCardBehaviour(number) === 'challenge';

export const DECLINED_REASON = 'Declined by the issuer (sandbox test card 4000 0000 0000 0002)';
export const INSUFFICIENT_FUNDS_MESSAGE = 'insufficient funds (sandbox test card 4000 0000 0000 9995)';
