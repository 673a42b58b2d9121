import { OnModuleInit } from '@nestjs/common';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { KindDefinition } from '../../../registry/kind-definition';
import { GenericRegistry } from '../../../registry/store/generic-registry';
import { WriteAdmission, WriteAdmissions } from '../../../registry/store/write-admission';
import { StoredIngress } from '../../extensions/ingress/ingress.schema';
import { CLASS_ANNOTATION } from '../ingress/ingress.v1.validation';
import { NETWORKING_V1 } from '../networking.group';

const DEFAULT_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

/** Of several default classes, upstream takes the newest; of those made in the same second, the first by name. */
const newestFirst = (a: KubeObject, b: KubeObject) =>
  (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

/**
 * Upstream's DefaultIngressClass admission plugin: a networking.k8s.io/v1 Ingress created without a class (neither
 * spec.ingressClassName nor the older annotation) gets the default IngressClass (the newest, when several are marked so).
 * extensions/v1beta1 creates stay as 1.7 made them. `ingressClasses` is the IngressClass kind it reads.
 */
export class DefaultIngressClassAdmission implements WriteAdmission, OnModuleInit {
  constructor(
    private readonly admissions: WriteAdmissions,
    private readonly registry: GenericRegistry,
    private readonly ingressClasses: KindDefinition,
  ) {}

  onModuleInit(): void {
    this.admissions.register(this);
  }

  concerns(def: KindDefinition): boolean {
    return def.group === NETWORKING_V1.group && def.resource === 'ingresses';
  }

  async admit(_def: KindDefinition, object: KubeObject, old: KubeObject | undefined): Promise<void> {
    const ingress = object as StoredIngress;
    if (old || ingress.spec?.ingressClassName !== undefined || ingress.metadata.annotations?.[CLASS_ANNOTATION] !== undefined) return;
    const { items } = await this.registry.list(this.ingressClasses);
    const defaults = items.filter((c) => c.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true').sort(newestFirst);
    if (defaults.length > 0) (ingress.spec ??= {}).ingressClassName = defaults[0].metadata.name;
  }
}
