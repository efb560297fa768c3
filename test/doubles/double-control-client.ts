/** The tests' client of the double's control surface (/__double/), over HTTP like any client of it. */
import type { CallbackAttempt, Infraction, LoggedRequest, Operation, OperationKind } from './double-state';

export type { CallbackAttempt, Infraction, LoggedRequest, Operation, OperationKind } from './double-state';

export class DoubleControl {
  constructor(private readonly url: string) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}/__double${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as T & { message?: string };
    if (!response.ok) throw new Error(`double ${method} ${path}: ${response.status} ${answer.message ?? ''}`);
    return answer;
  }

  /** A withdrawal or copy-and-paste payment (by either id) reaches its final status; its callback is sent. */
  async settle(id: string, outcome: 'COMPLETO' | 'FALHA', motivo?: string): Promise<Operation> {
    return (
      await this.call<{ operation: Operation }>('POST', `/settle/${encodeURIComponent(id)}`, {
        outcome,
        ...(motivo ? { motivo } : {}),
      })
    ).operation;
  }

  async pay(id: string): Promise<Operation> {
    return (await this.call<{ operation: Operation }>('POST', `/pay/${encodeURIComponent(id)}`)).operation;
  }

  async expire(id: string): Promise<Operation> {
    return (await this.call<{ operation: Operation }>('POST', `/expire/${encodeURIComponent(id)}`)).operation;
  }

  async openInfraction(fields: { transactionId: string; amount: number; reason?: string }): Promise<Infraction> {
    return (await this.call<{ infraction: Infraction }>('POST', '/infractions', fields)).infraction;
  }

  async infraction(id: string): Promise<Infraction> {
    return (await this.call<{ infraction: Infraction }>('GET', `/infractions/${encodeURIComponent(id)}`)).infraction;
  }

  async resolveInfraction(id: string, situacao: 'ACCEPTED' | 'REJECTED' | 'CANCELLED'): Promise<Infraction> {
    return (
      await this.call<{ infraction: Infraction }>('POST', `/infractions/${encodeURIComponent(id)}/resolve`, {
        situacao,
      })
    ).infraction;
  }

  /** Every operation the double made, of one client id and one kind when given: the money it moved. */
  async operations(filter: { clientId?: string; kind?: OperationKind } = {}): Promise<Operation[]> {
    const query = new URLSearchParams(
      Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    return (await this.call<{ operations: Operation[] }>('GET', `/operations?${query.toString()}`)).operations;
  }

  async requests(): Promise<LoggedRequest[]> {
    return (await this.call<{ requests: LoggedRequest[] }>('GET', '/requests')).requests;
  }

  async callbacks(): Promise<CallbackAttempt[]> {
    return (await this.call<{ callbacks: CallbackAttempt[] }>('GET', '/callbacks')).callbacks;
  }
}
