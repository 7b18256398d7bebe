// Publishing's query keys.
export const publishKeys = {
  all: ['publish'] as const,
  rules: () => [...publishKeys.all, 'rules'] as const,
  topics: () => [...publishKeys.all, 'topics'] as const,
  modules: () => [...publishKeys.all, 'modules'] as const,
}
