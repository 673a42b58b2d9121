import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { getHealthz } from '../src/controllers/cluster/healthz-probe';

/** The cluster controller's probe of a member's /healthz, against members that answer slowly or not at all. */
let server: Server;
let base: URL;
let behaviour: 'ok' | 'trickle' | 'silent' = 'ok';

beforeAll(async () => {
  server = createServer((_request, res) => {
    if (behaviour === 'silent') return;
    res.writeHead(200, { 'content-type': 'text/plain' });
    if (behaviour === 'ok') return void res.end('ok');
    // a byte every 50 ms, never ending: each gap is far below any idle timeout
    const timer = setInterval(() => res.write('o'), 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const probe = () => getHealthz(base, {}, new AbortController().signal, 400);

it('reads the answer of a member that answers', async () => {
  behaviour = 'ok';
  expect(await probe()).toEqual({ body: 'ok' });
});

it('gives up on a member that keeps sending a byte now and then once the whole answer is late', async () => {
  behaviour = 'trickle';
  const started = Date.now();
  expect(await probe()).toEqual({ error: 'no answer within 400 ms' });
  expect(Date.now() - started).toBeLessThan(2000);
});

it('gives up on a member that never answers', async () => {
  behaviour = 'silent';
  expect(await probe()).toEqual({ error: 'no answer within 400 ms' });
});
