import { KubeObject } from '../apimachinery/meta/kube-object';
import { FieldSet } from './field-set';
import { Comparison, compare } from './typed-value';
import { VersionConverter } from './version-converter';

/** What a write changed in one version: the fields it set or changed, and those it removed. */
export interface VersionChange {
  changed: FieldSet;
  removed: FieldSet;
}

/**
 * One write's change, compared in the version of the request and, as managers of other versions ask, in theirs
 * (structured-merge-diff's Updater compares the old and new objects converted to each manager's version).
 */
export class VersionedChange {
  private readonly byVersion = new Map<string, VersionChange | undefined>();

  constructor(
    /** the comparison in the request's version, without what the path resets */
    readonly comparison: Comparison,
    private readonly apiVersion: string,
    private readonly versions: VersionConverter | undefined,
    private readonly before: KubeObject | undefined,
    private readonly after: KubeObject,
  ) {}

  /** The change in `apiVersion`; undefined when the objects are not served in it (its managers go, as upstream's). */
  in(apiVersion: string): VersionChange | undefined {
    if (!this.versions) apiVersion = this.apiVersion; // with no other versions known, every manager reads as the request's
    if (this.byVersion.has(apiVersion)) return this.byVersion.get(apiVersion);
    const change = apiVersion === this.apiVersion ? changeOf(this.comparison) : this.compareIn(this.versions as VersionConverter, apiVersion);
    this.byVersion.set(apiVersion, change);
    return change;
  }

  private compareIn(versions: VersionConverter, apiVersion: string): VersionChange | undefined {
    const form = versions.form(apiVersion);
    if (!form) return undefined;
    const before = this.before ? versions.convert(this.before, this.apiVersion, apiVersion) : { metadata: {} };
    const { added, modified, removed } = compare(before, versions.convert(this.after, this.apiVersion, apiVersion), form.type);
    return changeOf(new Comparison(added.withoutPrefixes(form.reset), modified.withoutPrefixes(form.reset), removed.withoutPrefixes(form.reset)));
  }
}

const changeOf = (comparison: Comparison): VersionChange => ({ changed: comparison.added.union(comparison.modified), removed: comparison.removed });
