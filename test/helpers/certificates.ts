/** Keys and certificates a test makes with openssl: P-256 keys, certificates valid one day. */
import { execFileSync } from 'node:child_process';

const NEW_P256_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A new key at `keyFile`, and at `certFile` a certificate it signs itself for `subject` (`/CN=…`); `extra`: more `req` options. */
export function selfSignedCertificate(keyFile: string, certFile: string, subject: string, extra: string[] = []): void {
  execFileSync(
    'openssl',
    ['req', '-x509', ...NEW_P256_KEY, '-days', '1', '-subj', subject, ...extra, '-keyout', keyFile, '-out', certFile],
    { stdio: 'ignore' },
  );
}

/** A new key at `keyFile` and, at `csrFile`, its request for a certificate naming `subject`. */
export function certificateRequest(keyFile: string, csrFile: string, subject: string): void {
  execFileSync('openssl', ['req', ...NEW_P256_KEY, '-subj', subject, '-keyout', keyFile, '-out', csrFile], {
    stdio: 'ignore',
  });
}
