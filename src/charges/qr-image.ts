/** The picture of a charge's BR Code that the API answers beside its text: a PNG data URL. */
import { toDataURL } from 'qrcode';

export function qrImage(code: string): Promise<string> {
  return toDataURL(code, { errorCorrectionLevel: 'M', margin: 2 });
}
