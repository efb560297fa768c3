/**
 * @fnando/cnpj's CommonJS build (its main entry is an ES module, which this CommonJS project cannot
 * require): the two functions used here, as its own es/index.d.ts declares them.
 */
declare module '@fnando/cnpj/commonjs' {
  /** True when the 14 characters (12 digits or capital letters, then 2 digits) carry their check digits; strict: only `.`, `/`, `-` stripped. */
  export function isValid(cnpj: string, isStrict?: boolean): boolean;
}
