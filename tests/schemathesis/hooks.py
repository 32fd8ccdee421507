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
from eth_account import Account

from payer import Player

BASE_URL = os.environ["ARCADE_ST_BASE_URL"]
PLAYER = Player(BASE_URL)
# The same choices every run (schemathesis's own cases are fixed by its --seed).
random.seed(20261123)
PURCHASES = {"cases": 0}
GAMES = {"/api/arcade/flip", "/api/arcade/dice", "/api/arcade/roulette", "/api/arcade/limbo"}
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


def recent_bet():
    recent = requests.get(f"{BASE_URL}/api/arcade/recent?limit=100", timeout=30).json()
    return random.choice(recent) if recent else None


def stranger():
    """A player of its own: commits and rotations by the run must not use up or revoke the
    main player's rounds and signature."""
    return Player(BASE_URL, key=Account.create().key.hex())


def with_payment(case, path):
    """Every other schema-valid purchase carries a fresh payment, replacing any payment header
    schemathesis made up (the rest test the 402 answers)."""
    PURCHASES["cases"] += 1
    if PURCHASES["cases"] % 2:
        return
    concrete = path.replace("{tier}", str((case.path_parameters or {}).get("tier", "")))
    headers = {k: v for k, v in (case.headers or {}).items() if k.lower() not in ("payment-signature", "x-payment")}
    case.headers = {**headers, "PAYMENT-SIGNATURE": PLAYER.payment_for(concrete)}


@schemathesis.hook
def map_case(ctx, case):
    if not positive(case):
        return case
    method, path = case.operation.method.upper(), case.operation.path
    body = case.body if isinstance(case.body, dict) else None
    if path in ("/api/arcade/commit", "/api/arcade/auth/rotate") and body is not None:
        player = stranger()
        body.update(address=player.address, signature=player.signature)
    elif path == "/api/arcade/rounds/{round_id}":
        bet = recent_bet()
        case.path_parameters["round_id"] = bet["round_id"] if bet and random.random() < 0.5 else stranger().commit()
    elif path in GAMES and body is not None:
        body["round_id"] = PLAYER.commit()
        body["wager"] = min(body.get("wager", 1), random.choice([1, 5, 50]))
        if path == "/api/arcade/limbo" and random.random() < 0.5:
            # Most generated targets pay above the payout limit; half the cases take one that fits.
            body["target"] = random.choice(["2.00", 1.5, "10"])
        if random.random() < 0.5:
            body["signature"] = PLAYER.signature
        else:
            body.pop("signature", None)
        # A generated play_signature signs no play (refused, 400 or 403); signed plays are
        # tested with eth_account in tests/api-python/test_play_signature.py.
        body.pop("play_signature", None)
    elif path == "/api/arcade/cashout" and body is not None:
        body.update(address=PLAYER.address, signature=PLAYER.signature, chips=random.choice([100, 150]))
    elif path == "/api/arcade/verify/{bet_id}":
        bet = recent_bet()
        case.path_parameters["bet_id"] = bet["bet_id"] if bet else 1
    elif path == "/api/arcade/seed-batches/{batch_id}":
        # A batch is published at start; its id is drawn at random.
        listed = requests.get(f"{BASE_URL}/api/arcade/seed-batches", timeout=30).json()
        case.path_parameters["batch_id"] = random.choice(listed)["batch_id"]
    elif path == "/api/arcade/receipts" and random.random() < 0.5:
        # Half the cases from the first receipt, so a filled page is seen too.
        case.query = {"after": 0, "limit": min(int((case.query or {}).get("limit") or 100), 1000)}
    elif path == "/api/arcade/cashout/{cashout_id}" and CASHOUTS:
        case.path_parameters["cashout_id"] = random.choice(CASHOUTS)
    elif path.startswith("/api/arcade/chips"):
        with_payment(case, path)
    return case


@schemathesis.hook
def after_call(ctx, case, response):
    STATUSES[(case.operation.method.upper(), case.operation.path)][str(response.status_code)] += 1
    if case.operation.path == "/api/arcade/cashout" and response.status_code in (200, 502, 503):
        cashout_id = response.json().get("cashout_id")
        if cashout_id:
            CASHOUTS.append(cashout_id)
