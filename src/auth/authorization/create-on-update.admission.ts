import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { INSECURE_USER, UserInfo } from '../../apimachinery/authentication/user-info';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { KindDefinition } from '../../registry/kind-definition';
import { AdmittedWrite, WriteAdmission, WriteAdmissions } from '../../registry/store/write-admission';
import type { Authorizer } from './authorizer';
import { AUTHORIZER } from './authorizer.token';
import { forbidden } from './forbidden';

/**
 * A PUT or an apply of a missing object creates it, and the request was authorized as an update or a patch only: the
 * user must also be allowed to `create` it, as upstream's update and patch handlers ask the authorizer before they
 * create. The insecure port's superuser is not asked, as its requests are not.
 */
@Injectable()
export class CreateOnUpdateAuthorization implements WriteAdmission, OnModuleInit {
  constructor(
    private readonly admissions: WriteAdmissions,
    @Inject(AUTHORIZER) private readonly authorizer: Authorizer,
  ) {}

  onModuleInit(): void {
    this.admissions.register(this);
  }

  concerns(): boolean {
    return true;
  }

  admit(def: KindDefinition, object: KubeObject, old: KubeObject | undefined, user: UserInfo, write: AdmittedWrite): void {
    if (!write.createdByUpdate || old || user.username === INSECURE_USER.username) return;
    const attributes = {
      user,
      verb: 'create',
      resourceRequest: true,
      apiGroup: def.group,
      resource: def.resource,
      subresource: '',
      namespace: object.metadata.namespace ?? '',
      name: object.metadata.name ?? '',
      path: '',
    };
    const { decision, reason } = this.authorizer.authorize(attributes);
    if (decision !== 'allow') throw forbidden(attributes, reason);
  }
}
