import { JsonLogger } from '../../src/logging/json-logger';

describe('JsonLogger', () => {
  let written: string[];
  let spy: jest.SpyInstance;

  beforeEach(() => {
    written = [];
    spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => spy.mockRestore());

  const lines = () => written.flatMap((chunk) => chunk.trim().split('\n')).map((line) => JSON.parse(line));
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('writes the lines of a turn of the event loop together, once its work is done', async () => {
    const logger = new JsonLogger('log');
    logger.log({ message: 'request', code: 200 }, 'Request');
    logger.log({ message: 'request', code: 404 }, 'Request');
    expect(written).toEqual([]);
    await nextTurn();
    expect(written).toHaveLength(1);
    expect(lines()).toEqual([
      expect.objectContaining({ level: 'log', context: 'Request', message: 'request', code: 200 }),
      expect.objectContaining({ level: 'log', context: 'Request', message: 'request', code: 404 }),
    ]);
  });

  it('writes a warning at once, after the lines gathered before it', async () => {
    const logger = new JsonLogger('log');
    logger.log({ message: 'first' }, 'Request');
    logger.warn({ message: 'second' }, 'InsecureHost');
    expect(lines().map((line) => [line.level, line.message])).toEqual([
      ['log', 'first'],
      ['warn', 'second'],
    ]);
    await nextTurn();
    expect(lines()).toHaveLength(2);
  });

  it('leaves out the levels below its own', async () => {
    const logger = new JsonLogger('warn');
    logger.log({ message: 'request' }, 'Request');
    await nextTurn();
    expect(written).toEqual([]);
  });
});
