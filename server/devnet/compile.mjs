// Compiles TestDollar.sol with the pinned solc and writes TestDollar.json (ABI + creation
// bytecode), the artefact the server deploys on its dev chain.
//   node compile.mjs          rewrite the artefact
//   node compile.mjs --check  fail if the committed artefact differs from a fresh compile
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const source = readFileSync(here('TestDollar.sol'), 'utf8');
const input = {
  language: 'Solidity',
  sources: { 'TestDollar.sol': { content: source } },
  settings: {
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    // No metadata hash: the bytecode then depends on the source and settings only.
    metadata: { bytecodeHash: 'none', appendCBOR: false },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
for (const message of output.errors ?? []) console.error(message.formattedMessage);
if (errors.length > 0) process.exit(1);

const contract = output.contracts['TestDollar.sol'].TestDollar;
const artefact = `${JSON.stringify(
  {
    contractName: 'TestDollar',
    compiler: `solc ${solc.version()}`,
    settings: input.settings,
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  },
  null,
  2,
)}\n`;

const path = here('TestDollar.json');
if (process.argv.includes('--check')) {
  const committed = readFileSync(path, 'utf8');
  if (committed !== artefact) {
    console.error('TestDollar.json differs from a fresh compile of TestDollar.sol: run `node compile.mjs`');
    process.exit(1);
  }
  console.log(`TestDollar.json matches a fresh compile (solc ${solc.version()})`);
} else {
  writeFileSync(path, artefact);
  console.log(`wrote TestDollar.json (${contract.evm.bytecode.object.length / 2} bytes of bytecode)`);
}
