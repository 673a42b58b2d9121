import { StatusError } from '../../src/apimachinery/errors/status-error';
import { applyJsonPatch } from '../../src/apimachinery/patch/json-patch';

const refusal = (document: unknown, patch: unknown): string => {
  try {
    applyJsonPatch(document, patch);
  } catch (error) {
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).code).toBe(400);
    return (error as StatusError).message;
  }
  throw new Error('the patch applied');
};

describe('applyJsonPatch (RFC 6902)', () => {
  const doc = { spec: { replicas: 1, list: ['a', 'b'] }, metadata: { labels: { x: 'y' } } };

  it.each([
    [[{ op: 'add', path: '/spec/paused', value: true }], { spec: { replicas: 1, list: ['a', 'b'], paused: true } }],
    [[{ op: 'add', path: '/spec/list/1', value: 'z' }], { spec: { replicas: 1, list: ['a', 'z', 'b'] } }],
    [[{ op: 'add', path: '/spec/list/-', value: 'z' }], { spec: { replicas: 1, list: ['a', 'b', 'z'] } }],
    [[{ op: 'remove', path: '/spec/list/0' }], { spec: { replicas: 1, list: ['b'] } }],
    [[{ op: 'replace', path: '/spec/replicas', value: 3 }], { spec: { replicas: 3, list: ['a', 'b'] } }],
    [[{ op: 'move', from: '/spec/list', path: '/spec/moved' }], { spec: { replicas: 1, moved: ['a', 'b'] } }],
    [[{ op: 'copy', from: '/spec/replicas', path: '/spec/copy' }], { spec: { replicas: 1, list: ['a', 'b'], copy: 1 } }],
    [[{ op: 'test', path: '/spec/replicas', value: 1 }], { spec: { replicas: 1, list: ['a', 'b'] } }],
  ])('%j', (patch, expectedSpec) => {
    expect(applyJsonPatch(doc, patch)).toEqual({ ...doc, ...expectedSpec });
  });

  it('reads ~0 and ~1 as ~ and /', () => {
    const patched = applyJsonPatch(doc, [{ op: 'add', path: '/metadata/labels/example.com~1a~0b', value: 'v' }]);
    expect(patched).toEqual({ ...doc, metadata: { labels: { x: 'y', 'example.com/a~b': 'v' } } });
  });

  it('leaves the document unchanged', () => {
    const before = structuredClone(doc);
    applyJsonPatch(doc, [{ op: 'remove', path: '/spec' }]);
    expect(doc).toEqual(before);
  });

  it.each([
    [{ op: 'add', path: '/spec' }],
    [{ op: 'test', path: '/spec/replicas', value: 2 }],
    [{ op: 'remove', path: '/spec/missing' }],
    [{ op: 'replace', path: '/spec/list/7', value: 1 }],
  ])('fails the whole patch with 400 when %j cannot apply', (operation) => {
    expect(refusal(doc, [{ op: 'replace', path: '/spec/replicas', value: 9 }, operation])).toContain('operation 1');
  });

  it.each([
    [{ a: 1 }, 'a JSON patch must be a JSON array of operations'],
    [[{ op: '_get', path: '/spec' }], 'unknown operation'],
    [[{ op: 'move', from: '/spec', path: '/spec/inner' }], 'a value cannot be moved into itself'],
  ])('refuses %j', (patch, wording) => {
    expect(refusal(doc, patch)).toContain(wording);
  });
});
