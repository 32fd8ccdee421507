"""What this package speaks: fairness version 1 and the arcade's REST API shapes of version 1.
A server announcing others is refused at connect; a commit answer naming another fairness
version is refused before anything is played, and a receipt of another version fails
re-derivation in the wasm core."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import UnsupportedServerError

FAIRNESS_VERSIONS: tuple[int, ...] = (1,)
API_VERSIONS: tuple[str, ...] = ("1",)


@dataclass(frozen=True)
class Compatibility:
    """What a manifest announced of its versions (`announced` False when neither)."""

    fairness_versions: list[int] | None
    api_version: str | None
    announced: bool


def _known(version: Any) -> bool:
    return isinstance(version, int) and not isinstance(version, bool) and version in FAIRNESS_VERSIONS


def check_manifest(manifest: Any) -> Compatibility:
    """The manifest's `fairness_versions` and `api_version`, each checked when present."""
    manifest = manifest if isinstance(manifest, dict) else {}
    fairness = manifest.get("fairness_versions")
    if fairness is None and "fairness_version" in manifest:
        fairness = [manifest["fairness_version"]]
    api = manifest.get("api_version")
    if fairness is not None:
        listed = fairness if isinstance(fairness, list) else [fairness]
        if not listed or not all(_known(v) for v in listed):
            raise UnsupportedServerError("fairness_versions", fairness, list(FAIRNESS_VERSIONS))
    if api is not None and str(api) not in API_VERSIONS:
        raise UnsupportedServerError("api_version", api, list(API_VERSIONS))
    return Compatibility(fairness, None if api is None else str(api), fairness is not None or api is not None)


def check_round_version(version: Any) -> None:
    """A round opened under a fairness version this package cannot re-derive is not played."""
    if not _known(version):
        raise UnsupportedServerError("fairness_version", version, list(FAIRNESS_VERSIONS))
