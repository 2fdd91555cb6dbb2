// Offset pagination, shaped like the upstream's: limit 1–100 (default 10), 0-based offset.
import { z } from "@hono/zod-openapi";
import { LIMITS } from "../config";

export interface Pagination {
  limit: number;
  offset: number;
  totalCount: number;
  hasMore: boolean;
}

export const PaginationQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(LIMITS.pageSizeMax)
    .default(LIMITS.pageSizeDefault)
    .openapi({ param: { name: "limit", in: "query" }, example: 10 }),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .openapi({ param: { name: "offset", in: "query" }, example: 0 }),
});

export type PageRequest = z.infer<typeof PaginationQuery>;

/**
 * A list's query: paging plus its filters. Any other parameter is a 400 naming it, as on every route
 * (the query rule, ./query-rule.ts), so a misspelt filter never returns everything.
 */
export const listQuery = <T extends z.ZodRawShape>(filters: T) => z.object({ ...PaginationQuery.shape, ...filters });

export function pagination(page: PageRequest, totalCount: number): Pagination {
  return {
    limit: page.limit,
    offset: page.offset,
    totalCount,
    hasMore: page.offset + page.limit < totalCount,
  };
}
