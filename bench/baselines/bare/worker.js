// The baseline: a worker that answers the benchmarked request with the same envelope and no logic.
export default {
  async fetch() {
    const body = JSON.stringify({
      data: {
        id: "01900000-0000-7000-8000-00000000d001",
        object: "organization",
        name: "Ponte Demo",
        defaultWorkspaceId: "01900000-0000-7000-8000-00000000d002",
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      },
      meta: { requestId: crypto.randomUUID() },
    });
    return new Response(body, { headers: { "Content-Type": "application/json" } });
  },
};
