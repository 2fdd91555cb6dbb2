// A lazily imported module, kept once loaded: the first callers import it, every later call gets the
// module itself without another `import()`. Deployed, `import()` of a bundled module costs a promise and a
// registry lookup per call; in the vitest runtime it is I/O that concurrent requests would share (see
// docs/testing.md, "One runtime per project"). Concurrent first callers each import; nothing pending is
// kept, so no request ever awaits a promise another request started.
export function loadOnce<M>(load: () => Promise<M>): () => M | Promise<M> {
  let loaded: M | undefined;
  return () =>
    loaded ??
    load().then((module) => {
      loaded = module;
      return module;
    });
}
