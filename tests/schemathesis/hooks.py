"""Schemathesis hooks: schema-valid cases get real ids and signatures where the operation
needs them, so every operation's success path is reached (a random round id, bet id or
signature is valid by the schema but refers to nothing). Negative cases are left alone."""

import atexit
import json
import os
import random
from collections import defaultdict

import requests
import schemathesis

from payer import Player

BASE_URL = os.environ["ARCADE_ST_BASE_URL"]
PLAYER = Player(BASE_URL)
GAMES = {"/api/arcade/flip", "/api/arcade/dice", "/api/arcade/roulette"}
CASHOUTS = []
# (method, path) -> status -> count, written out when schemathesis ends (run.py reads it).
STATUSES = defaultdict(lambda: defaultdict(int))


@atexit.register
def write_statuses():
    path = os.environ.get("ARCADE_ST_STATUSES")
    if path:
        with open(path, "w") as out:
            json.dump({f"{m} {p}": counts for (m, p), counts in STATUSES.items()}, out, indent=1)


def positive(case):
    meta = case.meta
    return meta is None or meta.generation.mode.is_positive


def known_bet_id():
    recent = requests.get(f"{BASE_URL}/api/arcade/recent?limit=100", timeout=30).json()
    return random.choice(recent)["bet_id"] if recent else 1


@schemathesis.hook
def map_case(ctx, case):
    if not positive(case):
        return case
    method, path = case.operation.method.upper(), case.operation.path
    body = case.body if isinstance(case.body, dict) else None
    if path == "/api/arcade/commit" and body is not None:
        body.update(address=PLAYER.address, signature=PLAYER.signature)
    elif path in GAMES and body is not None:
        body["round_id"] = PLAYER.commit()
        body["wager"] = min(body.get("wager", 1), random.choice([1, 5, 50]))
        if random.random() < 0.5:
            body["signature"] = PLAYER.signature
        else:
            body.pop("signature", None)
    elif path == "/api/arcade/cashout" and body is not None:
        body.update(address=PLAYER.address, signature=PLAYER.signature, chips=random.choice([100, 150]))
    elif path == "/api/arcade/verify/{bet_id}":
        case.path_parameters["bet_id"] = known_bet_id()
    elif path == "/api/arcade/cashout/{cashout_id}" and CASHOUTS:
        case.path_parameters["cashout_id"] = random.choice(CASHOUTS)
    elif path.startswith("/api/arcade/chips") and random.random() < 0.6:
        concrete = path.replace("{tier}", str((case.path_parameters or {}).get("tier", "")))
        case.headers = {**(case.headers or {}), "PAYMENT-SIGNATURE": PLAYER.payment_for(concrete)}
    return case


@schemathesis.hook
def after_call(ctx, case, response):
    STATUSES[(case.operation.method.upper(), case.operation.path)][str(response.status_code)] += 1
    if case.operation.path == "/api/arcade/cashout" and response.status_code in (200, 502, 503):
        cashout_id = response.json().get("cashout_id")
        if cashout_id:
            CASHOUTS.append(cashout_id)
