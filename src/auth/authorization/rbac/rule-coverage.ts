import { PolicyRule } from '../../../apis/rbac/policy/policy-rule.schema';

const ALL = '*';

/** A rule broken into rules of one verb, one group, one resource and one name (or one URL), as upstream's BreakdownRule. */
export function breakdown(rule: PolicyRule): PolicyRule[] {
  const verbs = rule.verbs ?? [];
  if (rule.nonResourceURLs?.length) return rule.nonResourceURLs.flatMap((url) => verbs.map((verb) => ({ verbs: [verb], nonResourceURLs: [url] })));
  const names = rule.resourceNames?.length ? rule.resourceNames.map((name) => [name]) : [undefined];
  return (rule.apiGroups ?? []).flatMap((group) =>
    (rule.resources ?? []).flatMap((resource) =>
      verbs.flatMap((verb) => names.map((resourceNames) => ({ verbs: [verb], apiGroups: [group], resources: [resource], ...(resourceNames ? { resourceNames } : {}) }))),
    ),
  );
}

const hasAll = (owned: readonly string[] | undefined, wanted: readonly string[] | undefined) =>
  (wanted ?? []).every((value) => owned?.includes(value));

/** `*` covers every resource, `*\/scale` every resource's scale. */
function resourceCovers(owned: string, wanted: string): boolean {
  if (owned === ALL || owned === wanted) return true;
  const [ownedParts, wantedParts] = [owned.split('/'), wanted.split('/')];
  return ownedParts.length === 2 && wantedParts.length === 2 && ownedParts[0] === ALL && ownedParts[1] === wantedParts[1];
}

const urlCovers = (owned: string, wanted: string) =>
  owned === ALL || owned === wanted || (owned.endsWith(ALL) && wanted.startsWith(owned.slice(0, -1)));

/** Whether one rule the user holds covers a (broken down) rule it grants, as upstream's ruleCovers. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs?.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = owner.apiGroups?.includes(ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = (sub.resources ?? []).every((wanted) => (owner.resources ?? []).some((owned) => resourceCovers(owned, wanted)));
  const urls = (sub.nonResourceURLs ?? []).every((wanted) => (owner.nonResourceURLs ?? []).some((owned) => urlCovers(owned, wanted)));
  const names = !owner.resourceNames?.length || (!!sub.resourceNames?.length && hasAll(owner.resourceNames, sub.resourceNames));
  return verbs && groups && resources && urls && names;
}

/** The parts of `granted` that no rule of `owned` covers (none: granting them is no escalation). */
export function uncovered(owned: readonly PolicyRule[], granted: readonly PolicyRule[]): PolicyRule[] {
  return granted.flatMap(breakdown).filter((sub) => !owned.some((owner) => ruleCovers(owner, sub)));
}

const quoted = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

/** A rule as upstream prints it in an escalation refusal: `{APIGroups:["extensions"], Resources:["deployments"], Verbs:["get"]}`. */
export function ruleText(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${quoted(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${quoted(rule.resources)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${quoted(rule.resourceNames)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${quoted(rule.nonResourceURLs)}`);
  parts.push(`Verbs:${quoted(rule.verbs ?? [])}`);
  return `{${parts.join(', ')}}`;
}

/** Broken-down rules merged back where only their verbs differ, for a shorter message (upstream's CompactRules). */
export function compact(rules: readonly PolicyRule[]): PolicyRule[] {
  const byTarget = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = JSON.stringify({ ...rule, verbs: undefined });
    const found = byTarget.get(key);
    if (found) found.verbs = [...(found.verbs ?? []), ...(rule.verbs ?? [])];
    else byTarget.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
  }
  return [...byTarget.values()];
}
