// Where an Asaas client sends its API key: Asaas's `access_token` header, or `access-token` as some
// client libraries spell it (header names are case-insensitive, so `Access-Token` too). One place for
// both spellings: the dialect's entry (src/compat/asaas-dialect/request.ts) and authentication
// (src/access/authenticate.ts) read the key through it.

/** The header names an Asaas client may carry its key in; the first is Asaas's own. */
export const ASAAS_KEY_HEADERS = ["access_token", "access-token"] as const;

/** The key an Asaas client sent (trimmed), or null when neither header carries one. */
export function asaasKeyOf(headers: Headers): string | null {
  for (const name of ASAAS_KEY_HEADERS) {
    const value = headers.get(name)?.trim();
    if (value) return value;
  }
  return null;
}
