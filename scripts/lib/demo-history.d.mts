export interface DemoHistory {
  sql: string;
  counts: {
    customers: number;
    plans: number;
    subscriptions: number;
    canceledSubscriptions: number;
    payments: number;
    refunds: number;
    suppliers: number;
    expenses: number;
    awsConnections: number;
  };
  from: string;
  to: string;
}
export function demoHistorySql(options: {
  organizationId: string;
  workspaceId: string;
  now?: Date;
  seed?: number;
  scale?: number;
  space?: number;
}): DemoHistory;
