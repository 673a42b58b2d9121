import { Module } from '@nestjs/common';
import { KindDefinition } from '../../../registry/kind-definition';
import { GenericStoreModule } from '../../../registry/store/generic-store.module';
import { GenericRegistry } from '../../../registry/store/generic-registry';
import { WriteAdmissions } from '../../../registry/store/write-admission';
import { NETWORKING_V1_KINDS } from '../networking.kinds';
import { DefaultIngressClassAdmission } from './default-ingress-class.admission';

const INGRESS_CLASSES = NETWORKING_V1_KINDS.find((def) => def.resource === 'ingressclasses') as KindDefinition;

/**
 * The DefaultIngressClass admission, in a module of its own: the group's module imports nothing, so that it
 * registers its group where app.module lists it (discovery's order).
 */
@Module({
  imports: [GenericStoreModule],
  providers: [
    {
      provide: DefaultIngressClassAdmission,
      useFactory: (admissions: WriteAdmissions, registry: GenericRegistry) => new DefaultIngressClassAdmission(admissions, registry, INGRESS_CLASSES),
      inject: [WriteAdmissions, GenericRegistry],
    },
  ],
})
export class DefaultIngressClassModule {}
