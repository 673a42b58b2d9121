import { KubeObject } from '../apimachinery/meta/kube-object';
import { ApplyType } from './apply-type';
import { FieldSet } from './field-set';

/** A version the objects of a path are served in, as a field manager compares in it. */
export interface VersionForm {
  /** the type of the objects in that version */
  type: ApplyType;
  /** what a write on the path cannot change, under that version's names */
  reset: FieldSet;
}

/**
 * The versions a kind's stored objects are served in (structured-merge-diff's version converter): a manager's fields
 * stay in the version it wrote them in, and a write in another version is compared in that one to find what the
 * manager loses or conflicts on.
 */
export interface VersionConverter {
  /** the form of a served version; undefined for a version the objects are not served in */
  form(apiVersion: string): VersionForm | undefined;
  /** an object of one served version as another serves it (the object itself when they are the same) */
  convert(object: KubeObject, from: string, to: string): KubeObject;
}
