// Loads the golden vectors shared with the Rust tests and the verifier page.
import { readFileSync } from "node:fs";

const url = new URL("../vectors/fairness-v1.json", import.meta.url);
export const vectors = JSON.parse(readFileSync(url, "utf8"));
export const cases = vectors.cases;
