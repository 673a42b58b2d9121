import { isPlainObject } from '../apimachinery/meta/kube-object';
import { remembered } from '../apimachinery/schema/quantity';

/**
 * One step of a path into an object, written as FieldsV1 writes it: `f:<name>` a struct field or map key,
 * `k:<json>` an item of a list of objects by its key fields, `v:<json>` an item of a set by its value, `i:<n>` an
 * item by its index.
 */
export type PathElement = string;

/** One string per field name: sets, maps and FieldsV1 objects key on it, and a string made anew is hashed anew. */
export const fieldElement = remembered((name: string): PathElement => `f:${name}`);
export const valueElement = (value: unknown): PathElement => `v:${JSON.stringify(value)}`;

/** The element of a list item by its key fields, given in the order of their names (structured-merge-diff's). */
export function keyElement(fields: readonly string[], item: Record<string, unknown>, defaults: Readonly<Record<string, unknown>>): PathElement {
  if (fields.length === 1) {
    const value = item[fields[0]] ?? defaults[fields[0]];
    return value === undefined ? 'k:{}' : `k:{${JSON.stringify(fields[0])}:${JSON.stringify(value)}}`;
  }
  const key: Record<string, unknown> = {};
  for (const name of fields) {
    const value = item[name] ?? defaults[name];
    if (value !== undefined) key[name] = value;
  }
  return `k:${JSON.stringify(key)}`;
}

/** A path element as the apiserver prints it in a conflict: `.name`, `[name="web"]`, `[="value"]`, `[0]`. */
function printElement(element: PathElement): string {
  const body = element.slice(2);
  switch (element[0]) {
    case 'f':
      return `.${body}`;
    case 'k': {
      const key = JSON.parse(body) as Record<string, unknown>;
      return `[${Object.entries(key).map(([name, value]) => `${name}=${printValue(value)}`).join(',')}]`;
    }
    case 'v':
      return `[=${printValue(JSON.parse(body))}]`;
    default:
      return `[${body}]`;
  }
}

const printValue = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

export const printPath = (path: readonly PathElement[]): string => path.map(printElement).join('');

/**
 * A set of paths into an object (structured-merge-diff's fieldpath.Set) kept as a tree: `members` are the paths that
 * end at this node's children, `children` the subtrees below them. A path may be both a member and a parent (a list
 * item owned as such and some of its fields).
 */
export class FieldSet {
  // made when first used: most nodes of a comparison stay empty
  private memberSet?: Set<PathElement>;
  private childMap?: Map<PathElement, FieldSet>;

  get members(): Set<PathElement> {
    return (this.memberSet ??= new Set());
  }

  get children(): Map<PathElement, FieldSet> {
    return (this.childMap ??= new Map());
  }

  insert(path: readonly PathElement[]): void {
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.child(path[i]);
    node.members.add(path[path.length - 1]);
  }

  static of(...paths: (readonly PathElement[])[]): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  has(path: readonly PathElement[]): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.children.get(path[i]);
    return !!node?.members.has(path[path.length - 1]);
  }

  /** The subtree below `element`, made when missing. */
  child(element: PathElement): FieldSet {
    let child = this.children.get(element);
    if (!child) this.children.set(element, (child = new FieldSet()));
    return child;
  }

  isEmpty(): boolean {
    return !this.memberSet?.size && !this.childMap?.size;
  }

  /** The union; subtrees only one side has are shared with it, as sets are not changed once made. */
  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const out = new FieldSet();
    for (const member of this.members) out.members.add(member);
    for (const member of other.members) out.members.add(member);
    for (const [element, below] of this.children) {
      const theirs = other.children.get(element);
      out.children.set(element, theirs ? below.union(theirs) : below);
    }
    for (const [element, below] of other.children) if (!this.children.has(element)) out.children.set(element, below);
    return out;
  }

  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const member of this.members) if (!other.members.has(member)) out.members.add(member);
    for (const [element, below] of this.children) {
      const theirs = other.children.get(element);
      const rest = theirs ? below.difference(theirs) : below;
      if (!rest.isEmpty()) out.children.set(element, rest);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const member of this.members) if (other.members.has(member)) out.members.add(member);
    for (const [element, below] of this.children) {
      const theirs = other.children.get(element);
      if (!theirs) continue;
      const both = below.intersection(theirs);
      if (!both.isEmpty()) out.children.set(element, both);
    }
    return out;
  }

  /** This set without the paths `prefixes` holds and everything below them. */
  withoutPrefixes(prefixes: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const member of this.members) if (!prefixes.members.has(member)) out.members.add(member);
    for (const [element, below] of this.children) {
      if (prefixes.members.has(element)) continue;
      const theirs = prefixes.children.get(element);
      const rest = theirs ? below.withoutPrefixes(theirs) : below;
      if (!rest.isEmpty()) out.children.set(element, rest);
    }
    return out;
  }

  /** Every member path, depth first in the order the set is written in. */
  paths(prefix: PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    for (const element of this.elements()) {
      if (this.members.has(element)) out.push([...prefix, element]);
      const below = this.children.get(element);
      if (below) out.push(...below.paths([...prefix, element]));
    }
    return out;
  }

  /** The node's elements in the order they are written in: sorted (one node holds elements of one sort only). */
  private elements(): PathElement[] {
    const all = this.memberSet ? [...this.memberSet] : [];
    if (this.childMap) for (const element of this.childMap.keys()) if (!this.memberSet?.has(element)) all.push(element);
    return all.length > 1 ? all.sort() : all;
  }

  /** Whether a FieldsV1 tree holds any path of this set, read without decoding the tree. */
  meets(fieldsV1: Readonly<Record<string, unknown>>): boolean {
    for (const member of this.members) {
      const theirs = fieldsV1[member];
      if (isPlainObject(theirs) && (Object.hasOwn(theirs, '.') || Object.keys(theirs).length === 0)) return true;
    }
    for (const [element, below] of this.children) {
      const theirs = fieldsV1[element];
      if (isPlainObject(theirs) && below.meets(theirs)) return true;
    }
    return false;
  }

  /** The FieldsV1 form: each element a member, `{}`, or a parent whose `.` says it is a member too. */
  toFieldsV1(): Record<string, unknown> {
    return this.writeInto({});
  }

  private writeInto(out: Record<string, unknown>): Record<string, unknown> {
    for (const element of this.elements()) {
      const below = this.childMap?.get(element);
      const self = this.memberSet?.has(element);
      out[element] = below ? below.writeInto(self ? { '.': {} } : {}) : {};
    }
    return out;
  }

  /** Reads a FieldsV1 tree; undefined when it is not one. */
  static fromFieldsV1(value: unknown): FieldSet | undefined {
    if (!isPlainObject(value)) return undefined;
    const set = new FieldSet();
    for (const [element, below] of Object.entries(value)) {
      if (!isPlainObject(below) || !/^[fkvi]:/.test(element)) return undefined;
      const entries = Object.keys(below);
      if (entries.length === 0 || Object.hasOwn(below, '.')) set.members.add(element);
      if (entries.some((key) => key !== '.')) {
        const { '.': _self, ...rest } = below;
        const child = FieldSet.fromFieldsV1(rest);
        if (!child) return undefined;
        set.children.set(element, child);
      }
    }
    return set;
  }
}
