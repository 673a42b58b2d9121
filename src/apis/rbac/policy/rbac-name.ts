import { NameRule } from '../../../apimachinery/validation/names';

/** RBAC objects' names only need to be path segments (upstream's ValidateRBACName), which every name is checked for. */
export const RBAC_NAME: NameRule = () => [];
