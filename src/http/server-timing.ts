// Server-Timing: where a request's time goes inside the worker, stage by stage, for measuring (bench:passthrough
// with SERVER_TIMING=on). Only when the SERVER_TIMING var is "on", which no environment in wrangler.toml sets: the
// bench passes it with --var. Off, a stage mark is one test of a module flag and the response is untouched.
//
// Each mark closes the stage since the previous one (the first opens when provideDeps starts), and the response
// gets `Server-Timing: <stage>;dur=<ms>, …, worker;dur=<ms>` (worker: provideDeps's start to its end). In local
// workerd the clocks advance during execution; deployed, they advance only at I/O (Spectre mitigation), so there a
// stage without I/O reads 0 and only the I/O stages (the upstream call) are real.

/** Set by the first request that asks for timing; until then a mark costs nothing more than this test. */
let enabled = false;
const timings = new WeakMap<object, Timing>();

class Timing {
  private readonly start = performance.now();
  private last = this.start;
  private readonly stages: string[] = [];

  mark(stage: string): void {
    const now = performance.now();
    this.stages.push(`${stage};dur=${(now - this.last).toFixed(3)}`);
    this.last = now;
  }

  header(): string {
    return [...this.stages, `worker;dur=${(this.last - this.start).toFixed(3)}`].join(", ");
  }
}

/**
 * Starts timing a request whose stages are marked against `owner` (its Deps); returns what stamps the response.
 * Call only when the environment asks for it (`env.SERVER_TIMING === "on"`).
 */
export function startServerTiming(owner: object): (res: Response) => void {
  enabled = true;
  const timing = new Timing();
  timings.set(owner, timing);
  return (res) => {
    timing.mark("after");
    res.headers.append("Server-Timing", timing.header());
  };
}

/** Closes the stage `stage` of the request `owner` times, if it is timed. */
export function markStage(owner: object, stage: string): void {
  if (!enabled) return;
  timings.get(owner)?.mark(stage);
}
