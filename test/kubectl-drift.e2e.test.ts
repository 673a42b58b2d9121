import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useTestServer } from './support/api';
import { kubectl, KUBECTLS } from './support/kubectl';
import { WatchClient } from './support/watch-client';

/**
 * What GitOps tools see right after a `kubectl create` of every example: no drift. `kubectl diff` sends the file
 * as a dry-run patch that sets `annotations: {}`, which the apiserver's Go types leave out (omitempty), and
 * `apply` or a patch that changes nothing after that writes nothing.
 */
jest.setTimeout(180_000);

const { server } = useTestServer();
const EXAMPLES = join(__dirname, '..', 'examples');
const examples = readdirSync(EXAMPLES).filter((file) => file.endsWith('.yaml')).sort();

describe.each(KUBECTLS)('kubectl $tag on every example', (client) => {
  const run = (args: string[]) => kubectl(client, server().url, args);
  const read = async (file: string) => {
    const shown = await run(['get', '-f', file, '-o', 'json']);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(shown.stdout);
  };

  /** The object's `<resource>.<version>.<group>/<name>` for kubectl, so that it fetches the object itself. */
  const ref = ({ kind, apiVersion, metadata }: any) => {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    return group ? `${kind.toLowerCase()}.${version}.${group}/${metadata.name}` : `${kind.toLowerCase()}/${metadata.name}`;
  };

  it.each(examples)('%s: diff after create shows nothing; an empty patch and a second apply write nothing', async (example) => {
    const file = join(EXAMPLES, example);
    expect((await run(['create', '-f', file])).code).toBe(0);
    try {
      const created = await read(file);
      const { selfLink, name, resourceVersion } = created.metadata;
      expect(await run(['diff', '-f', file])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect((await read(file)).metadata.resourceVersion).toBe(resourceVersion);

      const collection = selfLink.slice(0, selfLink.lastIndexOf('/'));
      const query = `watch=true&fieldSelector=metadata.name=${name}&resourceVersion=${resourceVersion}`;
      const watch = await WatchClient.open(server().url, `${collection}?${query}`);
      try {
        const patched = await run(['patch', ref(created), '--type=merge', '-p', '{"metadata":{"annotations":{}}}']);
        expect(patched).toMatchObject({ code: 0, stdout: expect.stringContaining('patched (no change)') });
        expect(await read(file)).toEqual(created);
        // the next event the watch gets is the next real change
        expect((await run(['label', ref(created), 'drift=checked'])).code).toBe(0);
        const [first] = await watch.count(1);
        expect(first.type).toBe('MODIFIED');
        expect(first.object.metadata.labels).toMatchObject({ drift: 'checked' });
      } finally {
        watch.close();
      }

      // the first apply writes the last-applied annotation; then diff shows nothing and a second apply writes nothing
      const labelled = (await read(file)).metadata.resourceVersion;
      expect((await run(['apply', '-f', file])).code).toBe(0);
      const applied = (await read(file)).metadata.resourceVersion;
      expect(applied).not.toBe(labelled);
      expect(await run(['diff', '-f', file])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect((await run(['apply', '-f', file])).code).toBe(0);
      expect((await read(file)).metadata.resourceVersion).toBe(applied);
    } finally {
      await run(['delete', '-f', file, '--wait']);
    }
  });
});
