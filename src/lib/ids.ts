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

const COUNTER_MAX = 0xfff;
// Seed each millisecond's counter below half its range so there are ≥ 2048 increments of headroom.
const COUNTER_SEED_MASK = 0x7ff;

let lastMs = -1;
let counter = 0;

// Random bytes come from crypto.getRandomValues in 4 KiB draws, each byte used once: one call into
// the runtime per ~200 ids instead of two per id (every request makes at least one, its request id).
const POOL = new Uint8Array(4096);
let poolAt = POOL.length;

function randomBytes(length: number): Uint8Array {
  if (poolAt + length > POOL.length) {
    crypto.getRandomValues(POOL);
    poolAt = 0;
  }
  const bytes = POOL.slice(poolAt, poolAt + length);
  poolAt += length;
  return bytes;
}

function seedCounter(): number {
  const [hi = 0, lo = 0] = randomBytes(2);
  return ((hi << 8) | lo) & COUNTER_SEED_MASK;
}

/** Next (timestamp, counter) pair; never goes backwards. */
function nextClock(): { ms: number; seq: number } {
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
  return { ms: lastMs, seq: counter };
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function newId(): string {
  const { ms, seq } = nextClock();
  const bytes = randomBytes(16);

  // 48-bit timestamp; division instead of shifts because JS bitwise ops are 32-bit.
  let t = ms;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes[6] = 0x70 | (seq >> 8);
  bytes[7] = seq & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);

  let out = "";
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out += "-";
    out += HEX[bytes[i] ?? 0];
  }
  return out;
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
