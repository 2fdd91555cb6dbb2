// A V8 CPU profile of a `wrangler dev` worker's isolate, taken through wrangler's inspector proxy
// (the port startWrangler passes as --inspector-port) while `load` runs. With several workers in one
// dev session (Ponte + the simulator), the proxy's /ws follows whichever worker reported ready last, so it may
// be the simulator's: `isPonteProfile` tells (bench:profile starts the session again until it is Ponte's; the
// other benches that profile say so when it is not).
import WebSocket from "ws";

/** wrangler dev's inspector proxy accepts local DevTools clients; it checks the Origin header. */
export async function connectInspector(url) {
  const ws = new WebSocket(url, { headers: { Origin: "http://localhost" } });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let nextId = 0;
  const waiting = new Map();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data));
    const settle = waiting.get(message.id);
    if (!settle) return;
    waiting.delete(message.id);
    if (message.error) settle.reject(new Error(`${message.error.message} (${message.error.code})`));
    else settle.resolve(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** Runs `load()` with the isolate's sampling profiler on (50 µs); returns { profile, result }. */
export async function profileWhile(inspectorPort, load) {
  const inspector = await connectInspector(`ws://127.0.0.1:${inspectorPort}/ws`);
  try {
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: 50 });
    await inspector.send("Profiler.start");
    const result = await load();
    const { profile } = await inspector.send("Profiler.stop");
    return { profile, result };
  } finally {
    inspector.close();
  }
}

/** The ids of a CPU profile's `(idle)` nodes: a sample on one of them is the isolate waiting, not working. */
export const idleNodeIds = (profile) => new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));

/** Whether a CPU profile is of Ponte's isolate: its frames name the built worker's modules (`*.ponte.mjs`). */
export const isPonteProfile = (profile) => profile.nodes.some((n) => n.callFrame.url.endsWith(".ponte.mjs"));

/** The warning to print beside a profile that is not Ponte's isolate, or null when it is. */
export const notPonteWarning = (profile, file) =>
  isPonteProfile(profile)
    ? null
    : `WARNING: ${file} is not Ponte's isolate (no *.ponte.mjs frames): wrangler's inspector attached to the simulator's; run again`;
