// An endpoint's signing keys, opened and imported once and kept by its EndpointDO across runs. Keyed by
// what signs: the sealed current secret, and the sealed previous one while its overlap lasts. Every
// delivery's row is read fresh from D1 (automatic-run.ts), so a rotation (a new sealed secret) or the
// overlap's end (the previous one dropped) is a different version and the next delivery signs with the
// new keys at once; nothing is cached past what the row still says.
import type { Deps } from "../deps";
import { type EndpointRow, previousSigning, signingSecrets } from "./attempts";
import { importSigningKey } from "./signature";

export class SigningKeys {
  private endpointId: string | undefined;
  private current: string | undefined;
  private previous: string | null = null;
  private keys: CryptoKey[] | undefined;
  private importing: Promise<CryptoKey[]> | undefined;

  /** The keys for this row at `nowMs` if they are at hand (the common case: no promise, no await). */
  ready(endpoint: EndpointRow, nowMs: number): CryptoKey[] | undefined {
    return this.holds(endpoint, nowMs) ? this.keys : undefined;
  }

  /** The keys for this row: the kept ones, the import under way, or a fresh import (a failure is not kept). */
  load(deps: Deps, endpoint: EndpointRow, nowMs: number): Promise<CryptoKey[]> {
    if (this.holds(endpoint, nowMs) && this.importing) return this.importing;
    this.endpointId = endpoint.id;
    this.current = endpoint.secretSealed;
    this.previous = previousSigning(endpoint, nowMs);
    this.keys = undefined;
    const importing = signingSecrets(deps, endpoint, nowMs).then((secrets) => Promise.all(secrets.map(importSigningKey)));
    this.importing = importing;
    importing.then(
      (keys) => {
        if (this.importing === importing) this.keys = keys;
      },
      () => {
        // A failure throws to the sender awaiting it; the next delivery tries again.
        if (this.importing === importing) this.forget();
      },
    );
    return importing;
  }

  private forget(): void {
    this.endpointId = undefined;
    this.current = undefined;
    this.previous = null;
    this.keys = undefined;
    this.importing = undefined;
  }

  private holds(endpoint: EndpointRow, nowMs: number): boolean {
    return endpoint.id === this.endpointId && endpoint.secretSealed === this.current && previousSigning(endpoint, nowMs) === this.previous;
  }
}
