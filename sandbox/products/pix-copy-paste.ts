/**
 * Endpoint 5: paying a PIX copy-and-paste (EMV / BR Code) payload. Settles exactly like a withdrawal
 * (same fee, outcome rules and callback mechanism) with its own callback type, PixCopyPaste.
 */
import { BrCodeError, parseBrCode, type ParsedBrCode } from '../../src/pix/brcode';
import { centavosToReais, reaisToCentavos } from '../../src/money/centavos';
import { providerError } from '../http/errors';
import { fingerprintOf, maskPixKey, pixOutAccepted, pixOutFamily, pixOutProduct } from './pix-out';

function parseCode(qrcode: string): ParsedBrCode {
  try {
    return parseBrCode(qrcode);
  } catch (error) {
    if (error instanceof BrCodeError)
      throw providerError('INVALID_QRCODE', `qrcode is not a valid PIX copy-and-paste code: ${error.message}`);
    throw error;
  }
}

/** The code's amount wins; the body's amount is needed only when the code has none, and must agree otherwise. */
function amountToPay(code: ParsedBrCode, bodyAmount: number | undefined): number {
  const bodyCents = bodyAmount === undefined ? undefined : reaisToCentavos(bodyAmount);
  if (code.amountCentavos === undefined) {
    if (bodyCents === undefined)
      throw providerError('AMOUNT_MISMATCH', 'The code carries no amount: send amount in the request');
    return bodyCents;
  }
  if (bodyCents !== undefined && bodyCents !== code.amountCentavos) {
    throw providerError(
      'AMOUNT_MISMATCH',
      `amount ${bodyAmount} differs from the code's amount ${centavosToReais(code.amountCentavos)}`,
    );
  }
  return code.amountCentavos;
}

export const pixCopyPasteProduct = pixOutProduct(
  { product: 'pix-copy-paste', route: 'payPixCopyPaste' },
  pixOutFamily('PixCopyPaste'),
  {
    read(input) {
      const code = parseCode(input.qrcode);
      const amountCents = amountToPay(code, input.amount);
      return {
        externalId: input.external_id,
        amountCents,
        matchOnReplay: [fingerprintOf([input.qrcode]), amountCents, input.clientCallbackUrl, input.description ?? ''],
        callbackUrl: input.clientCallbackUrl,
        details: {
          merchantName: code.merchantName,
          merchantCity: code.merchantCity,
          ...(code.pixKey !== undefined ? { pixKeyMasked: maskPixKey(code.pixKey) } : {}),
          ...(code.txid !== undefined ? { txid: code.txid } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
        },
      };
    },
    answer: (operation) =>
      pixOutAccepted(
        'PIX copy-and-paste payment received and is being processed',
        'payment',
        operation,
        'PixCopyPaste',
      ),
  },
);
