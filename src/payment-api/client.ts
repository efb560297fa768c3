/**
 * PaymentApiClient: one method per endpoint of the provider's interface, typed by the contract.
 * Paths, credential schemes and response schemas come from the endpoint table; transport concerns
 * (credentials, timeouts, typed errors, parsing) live in HttpTransport. Requests are checked against
 * the contract before they leave, so a malformed request fails here, before any money can move.
 */
import { z } from 'zod';
import { zodIssues } from '../validation/issues';
import { ENGINE_CRYPTO_FEE_UNITS, inEngineUnits, type CryptoFeeUnits } from './crypto-fee-units';
import { InvalidRequestError, RouteNotConfiguredError } from './errors';
import { DEFAULT_ANALYSIS_WORDS, type InfractionAnalysis, type InfractionAnalysisWords } from './schemas/infractions';
import {
  DEFAULT_PIX_COPY_PASTE_FIELDS,
  pixCopyPasteAnswerSchema,
  pixCopyPasteWireBody,
  type PixCopyPasteFieldNames,
} from './schemas/pix-copy-paste';
import { HttpTransport, type TransportOptions } from './http-transport';
import {
  endpoints,
  type EndpointAuth,
  type EndpointName,
  type EndpointRequest,
  type EndpointResponse,
} from './endpoints';

/** A 2xx answer taken as it came (any JSON), for the caller to read. */
const AS_SENT = z.unknown();

/** Endpoints whose lost answer is ambiguous: the provider may have moved money. */
const MOVES_MONEY: ReadonlySet<EndpointName> = new Set<EndpointName>([
  'createCardPayment',
  'withdraw',
  'withdrawAlias',
  'payPixCopyPaste',
  'createDeposit',
  'createPixCashIn',
  'internalTransfer',
  'internalTransferAlias',
  'createCryptoWithdrawal',
  'submitInfractionDefense',
]);

function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

export interface ClientOptions extends TransportOptions {
  /**
   * Endpoint 6's credentials: the spec calls it the alternative "for projects that use JWT" and lists it
   * under neither scheme; Bearer unless the provider says otherwise (CASH_IN_DEPOSIT_AUTH).
   */
  depositAuth?: EndpointAuth;
  /** The units of endpoint 12's fees (CRYPTO_FEE_RATE_UNIT, CRYPTO_FEE_FIXED_UNIT); answered in the engine's (percent, reais). */
  cryptoFeeUnits?: CryptoFeeUnits;
  /** The provider's `analise` words (INFRACTION_ANALISE_VALUES); a defense is given in the engine's. */
  analysisWords?: InfractionAnalysisWords;
  /**
   * The route that creates a crypto withdrawal (PAYMENT_API_CRYPTO_WITHDRAW_PATH): the spec shows none (rule 6).
   * Without one the client creates none (RouteNotConfiguredError, nothing sent).
   */
  cryptoWithdrawPath?: string;
  /** Endpoint 5's request field names (PIX_COPY_PASTE_REQUEST_FIELDS); a payment is given under the sandbox's. */
  pixCopyPasteFields?: PixCopyPasteFieldNames;
}

/** Endpoint 8's body with `analise` in the engine's words, translated to the provider's on the way out. */
export type InfractionDefense = Omit<EndpointRequest<'submitInfractionDefense'>, 'analise'> & {
  analise: InfractionAnalysis;
};

export class PaymentApiClient {
  private readonly transport: HttpTransport;
  private readonly depositAuth: EndpointAuth | undefined;
  private readonly cryptoFeeUnits: CryptoFeeUnits;
  private readonly analysisWords: InfractionAnalysisWords;
  private readonly cryptoWithdrawPath: string | undefined;
  private readonly pixCopyPasteFields: PixCopyPasteFieldNames;

  constructor(options: ClientOptions) {
    this.transport = new HttpTransport(options);
    this.depositAuth = options.depositAuth;
    this.cryptoFeeUnits = options.cryptoFeeUnits ?? ENGINE_CRYPTO_FEE_UNITS;
    this.analysisWords = options.analysisWords ?? DEFAULT_ANALYSIS_WORDS;
    this.cryptoWithdrawPath = options.cryptoWithdrawPath;
    this.pixCopyPasteFields = options.pixCopyPasteFields ?? DEFAULT_PIX_COPY_PASTE_FIELDS;
  }

  login(): Promise<EndpointResponse<'login'>> {
    return this.transport.login();
  }
  createCardPayment(body: EndpointRequest<'createCardPayment'>) {
    return this.call('createCardPayment', { body });
  }
  getCardPayment(id: string | number) {
    return this.call('getCardPayment', { params: { id: String(id) } });
  }
  withdraw(body: EndpointRequest<'withdraw'>) {
    return this.call('withdraw', { body });
  }
  /** Endpoint 4a: the same withdrawal under its alias path. */
  withdrawViaPayments(body: EndpointRequest<'withdrawAlias'>) {
    return this.call('withdrawAlias', { body });
  }
  /**
   * Endpoint 5, whose shapes the spec does not show: checked under the sandbox's field names, sent under the
   * provider's; its answer read for the payment's id wherever it is (readPixCopyPasteAnswer), never refused for its shape.
   */
  payPixCopyPaste(body: EndpointRequest<'payPixCopyPaste'>) {
    return this.call(
      'payPixCopyPaste',
      { body },
      {
        toWire: (checked) => pixCopyPasteWireBody(checked, this.pixCopyPasteFields),
        response: pixCopyPasteAnswerSchema,
      },
    );
  }
  createDeposit(body: EndpointRequest<'createDeposit'>) {
    return this.call('createDeposit', { body });
  }
  /** Endpoint 7's page as the provider sent it: its shape is not shown (src/infractions/infraction-page.ts reads it). */
  listInfractions(query: EndpointRequest<'listInfractions'>): Promise<unknown> {
    return this.call('listInfractions', { query }, { response: AS_SENT });
  }
  /** Endpoint 8: any 2xx is the provider taking the defense; its answer (shape not shown) as it was sent. */
  submitInfractionDefense(infractionId: string, defense: InfractionDefense): Promise<unknown> {
    const body = { ...defense, analise: this.analysisWords[defense.analise] };
    return this.call('submitInfractionDefense', { body, params: { infractionId } }, { response: AS_SENT });
  }
  /** Endpoint 9: `id` is the id given at creation (an external_id, a cash-in transactionId) or the one the provider answered. */
  checkTransaction(id: string) {
    return this.call('checkTransaction', { body: { transactionId: id } });
  }
  createPixCashIn(body: EndpointRequest<'createPixCashIn'>) {
    return this.call('createPixCashIn', { body });
  }
  internalTransfer(body: EndpointRequest<'internalTransfer'>) {
    return this.call('internalTransfer', { body });
  }
  /** Endpoint 11a: the same transfer under its alias path. */
  internalTransferViaWithdraw(body: EndpointRequest<'internalTransferAlias'>) {
    return this.call('internalTransferAlias', { body });
  }
  /** Endpoint 12, in the engine's units whatever the provider's. */
  async getCryptoFees() {
    return inEngineUnits(await this.call('getCryptoFees', {}), this.cryptoFeeUnits);
  }
  getCryptoStatus(transactionId: string) {
    return this.call('getCryptoStatus', { params: { transactionId } });
  }
  /** The crypto withdrawal, on the route the provider gave (the spec shows none); refused before anything leaves without one. */
  async createCryptoWithdrawal(body: EndpointRequest<'createCryptoWithdrawal'>) {
    const path = this.cryptoWithdrawPath;
    if (path === undefined) {
      throw new RouteNotConfiguredError(
        "crypto withdrawals are off: the provider's route that creates one is not configured (PAYMENT_API_CRYPTO_WITHDRAW_PATH); nothing was sent",
        { method: 'POST', path: '(none)' },
      );
    }
    return this.call('createCryptoWithdrawal', { body }, { path });
  }

  /**
   * `options`: for an endpoint whose shapes the spec does not show, the route the provider gave (`path`), the
   * request as it goes out once checked (`toWire`), and how its answer is read (`response`).
   */
  private async call<N extends EndpointName, R = EndpointResponse<N>>(
    name: N,
    request: { body?: unknown; query?: unknown; params?: Record<string, string> },
    options: { path?: string; toWire?: (checked: Record<string, unknown>) => unknown; response?: z.ZodType<R> } = {},
  ): Promise<R> {
    const endpoint = endpoints[name];
    const path = fillPath(options.path ?? endpoint.path, request.params ?? {});
    let payload =
      endpoint.requestIn === 'body' ? request.body : endpoint.requestIn === 'query' ? request.query : undefined;
    if (endpoint.request) {
      const checked = endpoint.request.safeParse(payload);
      if (!checked.success) {
        throw new InvalidRequestError(
          `${endpoint.method} ${path}: the request does not match the contract`,
          { method: endpoint.method, path },
          zodIssues(checked.error),
        );
      }
      if (options.toWire) payload = options.toWire(payload as Record<string, unknown>);
    }
    return (await this.transport.send({
      method: endpoint.method,
      path,
      auth: name === 'createDeposit' && this.depositAuth ? this.depositAuth : endpoint.auth,
      ...(endpoint.requestIn === 'body' ? { body: payload } : {}),
      ...(endpoint.requestIn === 'query' ? { query: payload as Record<string, string | number | undefined> } : {}),
      response: options.response ?? endpoint.response,
      movesMoney: MOVES_MONEY.has(name),
      endpoint: name,
    })) as R;
  }
}
