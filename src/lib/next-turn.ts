/**
 * Resolves on the next turn of the event loop: work chained on it (a waitUntil task) starts after the
 * current request has handed its response back, so it is never on the response path.
 */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
