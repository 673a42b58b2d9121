import { Module, OnModuleInit } from '@nestjs/common';
import { KindRegistry } from '../registry/kind-registry';
import { Settings } from '../config/settings';
import { GenericStoreModule } from '../registry/store/generic-store.module';
import { WatchModule } from '../watch/watch.module';
import { AuditRecorder } from './audit/audit-recorder';
import { AuthenticationFilter } from './authentication.filter';
import { authenticationFilter } from './authenticators.factory';
import { ServiceAccountAuthenticator } from './authenticators/service-account.authenticator';
import { AuthorizationFilter } from './authorization.filter';
import { AccessReviewController, AUTHORIZATION_GROUP } from './authorization/access-review.controller';
import { authorizerFor } from './authorization/authorization-modes';
import { AUTHORIZER } from './authorization/authorizer.token';
import { ClusterRoleAggregator } from './authorization/rbac/cluster-role-aggregator';
import { CreateOnUpdateAuthorization } from './authorization/create-on-update.admission';
import { EscalationCheck } from './authorization/rbac/escalation-check';
import { PolicyBootstrap } from './authorization/rbac/policy-bootstrap';
import { RbacAuthorizer } from './authorization/rbac/rbac.authorizer';
import { RbacIndex } from './authorization/rbac/rbac-index';
import { ImpersonationFilter } from './impersonation.filter';
import { InsecureHostFilter } from './insecure-host.filter';
import { AUTHENTICATION_GROUP, SelfSubjectReviewController } from './self-subject-review.controller';
import { ServiceAccountIssuerDiscoveryController } from './service-account-issuer-discovery.controller';

/** Who is calling and what they may do: authentication, impersonation, authorization (RBAC) and audit at the request edge. */
@Module({
  imports: [GenericStoreModule, WatchModule],
  controllers: [SelfSubjectReviewController, AccessReviewController, ServiceAccountIssuerDiscoveryController],
  providers: [
    ServiceAccountAuthenticator,
    { provide: AuthenticationFilter, useFactory: authenticationFilter, inject: [Settings, ServiceAccountAuthenticator] },
    RbacIndex,
    RbacAuthorizer,
    ClusterRoleAggregator,
    EscalationCheck,
    CreateOnUpdateAuthorization,
    PolicyBootstrap,
    { provide: AUTHORIZER, useFactory: authorizerFor, inject: [Settings, RbacAuthorizer] },
    AuthorizationFilter,
    ImpersonationFilter,
    AuditRecorder,
    InsecureHostFilter,
  ],
  exports: [AuthenticationFilter, AuditRecorder, ImpersonationFilter, AuthorizationFilter, InsecureHostFilter],
})
export class AuthModule implements OnModuleInit {
  constructor(private readonly registry: KindRegistry) {}

  onModuleInit(): void {
    this.registry.registerEndpoints(AUTHENTICATION_GROUP, [
      { resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, verbs: ['create'] },
    ]);
    this.registry.registerEndpoints(AUTHORIZATION_GROUP, [
      { resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true, verbs: ['create'] },
      { resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, verbs: ['create'] },
      { resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, verbs: ['create'] },
      { resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false, verbs: ['create'] },
    ]);
  }
}
