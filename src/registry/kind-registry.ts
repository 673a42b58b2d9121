import { Injectable } from '@nestjs/common';
import { KindDefinition } from './kind-definition';

export interface ApiGroupVersion {
  group: string;
  version: string;
  /** 1.7 leaves `apiVersion` out of discovery documents of the legacy groups ('' and extensions) */
  legacyDiscovery: boolean;
}

/** A resource served by a controller of its own rather than the generic store (listed in discovery all the same). */
export interface ApiEndpoint {
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

/**
 * Every served kind: registered by the API group modules at start-up, and added and removed at run time as stored
 * definitions come and go (src/apiextensions). The generic handlers look kinds up here by path; nothing else in the
 * request path knows which kinds exist.
 */
@Injectable()
export class KindRegistry {
  private readonly groups: ApiGroupVersion[] = [];
  private readonly kinds = new Map<string, KindDefinition>();
  private readonly endpoints = new Map<string, ApiEndpoint[]>();
  private changes = 0;

  /** Changes whenever a kind or group version comes or goes: what is derived from the registry compares it. */
  get revision(): number {
    return this.changes;
  }

  registerGroup(groupVersion: ApiGroupVersion, kinds: readonly KindDefinition[]): void {
    if (!this.findGroupVersion(groupVersion.group, groupVersion.version)) this.groups.push(groupVersion);
    for (const kind of kinds) this.kinds.set(KindRegistry.key(kind.group, kind.version, kind.resource), kind);
    this.changes += 1;
  }

  /** Removes a kind; its group version goes too when nothing else is served in it. */
  unregister(kind: KindDefinition): void {
    const key = KindRegistry.key(kind.group, kind.version, kind.resource);
    if (this.kinds.get(key) !== kind) return;
    this.kinds.delete(key);
    if (this.kindsOf(kind.group, kind.version).length === 0 && this.endpointsOf(kind.group, kind.version).length === 0) {
      const index = this.groups.findIndex((g) => g.group === kind.group && g.version === kind.version);
      if (index >= 0) this.groups.splice(index, 1);
    }
    this.changes += 1;
  }

  registerEndpoints(groupVersion: ApiGroupVersion, endpoints: readonly ApiEndpoint[]): void {
    if (!this.findGroupVersion(groupVersion.group, groupVersion.version)) this.groups.push(groupVersion);
    const key = KindRegistry.key(groupVersion.group, groupVersion.version, '');
    this.endpoints.set(key, [...(this.endpoints.get(key) ?? []), ...endpoints]);
    this.changes += 1;
  }

  endpointsOf(group: string, version: string): readonly ApiEndpoint[] {
    return this.endpoints.get(KindRegistry.key(group, version, '')) ?? [];
  }

  find(group: string, version: string, resource: string): KindDefinition | undefined {
    return this.kinds.get(KindRegistry.key(group, version, resource));
  }

  /** Whether a resource of a group version is served, by the generic store or by a controller of its own. */
  serves(group: string, version: string, resource: string): boolean {
    return !!this.find(group, version, resource) || this.endpointsOf(group, version).some((e) => e.resource === resource);
  }

  /** The kind stored under (group, resource), whatever its version. */
  findStored(group: string, resource: string): KindDefinition | undefined {
    return [...this.kinds.values()].find((k) => k.group === group && k.resource === resource);
  }

  /** The kind an apiVersion and kind name (as in an ownerReference) stand for, if this server serves it. */
  findByKind(apiVersion: string, kind: string): KindDefinition | undefined {
    return [...this.kinds.values()].find((k) => k.kind === kind && (k.group ? `${k.group}/${k.version}` : k.version) === apiVersion);
  }

  findGroupVersion(group: string, version?: string): ApiGroupVersion | undefined {
    return this.groups.find((g) => g.group === group && (version === undefined || g.version === version));
  }

  groupVersions(): readonly ApiGroupVersion[] {
    return this.groups;
  }

  kindsOf(group: string, version: string): KindDefinition[] {
    return [...this.kinds.values()].filter((k) => k.group === group && k.version === version);
  }

  private static key(group: string, version: string, resource: string): string {
    return `${group}/${version}/${resource}`;
  }
}
