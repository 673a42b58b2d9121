import { Injectable } from '@nestjs/common';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { ApiGroupVersion, KindRegistry } from '../../registry/kind-registry';
import { groupVersion } from '../../registry/kind-definition';
import { byVersionPriority } from '../../apimachinery/meta/version-priority';

type Doc = Record<string, unknown>;

/** Discovery documents built from the kind registry. */
@Injectable()
export class DiscoveryService {
  constructor(private readonly registry: KindRegistry) {}

  /** `/api`: the versions of the core group. */
  legacyVersions(serverAddress: string): Doc {
    return {
      kind: 'APIVersions',
      versions: this.registry.groupVersions().filter((g) => g.group === '').map((g) => g.version),
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    };
  }

  /** `/apis`: every named group. */
  groupList(serverAddress: string): Doc {
    const named = this.registry.groupVersions().filter((g) => g.group !== '');
    const groups = [...new Set(named.map((g) => g.group))].map((group) => ({
      ...this.groupBody(group),
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    }));
    return { kind: 'APIGroupList', groups };
  }

  /** `/apis/{group}` */
  group(group: string): Doc {
    const first = this.registry.findGroupVersion(group);
    if (!first || group === '') throw apiErrors.pathNotFound();
    return { kind: 'APIGroup', ...this.typeMeta(first), ...this.groupBody(group), serverAddressByClientCIDRs: null };
  }

  /** `/apis/{group}/{version}` and `/api/{version}`: every resource and subresource with its verbs. */
  resources(group: string, version: string): Doc {
    const gv = this.registry.findGroupVersion(group, version);
    if (!gv) throw apiErrors.pathNotFound();
    const resources = this.registry.kindsOf(group, version).flatMap((def) => {
      const main: Doc = {
        name: def.resource,
        singularName: def.singularName ?? '',
        namespaced: def.namespaced,
        kind: def.kind,
        verbs: [...def.verbs].sort(),
      };
      if (def.shortNames.length > 0) main.shortNames = def.shortNames;
      if (def.categories.length > 0) main.categories = def.categories;
      const subs = def.subresources.map((sub) => {
        const entry: Doc = { name: `${def.resource}/${sub.name}`, singularName: '', namespaced: def.namespaced, kind: sub.kind };
        // 1.7 has no group and version here; later servers name them when the kind is of another group version, which
        // kubectl's scale client needs to write a Scale of core ReplicationControllers (autoscaling/v1)
        const other = sub.kindGroupVersion;
        if (other && (other.group !== group || other.version !== version)) Object.assign(entry, other);
        entry.verbs = [...sub.verbs].sort();
        return entry;
      });
      return [main, ...subs];
    });
    for (const endpoint of this.registry.endpointsOf(group, version)) {
      resources.push({ name: endpoint.resource, singularName: '', namespaced: endpoint.namespaced, kind: endpoint.kind, verbs: [...endpoint.verbs].sort() });
    }
    resources.sort((a, b) => String(a.name).toLowerCase().localeCompare(String(b.name).toLowerCase()));
    return { kind: 'APIResourceList', ...this.typeMeta(gv), groupVersion: groupVersion(gv), resources };
  }

  private groupBody(group: string): Doc {
    const versions = this.registry
      .groupVersions()
      .filter((g) => g.group === group)
      .sort((a, b) => byVersionPriority(a.version, b.version))
      .map((g) => ({ groupVersion: groupVersion(g), version: g.version }));
    return { name: group, versions, preferredVersion: versions[0] };
  }

  /** 1.7 leaves apiVersion out of the legacy groups' discovery documents and writes "v1" for the others. */
  private typeMeta(gv: ApiGroupVersion): Doc {
    return gv.legacyDiscovery ? {} : { apiVersion: 'v1' };
  }
}
