import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { KindDefinition } from '../../registry/kind-definition';
import { GenericStoreModule } from '../../registry/store/generic-store.module';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { WriteAdmissions } from '../../registry/store/write-admission';
import { DefaultIngressClassAdmission } from './ingressclass/default-ingress-class.admission';
import { NETWORKING_V1 } from './networking.group';
import { NETWORKING_V1_KINDS } from './networking.kinds';

const INGRESS_CLASSES = NETWORKING_V1_KINDS.find((def) => def.resource === 'ingressclasses') as KindDefinition;

/**
 * The networking.k8s.io/v1 API group: Ingresses and NetworkPolicies over the objects extensions stores, and
 * IngressClasses, the default of which new Ingresses get.
 */
@Module({
  imports: [GenericStoreModule],
  providers: [
    registerApiGroup(NETWORKING_V1, NETWORKING_V1_KINDS),
    {
      provide: DefaultIngressClassAdmission,
      useFactory: (admissions: WriteAdmissions, registry: GenericRegistry) => new DefaultIngressClassAdmission(admissions, registry, INGRESS_CLASSES),
      inject: [WriteAdmissions, GenericRegistry],
    },
  ],
})
export class NetworkingModule {}
