// Types for the parts of local.mjs that TypeScript tests import.
export declare const PERMISSIONS_ALL: string[];
