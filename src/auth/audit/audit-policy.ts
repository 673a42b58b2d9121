import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { RequestInfo } from '../../apiserver/request/request-info';
import { UserInfo } from '../../apimachinery/authentication/user-info';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type AuditLevel = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type AuditStage = (typeof STAGES)[number];

interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

/** One rule of an audit.k8s.io/v1 Policy: every field given must match; absent fields match everything. */
export interface PolicyRule {
  level: AuditLevel;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: AuditStage[];
}

export interface AuditDecision {
  level: AuditLevel;
  omitStages: ReadonlySet<AuditStage>;
}

const NONE: AuditDecision = { level: 'None', omitStages: new Set() };

const stringList = (value: unknown, where: string): string[] | undefined => {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new Error(`${where} must be a list of strings`);
  return value as string[];
};

function stages(value: unknown, where: string): AuditStage[] {
  const list = stringList(value, where) ?? [];
  const bad = list.find((s) => !(STAGES as readonly string[]).includes(s));
  if (bad !== undefined) throw new Error(`${where}: unknown stage "${bad}" (one of ${STAGES.join(', ')})`);
  return list as AuditStage[];
}

/** Reads and checks a Policy document (YAML or JSON); a bad one stops the server at start. */
export function parsePolicy(text: string, source: string): AuditPolicy {
  const doc = load(text) as Record<string, unknown> | null;
  if (!doc || typeof doc !== 'object') throw new Error(`${source}: not an audit policy`);
  if (doc.kind !== 'Policy' || !['audit.k8s.io/v1', 'audit.k8s.io/v1beta1'].includes(String(doc.apiVersion))) {
    throw new Error(`${source}: expected kind Policy of audit.k8s.io/v1, got ${String(doc.kind)} of ${String(doc.apiVersion)}`);
  }
  if (!Array.isArray(doc.rules) || doc.rules.length === 0) throw new Error(`${source}: a policy has at least one rule`);
  const rules = doc.rules.map((raw: Record<string, unknown>, i: number): PolicyRule => {
    const where = `${source}: rules[${i}]`;
    if (!(LEVELS as readonly unknown[]).includes(raw?.level)) throw new Error(`${where}.level must be one of ${LEVELS.join(', ')}`);
    const resources = raw.resources as GroupResources[] | undefined;
    const nonResourceURLs = stringList(raw.nonResourceURLs, `${where}.nonResourceURLs`);
    if (resources && nonResourceURLs) throw new Error(`${where}: resources and nonResourceURLs cannot both be given`);
    if (resources !== undefined && !Array.isArray(resources)) throw new Error(`${where}.resources must be a list`);
    return {
      level: raw.level as AuditLevel,
      users: stringList(raw.users, `${where}.users`),
      userGroups: stringList(raw.userGroups, `${where}.userGroups`),
      verbs: stringList(raw.verbs, `${where}.verbs`),
      resources: resources?.map((r, j) => ({
        group: r.group ?? '',
        resources: stringList(r.resources, `${where}.resources[${j}].resources`),
        resourceNames: stringList(r.resourceNames, `${where}.resources[${j}].resourceNames`),
      })),
      namespaces: stringList(raw.namespaces, `${where}.namespaces`),
      nonResourceURLs,
      omitStages: stages(raw.omitStages, `${where}.omitStages`),
    };
  });
  return new AuditPolicy(rules, stages(doc.omitStages, `${source}: omitStages`));
}

export function readPolicyFile(path: string): AuditPolicy {
  return parsePolicy(readFileSync(path, 'utf8'), path);
}

/** `deployments`, `*`, `deployments/*`, `*\/scale`, `deployments/scale` against a resource and subresource. */
function matchesResource(patterns: string[], resource: string, subresource: string): boolean {
  const full = subresource ? `${resource}/${subresource}` : resource;
  return patterns.some((p) => {
    if (p === '*' || p === full) return true;
    if (p === `${resource}/*`) return subresource !== '';
    if (p === `*/${subresource}`) return subresource !== '';
    return false;
  });
}

/** The level of a request: the first rule that matches it decides (upstream's policy checker); none matching is None. */
export class AuditPolicy {
  /** each rule's decision, made once: requests share them */
  private readonly decisions: Map<PolicyRule, AuditDecision>;

  constructor(
    readonly rules: readonly PolicyRule[],
    omitStages: readonly AuditStage[],
  ) {
    this.decisions = new Map(
      rules.map((rule) => [rule, rule.level === 'None' ? NONE : { level: rule.level, omitStages: new Set([...omitStages, ...(rule.omitStages ?? [])]) }]),
    );
  }

  decide(user: UserInfo | undefined, info: RequestInfo): AuditDecision {
    const rule = this.rules.find((r) => this.matches(r, user, info));
    return rule ? (this.decisions.get(rule) as AuditDecision) : NONE;
  }

  private matches(rule: PolicyRule, user: UserInfo | undefined, info: RequestInfo): boolean {
    if (rule.users && !rule.users.includes(user?.username ?? '')) return false;
    if (rule.userGroups && !rule.userGroups.some((g) => user?.groups.includes(g))) return false;
    if (rule.verbs && !rule.verbs.includes(info.apiVerb)) return false;
    const isResource = info.resource !== '';
    if (rule.resources || rule.namespaces) {
      if (!isResource) return false;
      if (rule.namespaces && !rule.namespaces.includes(info.namespace)) return false;
      if (rule.resources && !rule.resources.some((r) => this.matchesGroup(r, info))) return false;
    }
    if (rule.nonResourceURLs) {
      if (isResource) return false;
      return rule.nonResourceURLs.some((u) => (u.endsWith('*') ? info.path.startsWith(u.slice(0, -1)) : info.path === u));
    }
    return true;
  }

  private matchesGroup(r: GroupResources, info: RequestInfo): boolean {
    if ((r.group ?? '') !== info.group && r.group !== '*') return false;
    if (r.resources && r.resources.length > 0 && !matchesResource(r.resources, info.resource, info.subresource)) return false;
    if (r.resourceNames && r.resourceNames.length > 0 && !r.resourceNames.includes(info.name)) return false;
    return true;
  }
}
