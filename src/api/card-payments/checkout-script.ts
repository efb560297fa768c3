/**
 * The checkout page's script (checkout.js beside this file, browser code linted as such), read once at start and
 * served as GET /checkout/assets/checkout.js.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const CHECKOUT_SCRIPT = readFileSync(path.join(__dirname, 'checkout.js'), 'utf8');
