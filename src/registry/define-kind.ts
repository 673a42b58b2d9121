import { Provider } from '@nestjs/common';
import { ALL_VERBS, KindDefinition, RollbackBinding, ScaleBinding, SubresourceDefinition, TokenBinding } from './kind-definition';
import { ApiGroupVersion, KindRegistry } from './kind-registry';

type KindFields = Pick<KindDefinition, 'resource' | 'kind' | 'namespaced' | 'strategy'> &
  Partial<Pick<KindDefinition, 'shortNames' | 'categories' | 'verbs' | 'subresources' | 'listKind' | 'columns' | 'wire' | 'singularName' | 'conversion' | 'storedAs' | 'storageConversion' | 'deprecationWarning'>>;

/** A registry row for a kind of a group version; every verb is served unless `verbs` says otherwise. */
export function defineKind(gv: Pick<ApiGroupVersion, 'group' | 'version'>, fields: KindFields): KindDefinition {
  return {
    group: gv.group,
    version: gv.version,
    listKind: `${fields.kind}List`,
    shortNames: [],
    categories: [],
    verbs: ALL_VERBS,
    subresources: [],
    ...fields,
  };
}

/** The `/status` subresource: read and write the status of the object of the same kind. */
export const statusSubresource = (kind: string): SubresourceDefinition => ({
  name: 'status',
  kind,
  verbs: ['get', 'patch', 'update'],
  status: true,
});

/** The `/scale` subresource: the object seen and resized as a Scale. */
export const scaleSubresource = (scale: ScaleBinding): SubresourceDefinition => ({
  name: 'scale',
  kind: 'Scale',
  kindGroupVersion: { group: scale.version.kind.group, version: scale.version.kind.version },
  verbs: ['get', 'patch', 'update'],
  scale,
});

/** The `/rollback` subresource: a POST asking for a rollback. */
export const rollbackSubresource = (rollback: RollbackBinding): SubresourceDefinition => ({
  name: 'rollback',
  kind: rollback.requestKind.kind,
  verbs: ['create'],
  rollback,
});

/** The `/token` subresource: a POST asking for a token of the object (a ServiceAccount). */
export const tokenSubresource = (token: TokenBinding): SubresourceDefinition => ({
  name: 'token',
  kind: token.requestKind.kind,
  kindGroupVersion: { group: token.requestKind.group, version: token.requestKind.version },
  verbs: ['create'],
  token,
});

/** A provider that registers an API group version and its kinds when the group's module starts. */
export function registerApiGroup(gv: ApiGroupVersion, kinds: readonly KindDefinition[]): Provider {
  return {
    provide: Symbol(`api group ${gv.group || 'core'}/${gv.version}`),
    useFactory: (registry: KindRegistry) => registry.registerGroup(gv, kinds),
    inject: [KindRegistry],
  };
}
