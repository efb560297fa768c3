/**
 * The double's memory: every operation it made, the client's balance, the users of its environment, the
 * requests it received. Nothing is de-duplicated: a client id seen twice is two operations.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export type OperationKind = 'withdrawal' | 'pix-copy-paste' | 'internal-transfer' | 'cash-in' | 'card-payment';

/** The check's words (endpoint 9), plus EXPIRADO for a charge nobody paid in time (the document lists only the common ones). */
export type OperationState = 'PENDENTE' | 'PROCESSING' | 'COMPLETO' | 'FALHA' | 'EXPIRADO';

export interface Operation {
  /** The double's own id: what it answers as transactionId. */
  id: string;
  kind: OperationKind;
  /** The client's own id when the request carried one (external_id, the cash-in's transactionId, the card's externalReference). */
  clientId?: string;
  amountCents: number;
  feeCents: number;
  state: OperationState;
  /** Why a FALHA happened, in the double's words. */
  motivo?: string;
  /** Where the double tells the client about it (clientCallbackUrl, projectWebhook). */
  callbackUrl?: string;
  createdAt: string;
  updatedAt: string;
  /** Card payments: the double's integer id (data.id) and what endpoint 3 and the callback tell. */
  card?: { paymentId: number; brand: string; last4: string; netCents: number };
  /** Cash-in: the copy-and-paste code it answered, and when it stops being payable. */
  charge?: { qrcode: string; expiresAtMs: number };
  /** Internal transfer: who received it. */
  recipientEmail?: string;
}

export interface Infraction {
  infraction_id: string;
  transacao_id: string;
  situacao: 'WAITING_PSP' | 'ACCEPTED' | 'REJECTED' | 'CANCELLED';
  valor: number;
  motivo_abertura: string;
  aberta_em: string;
  prazo_defesa: string;
  defesas: { analise: string; justificativa: string; proofs: string[]; recebida_em: string }[];
}

export interface LoggedRequest {
  method: string;
  /** Without its query string. */
  path: string;
  at: string;
}

export interface CallbackAttempt {
  url: string;
  body: unknown;
  /** The HTTP status the client answered, or the network error. */
  answer: number | string;
}

/** The users of the environment, by e-mail (endpoint 11 refuses any other). */
export const DOUBLE_USERS: Readonly<Record<string, string>> = {
  'maria@double.test': 'Maria Oliveira',
  'joao@double.test': 'João Pereira',
};

export class DoubleState {
  readonly operations: Operation[] = [];
  readonly infractions: Infraction[] = [];
  readonly requests: LoggedRequest[] = [];
  readonly callbacks: CallbackAttempt[] = [];
  /** The client's balance, in centavos (a starting float large enough for every test). */
  balanceCents = 100_000_000;
  private nextCardPaymentId = 7_001;

  constructor(private readonly clock: () => number = Date.now) {}

  now(): number {
    return this.clock();
  }

  nowIso(): string {
    return new Date(this.clock()).toISOString();
  }

  add(fields: Omit<Operation, 'id' | 'createdAt' | 'updatedAt'>): Operation {
    const at = this.nowIso();
    const operation: Operation = {
      id: `dbl_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      createdAt: at,
      updatedAt: at,
      ...fields,
    };
    this.operations.push(operation);
    return operation;
  }

  cardPaymentId(): number {
    return this.nextCardPaymentId++;
  }

  /** Rule 2 of endpoint 9: the id the operation was created with, or the one the double answered; the latest when a client id was used twice. */
  find(id: string): Operation | undefined {
    const operation =
      this.operations.find((candidate) => candidate.id === id) ??
      this.operations.filter((candidate) => candidate.clientId === id).at(-1);
    // A charge past its lifetime is EXPIRADO from then on, whoever asks first (no callback: nothing happened to it).
    if (operation?.charge && operation.state === 'PENDENTE' && this.now() >= operation.charge.expiresAtMs)
      this.move(operation, 'EXPIRADO');
    return operation;
  }

  move(operation: Operation, state: OperationState, motivo?: string): void {
    operation.state = state;
    operation.updatedAt = this.nowIso();
    if (motivo !== undefined) operation.motivo = motivo;
  }
}

/** An opaque token part: letters and digits only. */
export const opaque = (bytes = 12): string => randomBytes(bytes).toString('hex');

/** Reais as the document sends them (a JSON number, at most two decimals) to integer centavos; undefined for anything else. */
export function reaisToCentavos(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value));
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Integer centavos back to a JSON number of reais, built from the digits (never a float product). */
export function centavosToReais(centavos: number): number {
  const sign = centavos < 0 ? '-' : '';
  const digits = String(Math.abs(centavos)).padStart(3, '0');
  return Number(`${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`);
}

/** A share of an amount in basis points, rounded half up (the remainder stays with the double). */
export const basisPoints = (centavos: number, points: number): number =>
  Math.floor((centavos * points + 5_000) / 10_000);
