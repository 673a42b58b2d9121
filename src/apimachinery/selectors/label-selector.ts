import { apiErrors } from '../errors/status-error';
import { labelValue, qualifiedName } from '../validation/names';

export type LabelOperator = 'exists' | '!' | '=' | '!=' | 'in' | 'notin' | '>' | '<';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** sorted and unique for in/notin; one value for =, != and the integer comparisons; none for exists and ! */
  values: string[];
}

type Token =
  | { kind: 'identifier'; text: string }
  | { kind: 'operator'; text: '=' | '==' | '!=' | '!' | '>' | '<' }
  | { kind: 'open' | 'close' | 'comma' | 'end'; text: string };

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = /\s/;

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (WHITESPACE.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c === '(' ? 'open' : c === ')' ? 'close' : 'comma', text: c });
      i++;
    } else if (c === '=' || c === '!' || c === '>' || c === '<') {
      const two = input.slice(i, i + 2);
      if (two === '==' || two === '!=') {
        tokens.push({ kind: 'operator', text: two });
        i += 2;
      } else {
        tokens.push({ kind: 'operator', text: c as '=' | '!' | '>' | '<' });
        i++;
      }
    } else {
      let j = i;
      while (j < input.length && !SPECIAL.has(input[j]) && !WHITESPACE.test(input[j])) j++;
      tokens.push({ kind: 'identifier', text: input.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

const describe = (t: Token) => (t.kind === 'end' ? "''" : `'${t.text}'`);

class Parser {
  private position = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    if (this.peek().kind === 'end') return requirements;
    for (;;) {
      requirements.push(this.requirement());
      const next = this.next();
      if (next.kind === 'end') break;
      if (next.kind !== 'comma') throw this.error(`found ${describe(next)}, expected: ',' or 'end of string'`);
      if (this.peek().kind === 'end') throw this.error(`found '', expected: identifier after ','`);
    }
    return requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private requirement(): LabelRequirement {
    let negated = false;
    if (this.peek().kind === 'operator' && this.peek().text === '!') {
      this.next();
      negated = true;
    }
    const keyToken = this.next();
    if (keyToken.kind !== 'identifier') throw this.error(`found ${describe(keyToken)}, expected: identifier`);
    const key = keyToken.text;
    const keyErrors = qualifiedName(key);
    if (keyErrors.length > 0) throw this.error(`invalid label key "${key}": ${keyErrors.join('; ')}`);
    const after = this.peek();
    if (negated) {
      if (after.kind !== 'end' && after.kind !== 'comma') {
        throw this.error(`found ${describe(after)}, expected: ',' or 'end of string'`);
      }
      return { key, operator: '!', values: [] };
    }
    if (after.kind === 'end' || after.kind === 'comma') return { key, operator: 'exists', values: [] };
    const op = this.next();
    if (op.kind === 'identifier' && (op.text === 'in' || op.text === 'notin')) {
      return { key, operator: op.text, values: this.valueSet() };
    }
    if (op.kind !== 'operator' || op.text === '!') {
      throw this.error(`found ${describe(op)}, expected: in, notin, =, ==, !=, gt, lt`);
    }
    const operator: LabelOperator = op.text === '==' ? '=' : op.text;
    const valueToken = this.peek();
    const value = valueToken.kind === 'identifier' ? (this.next(), valueToken.text) : '';
    if (operator === '>' || operator === '<') {
      if (!/^[+-]?\d+$/.test(value)) throw this.error(`for 'Gt', 'Lt' operators, the value must be an integer`);
    } else {
      this.checkValue(value);
    }
    return { key, operator, values: [value] };
  }

  private valueSet(): string[] {
    const open = this.next();
    if (open.kind !== 'open') throw this.error(`found ${describe(open)}, expected: '('`);
    const values = new Set<string>();
    for (;;) {
      const token = this.peek();
      let value = '';
      if (token.kind === 'identifier') {
        this.next();
        value = token.text;
      }
      this.checkValue(value);
      values.add(value);
      const separator = this.next();
      if (separator.kind === 'close') break;
      if (separator.kind !== 'comma') throw this.error(`found ${describe(separator)}, expected: ',', or ')'`);
    }
    return [...values].sort();
  }

  private checkValue(value: string): void {
    const errors = labelValue(value);
    if (errors.length > 0) throw this.error(`invalid label value: "${value}": ${errors.join('; ')}`);
  }

  private peek(): Token {
    return this.tokens[this.position];
  }

  private next(): Token {
    const token = this.tokens[this.position];
    if (this.position < this.tokens.length - 1) this.position++;
    return token;
  }

  private error(message: string) {
    return apiErrors.badRequest(`unable to parse requirement: ${message}`);
  }
}

/** Parses a labelSelector as upstream's `labels.Parse`; a malformed one is a 400 naming the problem. */
export function parseLabelSelector(input: string): LabelRequirement[] {
  return new Parser(tokenize(input)).parse();
}

/** Whether a set of labels satisfies every requirement. */
export function matchesLabels(requirements: readonly LabelRequirement[], labels: Record<string, string> | null | undefined): boolean {
  const set = labels ?? {};
  return requirements.every(({ key, operator, values }) => {
    const has = Object.prototype.hasOwnProperty.call(set, key);
    const value = set[key];
    switch (operator) {
      case 'exists':
        return has;
      case '!':
        return !has;
      case '=':
        return has && value === values[0];
      case '!=':
        return !has || value !== values[0];
      case 'in':
        return has && values.includes(value);
      case 'notin':
        return !has || !values.includes(value);
      case '>':
      case '<': {
        if (!has || !/^[+-]?\d+$/.test(value)) return false;
        const [a, b] = [BigInt(value), BigInt(values[0])];
        return operator === '>' ? a > b : a < b;
      }
    }
  });
}
