import { StatusError } from '../../src/apimachinery/errors/status-error';
import { decodeContinue, encodeContinue } from '../../src/registry/store/continue-token';

const refusal = (token: string): string => {
  try {
    decodeContinue(token);
  } catch (error) {
    expect(error).toBeInstanceOf(StatusError);
    return (error as StatusError).message;
  }
  throw new Error(`${token} was accepted`);
};

it('reads back the tokens it writes', () => {
  const token = encodeContinue({ resourceVersion: 42n, after: { namespace: 'a', name: 'b' } });
  expect(decodeContinue(token)).toEqual({ resourceVersion: 42n, after: { namespace: 'a', name: 'b' } });
});

it('names what is wrong with a token that is not one, without echoing its bytes', () => {
  const binary = Buffer.from([0xc3, 0x28, 0x9e, 0x7e, 0x6b, 0xff, 0x68, 0x01]).toString('base64url');
  for (const token of [binary, '%%%', 'bm90IGpzb24']) {
    const message = refusal(token);
    expect(message).toBe('invalid continue token: continue key is not valid: not base64url-encoded JSON');
  }
});
