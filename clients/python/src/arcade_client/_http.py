"""JSON over HTTP to the arcade, blocking (requests) and async (httpx): an error answer becomes
an ArcadeError with the server's `code`; a rate-limited request (429) waits as told and is sent
again; a request whose answer was lost (the connection dropped, or no answer in time) is sent
again only where the flow says that is safe. `drive` and `drive_async` run a flow with them."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import urljoin

import httpx
import requests

from ._core import Flow, Reply, Request, T
from .errors import ArcadeError

ANSWER_TIMEOUT_S = 30.0
MAX_WAITS = 5
MAX_WAIT_S = 30.0
ATTEMPTS = 4


def _code_of(status: int, body: Any) -> str:
    if isinstance(body, dict):
        for key in ("code", "error"):
            if isinstance(body.get(key), str):
                return str(body[key])
    return "validation_failed" if status == 422 else f"http_{status}"


def _detail_of(body: Any, text: str) -> str:
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, str):
        return detail
    return json.dumps(detail) if detail is not None else text[:200]


def _wait_of(headers: Any) -> float:
    try:
        seconds = float(headers.get("retry-after") or 1)
    except ValueError:
        seconds = 1.0
    return min(max(seconds, 1.0), MAX_WAIT_S)


def answer_of(request: Request, status: int, text: str) -> Any:
    """The parsed JSON answer, or ArcadeError for an error status or a body that is not JSON."""
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = None
    if status >= 400:
        raise ArcadeError(_code_of(status, parsed), status, _detail_of(parsed, text), parsed)
    if parsed is None:
        raise ArcadeError("not_json", status, f"{request.method} {request.path}: the answer is not JSON", text)
    return parsed


class SyncHttp:
    """A blocking session to the arcade at `base_url`."""

    def __init__(self, base_url: str, session: requests.Session | None = None) -> None:
        self.base_url = base_url
        self.session = session or requests.Session()

    def _once(self, request: Request) -> Any:
        for waits in range(MAX_WAITS + 1):
            response = self.session.request(request.method, urljoin(self.base_url, request.path),
                                             json=request.body, timeout=ANSWER_TIMEOUT_S)
            if response.status_code != 429 or waits >= MAX_WAITS:
                return answer_of(request, response.status_code, response.text)
            time.sleep(_wait_of(response.headers))
        raise AssertionError("unreachable")

    def send(self, request: Request) -> Reply:
        for tries in range(1, ATTEMPTS + 1):
            try:
                return Reply(self._once(request), tries)
            except (requests.ConnectionError, requests.Timeout):
                if not request.retry or tries >= ATTEMPTS:
                    raise
                time.sleep(0.1 * tries)
        raise AssertionError("unreachable")


class AsyncHttp:
    """An async session to the arcade at `base_url`."""

    def __init__(self, base_url: str, client: httpx.AsyncClient | None = None) -> None:
        self.base_url = base_url
        self.client = client or httpx.AsyncClient(timeout=ANSWER_TIMEOUT_S)

    async def _once(self, request: Request) -> Any:
        for waits in range(MAX_WAITS + 1):
            response = await self.client.request(request.method, urljoin(self.base_url, request.path), json=request.body)
            if response.status_code != 429 or waits >= MAX_WAITS:
                return answer_of(request, response.status_code, response.text)
            await asyncio.sleep(_wait_of(response.headers))
        raise AssertionError("unreachable")

    async def send(self, request: Request) -> Reply:
        for tries in range(1, ATTEMPTS + 1):
            try:
                return Reply(await self._once(request), tries)
            except httpx.TransportError:
                if not request.retry or tries >= ATTEMPTS:
                    raise
                await asyncio.sleep(0.1 * tries)
        raise AssertionError("unreachable")


def drive(flow: Flow[T], http: SyncHttp) -> T:
    """Runs a flow to its value, sending each request it yields."""
    reply: Reply | None = None
    error: Exception | None = None
    while True:
        try:
            request = flow.throw(error) if error is not None else flow.send(reply)  # type: ignore[arg-type]
        except StopIteration as stop:
            value: T = stop.value
            return value
        try:
            reply, error = http.send(request), None
        except Exception as failure:  # handed to the flow, which raises it on or handles it
            reply, error = None, failure


async def drive_async(flow: Flow[T], http: AsyncHttp) -> T:
    """`drive`, with the requests awaited."""
    reply: Reply | None = None
    error: Exception | None = None
    while True:
        try:
            request = flow.throw(error) if error is not None else flow.send(reply)  # type: ignore[arg-type]
        except StopIteration as stop:
            value: T = stop.value
            return value
        try:
            reply, error = await http.send(request), None
        except Exception as failure:  # handed to the flow, which raises it on or handles it
            reply, error = None, failure
