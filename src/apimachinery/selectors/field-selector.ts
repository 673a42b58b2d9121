import { apiErrors } from '../errors/status-error';

export interface FieldTerm {
  field: string;
  operator: '=' | '!=';
  value: string;
}

const OPERATORS = ['!=', '==', '='] as const;

/** Splits on commas that are not escaped with a backslash; empty terms are skipped. */
function splitTerms(input: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === '\\' && i + 1 < input.length) {
      current += c + input[i + 1];
      i++;
    } else if (c === ',') {
      terms.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  terms.push(current);
  return terms.filter((t) => t.length > 0);
}

function unescapeValue(raw: string): string {
  let value = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') {
      const next = raw[i + 1];
      if (next !== '\\' && next !== ',' && next !== '=') {
        throw apiErrors.badRequest(`invalid field selector: invalid escape sequence: ${raw.slice(i, i + 2)}`);
      }
      value += next;
      i++;
    } else if (c === '=' || c === ',') {
      throw apiErrors.badRequest(`invalid field selector: unescaped character in value: ${c}`);
    } else {
      value += c;
    }
  }
  return value;
}

/**
 * Parses a fieldSelector as upstream's `fields.ParseSelector`: terms `field=value`, `field==value` or `field!=value`,
 * ANDed.
 */
export function parseFieldSelector(input: string): FieldTerm[] {
  return splitTerms(input).map((term) => {
    for (let i = 0; i < term.length; i++) {
      const operator = OPERATORS.find((op) => term.startsWith(op, i));
      if (operator) {
        return {
          field: term.slice(0, i),
          operator: operator === '!=' ? '!=' : '=',
          value: unescapeValue(term.slice(i + operator.length)),
        };
      }
    }
    throw apiErrors.badRequest(`invalid selector: '${input}'; can't understand '${term}'`);
  });
}
