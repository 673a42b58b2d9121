import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { flagsOf } from '../src/config/command-line';
import { defaultOf, meaningOf } from '../src/config/help';
import { loadSettings, SETTING_NAMES } from '../src/config/settings';
import { runServerToExit } from './support/test-server-process';

describe('settings from the environment and the command line', () => {
  it('has the documented defaults', () => {
    const settings = loadSettings({});
    expect(settings).toMatchObject({
      INSECURE_BIND_ADDRESS: '127.0.0.1',
      PORT: 8080,
      BIND_ADDRESS: '0.0.0.0',
      SECURE_PORT: 6443,
      ANONYMOUS_AUTH: true,
      MIN_REQUEST_TIMEOUT: 1800,
      MAX_REQUESTS_INFLIGHT: 400,
    });
    expect(settings.DATABASE_URL).toBeUndefined();
  });

  it("takes flags by kube-apiserver's names and by the variables' names, flags over the environment", () => {
    const settings = loadSettings({ PORT: '9000', LOG_LEVEL: 'debug' }, [
      '--insecure-port=9100',
      '--bind-address',
      '10.0.0.1',
      '--anonymous-auth=false',
      '--min-request-timeout=600',
      '--max-mutating-requests-inflight=5',
      '--database-url=postgresql://db/pgkube',
    ]);
    expect(settings).toMatchObject({
      PORT: 9100,
      BIND_ADDRESS: '10.0.0.1',
      ANONYMOUS_AUTH: false,
      MIN_REQUEST_TIMEOUT: 600,
      MAX_MUTATING_REQUESTS_INFLIGHT: 5,
      DATABASE_URL: 'postgresql://db/pgkube',
      LOG_LEVEL: 'debug',
    });
    expect(loadSettings({}, ['--port', '7000', '--insecure-bind-address=::1'])).toMatchObject({ PORT: 7000, INSECURE_BIND_ADDRESS: '::1' });
  });

  it.each([
    [{ PORT: 'eighty' }, [], /PORT \(--port, --insecure-port\) = "eighty": PORT must be an integer number/],
    [{ PORT: '70000' }, [], /PORT must not be greater than 65535/],
    [{ BIND_ADDRESS: 'localhost' }, [], /BIND_ADDRESS .* must be an ip address/],
    [{}, ['--anonymous-auth=maybe'], /ANONYMOUS_AUTH .* must be a boolean value/],
    [{ LOG_LEVEL: 'loud' }, [], /LOG_LEVEL .* must be one of the following values: error, warn, log, debug, verbose/],
    [{}, ['--min-request-timeout=0'], /MIN_REQUEST_TIMEOUT \(--min-request-timeout\) = 0: MIN_REQUEST_TIMEOUT must not be less than 1/],
    [{}, ['--max-requests-inflight=-1'], /MAX_REQUESTS_INFLIGHT .* must not be less than 0/],
    [{}, ['--etcd-servers=http://x'], /unknown flag "--etcd-servers=http:\/\/x"; the flags are:\n  --database-url/],
    [{}, ['--port'], /flag --port needs a value/],
  ])('rejects %j %j', (env, argv, message) => {
    expect(() => loadSettings(env, argv as string[])).toThrow(message);
  });

  it('lists every bad setting at once', () => {
    expect(() => loadSettings({ PORT: 'x', DATABASE_POOL_SIZE: '0' })).toThrow(/invalid settings:\n {2}PORT .*\n {2}DATABASE_POOL_SIZE .*must not be less than 1/);
  });
});

describe('the documentation of the settings', () => {
  const read = (file: string) => readFileSync(join(__dirname, '..', file), 'utf8');

  it.each(SETTING_NAMES)('names %s and its flags in .env.example, and in the README as --help describes it', (setting) => {
    const row = read('README.md').split('\n').find((line) => line.startsWith(`| \`${setting}\` |`));
    const defaultCell = defaultOf(setting) === 'unset' ? 'unset' : `\`${defaultOf(setting)}\``;
    const flags = flagsOf(setting).map((flag) => `\`${flag}\``).join(', ');
    expect(row).toBe(`| \`${setting}\` | ${flags} | ${defaultCell} | ${meaningOf(setting)} |`);
    expect(read('.env.example')).toMatch(new RegExp(`^#? ?${setting}=`, 'm'));
    expect(read('.env.example')).toContain(flagsOf(setting)[0]);
  });

  it('has a README row for every setting and no other', () => {
    const rows = read('README.md').split('\n').filter((line) => /^\| `[A-Z_]+` \| `--/.test(line));
    expect(rows.map((line) => line.split('`')[1])).toEqual(SETTING_NAMES);
  });
});

// The first test that runs the server as a process compiles it (tens of seconds on a cold machine).
describe('a server started with bad settings', () => {
  jest.setTimeout(120_000);

  it('stops at once with exit code 1 and a message that names the setting', () => {
    const { code, stderr } = runServerToExit({ DATABASE_URL: 'postgresql://127.0.0.1:1/none' }, ['--port=http']);
    expect(code).toBe(1);
    expect(stderr).toContain('invalid settings:\n  PORT (--port, --insecure-port) = "http": PORT must be an integer number');
  });

  it('refuses to serve plain HTTP beyond loopback unless told to', () => {
    const { code, stderr } = runServerToExit({ DATABASE_URL: 'postgresql://127.0.0.1:1/none' }, ['--insecure-bind-address=0.0.0.0']);
    expect(code).toBe(1);
    expect(stderr).toContain('give --insecure-allow-remote=true to mean it');
  });

  it('prints every flag with its variable, default and meaning for --help and -h, and stops', () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout } = runServerToExit({}, [flag]);
      expect(code).toBe(0);
      for (const setting of SETTING_NAMES) {
        expect(stdout).toContain(`  ${flagsOf(setting).join(', ')}\n      ${setting}, default ${defaultOf(setting)}: ${meaningOf(setting).replace(/`/g, '')}`);
      }
    }
  });

  it('stops at an unknown flag', () => {
    const { code, stderr } = runServerToExit({}, ['--no-such-flag']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^unknown flag "--no-such-flag"/);
  });
});
