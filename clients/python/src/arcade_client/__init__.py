"""arcade-client: play the Provably Fair Arcade with every round verified before it returns, by
the arcade's own fairness core and signature checks compiled to wasm and run by wasmtime."""

from ._client import BetCheck, Round
from .aio import AsyncArcade
from .arcade import Arcade
from .errors import ArcadeError, SpendingCapError, UnsupportedServerError, VerificationError
from .versions import API_VERSIONS, FAIRNESS_VERSIONS, Compatibility

__all__ = [
    "API_VERSIONS", "FAIRNESS_VERSIONS", "Arcade", "ArcadeError", "AsyncArcade", "BetCheck", "Compatibility",
    "Round", "SpendingCapError", "UnsupportedServerError", "VerificationError",
]
__version__ = "0.1.0"
