import { Module, OnModuleInit } from '@nestjs/common';
import { KindRegistry } from '../registry/kind-registry';
import { Settings } from '../config/settings';
import { AuditRecorder } from './audit/audit-recorder';
import { AuthenticationFilter } from './authentication.filter';
import { authenticationFilter } from './authenticators.factory';
import { RequestFilters } from './request-filters';
import { AUTHENTICATION_GROUP, SelfSubjectReviewController } from './self-subject-review.controller';

/** Who is calling: authentication, impersonation, interim authorization and audit at the request edge. */
@Module({
  controllers: [SelfSubjectReviewController],
  providers: [
    { provide: AuthenticationFilter, useFactory: authenticationFilter, inject: [Settings] },
    AuditRecorder,
    RequestFilters,
  ],
})
export class AuthModule implements OnModuleInit {
  constructor(private readonly registry: KindRegistry) {}

  onModuleInit(): void {
    this.registry.registerEndpoints(AUTHENTICATION_GROUP, [
      { resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, verbs: ['create'] },
    ]);
  }
}
