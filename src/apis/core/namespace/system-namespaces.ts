/** The namespaces the server makes at start when they are missing (upstream's system namespaces). */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** The ones that may not be deleted while NamespaceLifecycle admission is on. */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);
