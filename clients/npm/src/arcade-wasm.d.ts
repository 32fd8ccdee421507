// The shared checking modules of the arcade-wasm package (its audit: verdicts, trust, the
// feed, the floor) are plain ES modules without declarations; these are the members this
// package calls, typed loosely. The package's own exported types are in audit.ts.
declare module 'arcade-wasm/modules.mjs' {
  export function loadModules(): { wasm: any; proofs: any };
}
declare module 'arcade-wasm/verdicts.mjs' {
  export const PASS: string;
  export const NOT_PROVEN: string;
  export const FAIL: string;
  export const FROM_HOUSE: string;
  export function judgeRound(context: any, receipt: any, options?: any): any;
}
declare module 'arcade-wasm/bet.mjs' {
  export function readArcade(options: { api: string; proofs: any; pin?: any; signal?: AbortSignal }): Promise<{ trust: any; batches: Map<number, any> }>;
  export function seedRow(context: any, receipt: any): Promise<{ batches: Map<number, any>; also: any[] }>;
  export function verifyBet(options: any): Promise<{ verdict: any; receipt: any }>;
}
declare module 'arcade-wasm/feed.mjs' {
  export function fetchManifest(baseUrl: string, options?: any): Promise<any>;
}
declare module 'arcade-wasm/floor.mjs' {
  export function auditFloor(options: any): Promise<any>;
}
declare module 'arcade-wasm/stats.mjs' {
  export function newStats(): any;
  export function addToStats(stats: any, round: any): void;
  export function statsOf(stats: any): any;
}
