"""store.db.recorded_state: the state digest and the per-table digests an audit entry
recorded, read from the end of its payload, are what decoding the whole payload gives —
whatever its data holds (keys named "state" at any depth, quotes, braces in strings)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from recount_desk.core.audit import canonical_json
from recount_desk.store.db import recorded_state


def _value(rnd: random.Random, depth: int) -> Any:
    r = rnd.random()
    if depth > 3 or r < 0.3:
        return rnd.choice([1, -2, None, True, "x", 'a "quoted", \\"state\\":"', '{"state":"y"}',
                           ',"state":"z"}', "é\n}"])
    if r < 0.6:
        return [_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    keys = rnd.sample(["state", "tables", "writer", "data", "units", "a,\"state\":"], 3)
    return {k: _value(rnd, depth + 1) for k in keys}


def _payload(rnd: random.Random) -> str:
    body: dict[str, Any] = {"data": _value(rnd, 0), "login": "clerk"}
    if rnd.random() < 0.9:
        body["state"] = f"{rnd.getrandbits(256):064x}"
    if rnd.random() < 0.9:
        body["tables"] = {t: f"{rnd.getrandbits(256):064x}"
                          for t in rnd.sample(["precinct", "state", "recount_unit"], 2)}
        if rnd.random() < 0.2:
            body["tables"]["nested"] = {"state": "deep"}
    if rnd.random() < 0.3:
        body["writer"] = rnd.choice(["ws-1", ',"state":"w"', "}"])
    return canonical_json(body)


@pytest.mark.parametrize("seed", range(300))
def test_the_recorded_state_is_that_of_the_whole_payload(seed: int) -> None:
    text = _payload(random.Random(seed))
    body = json.loads(text)
    assert recorded_state(text) == (body.get("state"), body.get("tables"))


def test_a_state_key_in_the_data_is_not_taken_for_the_entrys() -> None:
    text = canonical_json({"data": {"units": [{"state": "forged"}]}, "login": "x"})
    assert recorded_state(text) == (None, None)
    text = canonical_json({"data": {"state": "forged"}, "login": "x", "state": "real",
                           "tables": {"t": "d"}})
    assert recorded_state(text) == ("real", {"t": "d"})


def test_a_payload_that_is_not_an_object_records_no_state() -> None:
    assert recorded_state("[1, 2]") == (None, None)
