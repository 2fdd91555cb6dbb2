// How many requests one receiver has in flight from Ponte at once. An EndpointDO keeps one of these for
// every run it makes (a hand-off, the queue's and the alarm's can run at the same time), so the cap is per
// endpoint, not per run. Waiters get a freed slot in the order they asked.

/** Requests in flight to one endpoint at once, whatever number of runs (hand-off, queue, alarm) are going on. */
export const SENDS_PER_ENDPOINT = 10;
export class SendSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Takes a slot if one is free now (no wait, no promise: the common case of one run at a time). */
  tryTake(): boolean {
    if (this.free === 0) return false;
    this.free -= 1;
    return true;
  }

  /** Resolves once a slot is this caller's (handed over by `give`, first come first served). */
  take(): Promise<void> {
    if (this.tryTake()) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Returns a slot: to the longest waiter if there is one, else to the pool. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }

  /** Requests in flight now. */
  get taken(): number {
    return this.size - this.free;
  }
}
