// The configuration's query keys (see catalog/keys.ts for why a factory).
export const configKeys = {
  all: ['config'] as const,
  source: () => [...configKeys.all, 'source'] as const,
  tags: () => [...configKeys.all, 'tags'] as const,
  domains: () => [...configKeys.all, 'domains'] as const,
}
