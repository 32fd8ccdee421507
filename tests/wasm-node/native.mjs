// The reports the native core writes: `cargo run -p arcade-core --example reports` (serde_json
// over the core's wire::VerificationView, as the server writes it) for every golden vector and
// for tampered and malformed copies of some. One entry per line: {name, receipt, report} or
// {name, receipt, error: {code, message}}, and `line`, the line's text.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const text = execFileSync('cargo', ['run', '--quiet', '--locked', '-p', 'arcade-core', '--example', 'reports'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
  stdio: ['ignore', 'pipe', 'inherit'],
});

export const native = text
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => ({ ...JSON.parse(line), line }));
