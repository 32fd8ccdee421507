"""The verifier module (`verifier-abi`, the arcade's fairness core and signature checks compiled
to wasm) run by wasmtime: every check this package makes is one of its calls. JSON text goes
in through the module's `alloc`, the answer comes back as `{"ok": value}` or
`{"error": {code, message}}`; an error is raised as `WasmError` with the module's code."""

from __future__ import annotations

import json
import threading
from importlib import resources
from typing import Any

import wasmtime

WASM_FILE = "verifier_abi.wasm"


class WasmError(ValueError):
    """The module refused its input: `code` is its stable code (`invalid_receipt`, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Module:
    """One instance of the module; calls are serialized (a wasm instance runs one at a time)."""

    def __init__(self, wasm: bytes) -> None:
        engine = wasmtime.Engine()
        self._store = wasmtime.Store(engine)
        instance = wasmtime.Instance(self._store, wasmtime.Module(engine, wasm), [])
        exports: Any = instance.exports(self._store)
        self._memory: Any = exports["memory"]
        self._exports = exports
        self._lock = threading.Lock()

    def _write(self, text: str) -> tuple[int, int]:
        data = text.encode("utf-8")
        if not data:
            return 0, 0
        pointer = self._exports["alloc"](self._store, len(data))
        self._memory.write(self._store, data, pointer)
        return pointer, len(data)

    def call(self, name: str, a: str = "", b: str = "") -> Any:
        """The value `name` answers for the texts `a` and `b`, or WasmError."""
        with self._lock:
            arguments = [self._write(a), self._write(b)]
            try:
                packed = self._exports[name](self._store, *arguments[0], *arguments[1])
            finally:
                for pointer, length in arguments:
                    if length:
                        self._exports["dealloc"](self._store, pointer, length)
            pointer, length = packed >> 32, packed & 0xFFFFFFFF
            answer = bytes(self._memory.read(self._store, pointer, pointer + length))
            self._exports["dealloc"](self._store, pointer, length)
        envelope = json.loads(answer)
        if "error" in envelope:
            raise WasmError(envelope["error"]["code"], envelope["error"]["message"])
        return envelope["ok"]


def dumps(value: Any) -> str:
    """JSON text as JavaScript's JSON.stringify writes it (no spaces), for the module."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Verifiers:
    """The module's functions, each over Python values (see verifier-abi's table)."""

    def __init__(self, module: Module) -> None:
        self.module = module

    def verify(self, receipt: Any) -> dict[str, Any]:
        """The core's report of a receipt: verified, checks, derived, trace, mismatches."""
        report: dict[str, Any] = self.module.call("verify_receipt", dumps(receipt))
        return report

    def games(self) -> list[str]:
        games: list[str] = self.module.call("games")
        return games

    def fairness_version(self) -> int:
        return int(self.module.call("fairness_version"))

    def commitment(self, server_seed: str) -> str:
        return str(self.module.call("commitment", server_seed))

    def verify_inclusion(self, proof: dict[str, Any]) -> bool:
        return bool(self.module.call("verify_inclusion", dumps(proof)))

    def merkle_root(self, commitments: list[str]) -> str:
        return str(self.module.call("merkle_root", dumps(commitments)))

    def expected_receipt_messages(self, receipt: Any, marks: Any = None) -> dict[str, Any]:
        messages: dict[str, Any] = self.module.call("expected_receipt_messages", dumps(receipt), dumps(marks))
        return messages

    def expected_commit_message(self, answer: Any) -> dict[str, Any]:
        message: dict[str, Any] = self.module.call("expected_commit_message", dumps(answer))
        return message

    def expected_seed_batch_message(self, batch: Any) -> dict[str, Any]:
        message: dict[str, Any] = self.module.call("expected_seed_batch_message", dumps(batch))
        return message

    def typed_data_hash(self, typed_data: Any) -> str:
        return str(self.module.call("typed_data_hash", dumps(typed_data)))

    def recover_typed_data_signer(self, typed_data: Any, signature: str) -> str:
        return str(self.module.call("recover_typed_data_signer", dumps(typed_data), signature))

    def check_signed(self, signed: Any, expected: Any) -> dict[str, Any]:
        report: dict[str, Any] = self.module.call("check_signed", dumps(signed), dumps(expected))
        return report

    def play_typed_data(self, call: Any, domain: Any) -> dict[str, Any]:
        typed: dict[str, Any] = self.module.call("play_typed_data", dumps(call), dumps(domain))
        return typed

    def signed_types(self) -> dict[str, Any]:
        types: dict[str, Any] = self.module.call("signed_types")
        return types


_loaded: Verifiers | None = None
_loading = threading.Lock()


def verifiers() -> Verifiers:
    """The bundled module, instantiated once per process."""
    global _loaded
    with _loading:
        if _loaded is None:
            wasm = resources.files("arcade_client").joinpath(WASM_FILE).read_bytes()
            _loaded = Verifiers(Module(wasm))
        return _loaded
