/** The JSON type of a decoded value: object, array, string, number, boolean or null. */
export function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Sets a member as an own property, so that a key such as `__proto__` from a request stays plain data. */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An own member of an object (never one inherited from Object.prototype). */
export function ownMember(source: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}
