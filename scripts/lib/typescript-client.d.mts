export declare const SCHEMA_HEADER: string;
export declare function renderSchema(document: unknown): Promise<string>;
