/**
 * Primary-key ids for payments, customers, payments, etc.
 *
 * `newId()` returns a UUIDv7 (RFC 9562 §5.7) in lower-case canonical form:
 *   - bits 0..47   unix epoch milliseconds (big-endian), so ids sort by creation time;
 *   - bits 48..51  version 7;
 *   - bits 52..63  `rand_a`, used as a 12-bit counter (RFC 9562 §6.2, method 1);
 *   - bits 64..65  variant 0b10;
 *   - bits 66..127 random from crypto.getRandomValues.
 *
 * Monotonic within one isolate: ids made in the same millisecond bump the counter,
 * and if the clock goes backwards the last timestamp is reused, so a later id always
 * compares greater (as a string and as bytes) than an earlier one.
 */
import { BYTE_HEX } from "./hex";

const COUNTER_MAX = 0xfff;
// Seed each millisecond's counter below half its range so there are ≥ 2048 increments of headroom.
const COUNTER_SEED_MASK = 0x7ff;

let lastMs = -1;
let counter = 0;

// Random bytes come from crypto.getRandomValues in 4 KiB draws, each byte used once: one call into
// the runtime per ~400 ids instead of two per id (every request makes at least one, its request id).
// Read in place (no copy per id): an id is made on every request, so it is kept allocation-free.
const POOL = new Uint8Array(4096);
let poolAt = POOL.length;

/** Where the next `length` unused random bytes start in POOL (refilled when too few are left). */
function takeRandom(length: number): number {
  if (poolAt + length > POOL.length) {
    crypto.getRandomValues(POOL);
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += length;
  return at;
}

function seedCounter(): number {
  const at = takeRandom(2);
  return (((POOL[at] ?? 0) << 8) | (POOL[at + 1] ?? 0)) & COUNTER_SEED_MASK;
}

/** Advances (lastMs, counter) to the next pair; never goes backwards. */
function advanceClock(): void {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = seedCounter();
  } else {
    counter += 1;
    if (counter > COUNTER_MAX) {
      // Counter exhausted in this millisecond: borrow from the next one to stay ordered.
      lastMs += 1;
      counter = seedCounter();
    }
  }
}

const hex = (byte: number | undefined) => BYTE_HEX[byte ?? 0] as string;

/** The next id's 16 bytes as hex, the groups joined by `separator` ("-" for the canonical form). */
function nextIdHex(separator: string): string {
  advanceClock();
  // 48-bit timestamp, big-endian; split in two 24-bit halves because JS bitwise ops are 32-bit.
  const high = Math.floor(lastMs / 0x1000000);
  const low = lastMs - high * 0x1000000;
  const r = takeRandom(8); // bytes 8..15: the variant's byte and seven more
  return (
    hex((high >> 16) & 0xff) +
    hex((high >> 8) & 0xff) +
    hex(high & 0xff) +
    hex((low >> 16) & 0xff) +
    separator +
    hex((low >> 8) & 0xff) +
    hex(low & 0xff) +
    separator +
    hex(0x70 | (counter >> 8)) +
    hex(counter & 0xff) +
    separator +
    hex(0x80 | ((POOL[r] ?? 0) & 0x3f)) +
    hex(POOL[r + 1]) +
    separator +
    hex(POOL[r + 2]) +
    hex(POOL[r + 3]) +
    hex(POOL[r + 4]) +
    hex(POOL[r + 5]) +
    hex(POOL[r + 6]) +
    hex(POOL[r + 7])
  );
}

export function newId(): string {
  return nextIdHex("-");
}

/** `newId()`'s 32 hex digits without the dashes (request ids): the same clock, counter and randomness. */
export function newIdDigits(): string {
  return nextIdHex("");
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const NIL_UUID = "00000000-0000-0000-0000-000000000000";
const MAX_UUID = "ffffffff-ffff-ffff-ffff-ffffffffffff";

/**
 * True for any canonical (8-4-4-4-12 hex) RFC 4122 / RFC 9562 UUID: versions 1–8 with the
 * RFC variant, plus the Nil and Max UUIDs. Hex case is ignored on input (RFC 9562 §4).
 */
export function isUuid(value: string): boolean {
  if (typeof value !== "string" || value.length !== 36) return false;
  const lower = value.toLowerCase();
  return lower === NIL_UUID || lower === MAX_UUID || UUID_RE.test(value);
}
