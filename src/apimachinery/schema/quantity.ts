/**
 * Kubernetes resource quantities ("500m", "1.5Gi", "1e3"): parsed exactly (units × 10^exponent) and written in
 * the apiserver's canonical form, which is what a response carries whatever the client wrote.
 */
type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  units: bigint;
  exponent: number;
  format: Format;
}

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const SYNTAX = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/;
/** The apiserver keeps no more than nano precision, rounding up. */
const NANO = -9;

const pow10 = (n: number) => 10n ** BigInt(n);

/** Divides, rounding away from zero (the apiserver's RoundUp). */
function divideAwayFromZero(units: bigint, divisor: bigint): bigint {
  const quotient = units / divisor;
  if (quotient * divisor === units) return quotient;
  return units < 0n ? quotient - 1n : quotient + 1n;
}

const digits = (units: bigint) => (units < 0n ? -units : units).toString().length;
const sign = (units: bigint) => (units > 0n ? 1 : units < 0n ? -1 : 0);

/** The quantity at `scale` (a power of ten) or coarser, rounded up as the apiserver rounds. */
export function roundUp(q: Quantity, scale: number): Quantity {
  if (q.exponent >= scale) return q;
  // a value below one unit of the scale rounds to one unit (or stays 0), without computing a huge power of ten
  if (scale - q.exponent > digits(q.units)) return { ...q, units: BigInt(sign(q.units)), exponent: scale };
  return { ...q, units: divideAwayFromZero(q.units, pow10(scale - q.exponent)), exponent: scale };
}

function readQuantity(text: string): Quantity {
  const match = SYNTAX.exec(text.trim());
  if (!match) throw new Error(QUANTITY_FORMAT_ERROR);
  const [, sign, whole, fraction = '', suffix] = match;
  if (whole.length + fraction.length === 0) throw new Error(QUANTITY_FORMAT_ERROR);
  let units = BigInt(`${whole}${fraction}` || '0');
  if (sign === '-') units = -units;
  let exponent = -fraction.length;
  let format: Format;
  const binary = BINARY_SUFFIXES.indexOf(suffix);
  if (suffix in DECIMAL_SUFFIXES) {
    format = 'DecimalSI';
    exponent += DECIMAL_SUFFIXES[suffix];
  } else if (binary > 0) {
    format = 'BinarySI';
    units *= 1024n ** BigInt(binary);
  } else if (/^[eE][+-]?\d+$/.test(suffix)) {
    format = 'DecimalExponent';
    exponent += Number(suffix.slice(1));
  } else {
    throw new Error(/^[eEinumkKMGTP]*[-+]?\d*$/.test(suffix) ? "unable to parse quantity's suffix" : QUANTITY_FORMAT_ERROR);
  }
  const parsed = roundUp({ units, exponent, format }, NANO);
  if (format === 'BinarySI' && compareQuantities(abs(parsed), { units: 1n, exponent: 0, format }) < 0) {
    return { ...parsed, format: 'DecimalSI' };
  }
  return parsed;
}

const abs = (q: Quantity): Quantity => ({ ...q, units: q.units < 0n ? -q.units : q.units });

export function compareQuantities(a: Quantity, b: Quantity): number {
  if (sign(a.units) !== sign(b.units)) return sign(a.units) < sign(b.units) ? -1 : 1;
  // of two values of one sign, the one with more digits before the point is larger in magnitude
  const magnitude = (q: Quantity) => digits(q.units) + q.exponent;
  if (sign(a.units) !== 0 && magnitude(a) !== magnitude(b)) return (magnitude(a) < magnitude(b) ? -1 : 1) * sign(a.units);
  const scale = Math.min(a.exponent, b.exponent);
  const left = a.units * pow10(a.exponent - scale);
  const right = b.units * pow10(b.exponent - scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The integer value, or undefined when the quantity has a fraction. */
function integerValue(q: Quantity): bigint | undefined {
  if (q.exponent >= 0) return q.units * pow10(q.exponent);
  const divisor = pow10(-q.exponent);
  return q.units % divisor === 0n ? q.units / divisor : undefined;
}

function formatBinary(value: bigint): string {
  let amount = value;
  let power = 0;
  while (power < BINARY_SUFFIXES.length - 1 && amount % 1024n === 0n) {
    amount /= 1024n;
    power++;
  }
  return `${amount}${BINARY_SUFFIXES[power]}`;
}

function formatDecimal(q: Quantity): string {
  let { units, exponent } = q;
  while (units % 10n === 0n) {
    units /= 10n;
    exponent++;
  }
  // the exponent is brought down to a multiple of 3, as SI suffixes need
  const excess = ((exponent % 3) + 3) % 3;
  units *= pow10(excess);
  exponent -= excess;
  if (q.format === 'DecimalSI') {
    const suffix = Object.entries(DECIMAL_SUFFIXES).find(([, e]) => e === exponent)?.[0];
    if (suffix !== undefined) return `${units}${suffix}`;
  }
  return exponent === 0 ? `${units}` : `${units}e${exponent}`;
}

/** The canonical text of a quantity, as the apiserver writes it. */
export function formatQuantity(q: Quantity): string {
  if (q.units === 0n) return '0';
  if (q.format === 'BinarySI') {
    const value = integerValue(q);
    const small = value !== undefined && value > -1024n && value < 1024n;
    if (value !== undefined && !small) return formatBinary(value);
    return formatDecimal({ ...q, format: 'DecimalSI' });
  }
  return formatDecimal(q);
}

/**
 * `convert` (of a quantity's text: its parse, its canonical form) remembering its last 4,096 answers: the same few
 * quantities (`250m`, `512Mi`) come in most bodies. A text it throws on is not remembered.
 */
export function remembered<T>(convert: (text: string) => T): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = convert(text);
      if (answers.size >= 4096) answers.clear();
      answers.set(text, answer);
    }
    return answer;
  };
}

/** Parses a quantity (never to be changed: answers are shared); throws an Error with the apiserver's message when it is not one. */
export const parseQuantity = remembered((text) => Object.freeze(readQuantity(text)));
