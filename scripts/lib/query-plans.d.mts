export function aliasesOf(sql: string): Map<string, string>;
export function fullScansOf(sql: string, planRows: { detail?: unknown }[], tenantTables: Set<string>): string[];
export function explainable(sql: string): boolean;
