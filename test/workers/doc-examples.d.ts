// Vite's import.meta.glob, which the vitest runner expands when it loads a test file (doc-examples.test.ts).
interface ImportMeta {
  glob<T>(patterns: string | string[], options: { query?: string; import?: string; eager: true }): Record<string, T>;
}
