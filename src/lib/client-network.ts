// The client network an address belongs to, for throttles: an IPv4 address is its own network, an IPv6
// address counts as its /64 (one subscriber's allocation, so rotating addresses inside it does not help),
// an IPv4-mapped IPv6 address is its IPv4 address. Anything unparsable is the one network "unknown".
import ipaddr from "ipaddr.js";

export function clientNetwork(address: string | undefined | null): string {
  const text = address?.trim() ?? "";
  if (!ipaddr.isValid(text)) return "unknown";
  const parsed = ipaddr.parse(text);
  if (!(parsed instanceof ipaddr.IPv6)) return parsed.toString();
  const v6 = parsed;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${new ipaddr.IPv6([...v6.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
