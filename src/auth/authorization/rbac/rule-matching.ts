import { PolicyRule } from '../../../apis/rbac/policy/policy-rule.schema';
import { AuthorizationAttributes } from '../attributes';

const ALL = '*';

const has = (values: readonly string[] | undefined, value: string) => !!values && (values.includes(ALL) || values.includes(value));

/** `deployments`, `deployments/scale`, or `*\/scale` for that subresource of every resource. */
function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (rule.resources ?? []).some(
    (r) => r === ALL || r === combined || (subresource !== '' && r === `*/${subresource}`),
  );
}

/** An empty resourceNames list allows every name. */
const nameMatches = (rule: PolicyRule, name: string) => !rule.resourceNames?.length || rule.resourceNames.includes(name);

/** `/healthz`, or `/healthz/*` for every path under it, or `*` for every path. */
function urlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    (url) => url === ALL || url === path || (url.endsWith(ALL) && path.startsWith(url.slice(0, -1))),
  );
}

/** Whether a rule allows a request, as upstream's RuleAllows matches verbs, groups, resources, names and URLs. */
export function ruleAllows(rule: PolicyRule, request: Omit<AuthorizationAttributes, 'user'>): boolean {
  if (!has(rule.verbs, request.verb)) return false;
  if (!request.resourceRequest) return urlMatches(rule, request.path);
  return has(rule.apiGroups, request.apiGroup) && resourceMatches(rule, request.resource, request.subresource) && nameMatches(rule, request.name);
}
