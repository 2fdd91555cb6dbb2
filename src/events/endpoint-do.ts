// EndpointDO: one per webhook endpoint. It makes the automatic attempts, keeps the consecutive-failure
// streak (disabling the endpoint at 15), and schedules retries with its alarm. Delivery state lives in
// D1 (next_attempt_at), so a lost alarm is re-armed by the cron sweeper from D1 alone. The entry must
// export this class, so it stays small: what it does lives in ./endpoint-runner, imported on first use.
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config";
import type { Fetcher } from "./deliver";
import type { EndpointObject, KeptState } from "./endpoint-runner";
import { SENDS_PER_ENDPOINT, SendSlots } from "./send-slots";
import { loadOnce } from "../lib/load-once";

const runner = loadOnce(() => import("./endpoint-runner"));

export class EndpointDO extends DurableObject<Env> {
  /** Outbound fetch (unset: the runtime's); tests swap it through runInDurableObject. */
  fetcher: Fetcher | undefined = undefined;
  /** The clock of every attempt, alarm and streak write; tests swap it through runInDurableObject. */
  now: () => Date = () => new Date();
  /** Deliveries this object is attempting right now. */
  private readonly inFlight = new Set<string>();
  /** The cap on requests in flight to this endpoint, shared by every run. */
  private readonly sends = new SendSlots(SENDS_PER_ENDPOINT);
  /** The endpoint id and streak as last read or written (storage holds them; this object is their only writer). */
  readonly kept: KeptState = {};

  /** First attempts for freshly fanned-out deliveries (called by the queue consumer). */
  async deliverNow(endpointId: string, deliveryIds: string[]): Promise<void> {
    await (await runner()).deliverNow(this.object(), endpointId, deliveryIds);
  }

  /** Re-arm the alarm from D1 (the sweeper's call for overdue deliveries, and after recover). */
  async wake(endpointId: string): Promise<number | null> {
    return (await runner()).wake(this.object(), endpointId);
  }

  /** The endpoint was re-enabled: the streak starts over. */
  async resetStreak(endpointId: string): Promise<void> {
    await (await runner()).resetStreak(this.object(), endpointId);
  }

  async streak(): Promise<number> {
    return this.kept.streak ?? this.ctx.storage.kv.get<number>("streak") ?? 0;
  }

  override async alarm(): Promise<void> {
    await (await runner()).alarm(this.object());
  }

  /** This object for the runner; the clock and fetcher are read through it, so a swap applies at once. */
  private object(): EndpointObject {
    const self = this;
    return {
      ctx: this.ctx,
      env: this.env,
      get fetcher() {
        return self.fetcher;
      },
      now: () => self.now(),
      inFlight: this.inFlight,
      sends: this.sends,
      kept: this.kept,
    };
  }
}
