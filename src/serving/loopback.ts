import { isIP } from 'node:net';

/** 127.0.0.0/8 and ::1 (also as an IPv4-mapped address). */
export function isLoopback(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith('127.');
  const lower = address.toLowerCase();
  return lower === '::1' || lower.startsWith('::ffff:127.');
}
