import { COMMON_FIELD_LABELS, fieldLabelValue, statusCountLabel } from '../../src/apimachinery/selectors/field-labels';
import { KubeObject } from '../../src/apimachinery/meta/kube-object';
import { fieldLabelSql } from '../../src/storage/objects/field-label-sql';

const object = (status?: Record<string, unknown>): KubeObject => ({ metadata: { name: 'web', namespace: 'prod' }, ...(status ? { status } : {}) });

describe('fieldLabelValue', () => {
  it('reads the field at the path as text', () => {
    expect(fieldLabelValue(COMMON_FIELD_LABELS['metadata.name'], object())).toBe('web');
    expect(fieldLabelValue(statusCountLabel('replicas'), object({ replicas: 3 }))).toBe('3');
  });

  it('gives the absent value for a field that is missing or null, or under one that is', () => {
    expect(fieldLabelValue(statusCountLabel('replicas'), object())).toBe('0');
    expect(fieldLabelValue(statusCountLabel('replicas'), object({ replicas: null }))).toBe('0');
    expect(fieldLabelValue(COMMON_FIELD_LABELS['metadata.namespace'], { metadata: { name: 'node' } })).toBe('');
  });
});

describe('fieldLabelSql', () => {
  it('compares the generated column of a path the objects table holds as one (its primary key serves it)', () => {
    expect(fieldLabelSql(COMMON_FIELD_LABELS['metadata.name'])).toBe('name');
    expect(fieldLabelSql(COMMON_FIELD_LABELS['metadata.namespace'])).toBe('namespace');
  });

  it('reads any other path from the body, with the absent value as a literal', () => {
    expect(fieldLabelSql(statusCountLabel('replicas'))).toBe(`COALESCE(body #>> '{status,replicas}', '0')`);
    expect(fieldLabelSql({ path: ['spec', 'nodeName'], absent: "it's" })).toBe(`COALESCE(body #>> '{spec,nodeName}', 'it''s')`);
    expect(fieldLabelSql({ path: ['metadata', 'name'], absent: 'none' })).toBe(`COALESCE(body #>> '{metadata,name}', 'none')`);
  });

  it('refuses a path whose keys would not be plain text in the statement', () => {
    expect(() => fieldLabelSql({ path: ['status', "x}'"], absent: '' })).toThrow(/plain names/);
  });
});
