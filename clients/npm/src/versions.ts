// What this package speaks: fairness version 1 (docs in /docs/proofs.md and the fairness
// design) and the arcade's REST API shapes of version 1. A server announcing others is refused
// at connect; a commit answer naming another fairness version is refused before anything is
// played, and a receipt of another version fails re-derivation in the wasm core.
import { UnsupportedServerError } from './errors.js';

/** Fairness versions whose rounds this package re-derives. */
export const FAIRNESS_VERSIONS: readonly number[] = Object.freeze([1]);
/** Versions of the API shapes (paths, bodies, answers) this package reads and sends. */
export const API_VERSIONS: readonly string[] = Object.freeze(['1']);

/** What a manifest announces, and whether it announced it at all. */
export interface Compatibility {
  fairness_versions: number[] | null;
  api_version: string | null;
  /** False when the manifest announces neither (then only each round's own version is checked). */
  announced: boolean;
}

/**
 * The manifest's `fairness_versions` (the versions the server settles with) and `api_version`,
 * each checked against this package's when present.
 */
export function checkManifest(manifest: any): Compatibility {
  const fairness = manifest?.fairness_versions ?? (manifest?.fairness_version !== undefined ? [manifest.fairness_version] : null);
  const api = manifest?.api_version ?? null;
  if (fairness !== null) {
    const list = Array.isArray(fairness) ? fairness : [fairness];
    const unknown = list.filter((v: unknown) => !FAIRNESS_VERSIONS.includes(v as number));
    if (list.length === 0 || unknown.length > 0) throw new UnsupportedServerError('fairness_versions', fairness, FAIRNESS_VERSIONS);
  }
  if (api !== null && !API_VERSIONS.includes(String(api))) throw new UnsupportedServerError('api_version', api, API_VERSIONS);
  return { fairness_versions: fairness, api_version: api === null ? null : String(api), announced: fairness !== null || api !== null };
}

/** A round the server opened under a fairness version this package cannot re-derive is not played. */
export function checkRoundVersion(version: unknown): void {
  if (!FAIRNESS_VERSIONS.includes(version as number)) throw new UnsupportedServerError('fairness_version', version, FAIRNESS_VERSIONS);
}
