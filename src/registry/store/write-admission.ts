import { Injectable } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { UserInfo } from '../../apimachinery/authentication/user-info';
import { KindDefinition } from '../kind-definition';

/**
 * A check of a write by who makes it, for the kinds it concerns (as an admission plugin, or upstream's policy-based
 * RBAC storage, decides by resource): it throws a StatusError to refuse. Writes the server makes itself name no user
 * and are not checked; every API request names one (the insecure port's superuser included).
 */
export interface WriteAdmission {
  concerns(def: KindDefinition): boolean;
  /** `old` is the stored object for an update, undefined for a create */
  admit(def: KindDefinition, object: KubeObject, old: KubeObject | undefined, user: UserInfo, write: AdmittedWrite): void | Promise<void>;
  /** a delete of the stored `object`; without it, deletes are not checked */
  admitDelete?(def: KindDefinition, object: KubeObject, user: UserInfo): void;
}

/** What else an admission may need to know of a write. */
export interface AdmittedWrite {
  /** a create made by a PUT or an apply of a missing object (upstream's create-on-update), asked for as an update */
  createdByUpdate: boolean;
}

/** The write admissions, registered by the modules that own them when they start. */
@Injectable()
export class WriteAdmissions {
  private readonly admissions: WriteAdmission[] = [];

  register(admission: WriteAdmission): void {
    this.admissions.push(admission);
  }

  async check(def: KindDefinition, object: KubeObject, old: KubeObject | undefined, user: UserInfo | undefined, write: AdmittedWrite = { createdByUpdate: false }): Promise<void> {
    if (!user) return;
    for (const admission of this.admissions) if (admission.concerns(def)) await admission.admit(def, object, old, user, write);
  }

  checkDelete(def: KindDefinition, object: KubeObject, user: UserInfo | undefined): void {
    if (!user) return;
    for (const admission of this.admissions) if (admission.concerns(def)) admission.admitDelete?.(def, object, user);
  }
}
