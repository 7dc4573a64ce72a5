/** A value shared by every request (kept per content version): nothing may change it, down to its last array. */
export type Shared<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer Item)[]
    ? readonly Shared<Item>[]
    : T extends object
      ? { readonly [K in keyof T]: Shared<T[K]> }
      : T
