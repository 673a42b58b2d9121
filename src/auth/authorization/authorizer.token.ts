/** Injection token of the secure port's authorizer (the chain of --authorization-mode). */
export const AUTHORIZER = Symbol('AUTHORIZER');
