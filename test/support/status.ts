import { HttpResult } from './http';

/** The failure Status a response must be: the HTTP code, the code and reason in the body, and its message. */
export function expectFailure(response: HttpResult, code: number, reason: string, message?: string | RegExp): void {
  expect({ status: response.status, contentType: response.headers.get('content-type') }).toEqual({
    status: code,
    contentType: 'application/json',
  });
  expect(response.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason, code });
  if (typeof message === 'string') expect(response.json.message).toBe(message);
  else if (message) expect(response.json.message).toMatch(message);
}
