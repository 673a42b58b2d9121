import { Binding, Subject, SUBJECT_KINDS } from '../../../apis/rbac/policy/binding.schema';
import { UserInfo } from '../../../apimachinery/authentication/user-info';

/** The key a subject is found by: a user (a service account is the user named after it) or a group. */
function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case SUBJECT_KINDS.user:
      return `u:${subject.name}`;
    case SUBJECT_KINDS.group:
      return `g:${subject.name}`;
    case SUBJECT_KINDS.serviceAccount:
      return `u:system:serviceaccount:${subject.namespace || bindingNamespace}:${subject.name}`;
    default:
      return undefined;
  }
}

/** The keys a user is found under: its name and each of its groups. */
export const userKeys = (user: UserInfo): string[] => [`u:${user.username}`, ...user.groups.map((group) => `g:${group}`)];

/**
 * Bindings (RoleBindings by namespace, ClusterRoleBindings under '') indexed by their subjects, so that finding a
 * user's bindings costs a few map lookups however many bindings there are.
 */
export class BindingTable {
  private readonly bindings = new Map<string, Binding>();
  private readonly bySubject = new Map<string, Map<string, Set<string>>>();

  set(binding: Binding): void {
    const key = BindingTable.key(binding);
    this.delete(key);
    this.bindings.set(key, binding);
    const namespace = binding.metadata.namespace ?? '';
    let subjects = this.bySubject.get(namespace);
    if (!subjects) this.bySubject.set(namespace, (subjects = new Map()));
    for (const subject of binding.subjects ?? []) {
      const sk = subjectKey(subject, namespace);
      if (!sk) continue;
      let keys = subjects.get(sk);
      if (!keys) subjects.set(sk, (keys = new Set()));
      keys.add(key);
    }
  }

  delete(key: string): void {
    const old = this.bindings.get(key);
    if (!old) return;
    this.bindings.delete(key);
    const namespace = old.metadata.namespace ?? '';
    const subjects = this.bySubject.get(namespace);
    for (const subject of old.subjects ?? []) {
      const sk = subjectKey(subject, namespace);
      const keys = sk === undefined ? undefined : subjects?.get(sk);
      keys?.delete(key);
      if (keys?.size === 0) subjects?.delete(sk as string);
    }
    if (subjects?.size === 0) this.bySubject.delete(namespace);
  }

  /** The bindings of `namespace` ('' for cluster bindings) that name one of the user's keys, each once. */
  find(namespace: string, keys: readonly string[]): Binding[] {
    const subjects = this.bySubject.get(namespace);
    if (!subjects) return [];
    const found = new Set<string>();
    for (const key of keys) for (const binding of subjects.get(key) ?? []) found.add(binding);
    return [...found].map((key) => this.bindings.get(key) as Binding);
  }

  static key(object: { metadata: { namespace?: string; name?: string } }): string {
    return `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
  }
}
