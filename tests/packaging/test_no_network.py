"""The program never opens a network connection: a full self-test under a socket guard."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from recount_desk.selftest import run_self_test


class NetworkAttempt(OSError):
    pass


@pytest.fixture
def attempts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every connect / resolve is recorded and refused."""
    seen: list[str] = []

    def guard(name: str) -> Any:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            seen.append(f"{name}{args[1:] if name.startswith('socket.') else args}")
            raise NetworkAttempt(f"network access attempted: {name}")
        return refuse

    monkeypatch.setattr(socket.socket, "connect", guard("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", guard("socket.connect_ex"))
    monkeypatch.setattr(socket.socket, "sendto", guard("socket.sendto"))
    monkeypatch.setattr(socket, "create_connection", guard("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", guard("getaddrinfo"))
    monkeypatch.setattr(socket, "gethostbyname", guard("gethostbyname"))
    return seen


def test_the_guard_catches_a_connection(attempts: list[str]) -> None:
    with pytest.raises(NetworkAttempt):
        socket.create_connection(("example.org", 80), timeout=1)
    with socket.socket() as s, pytest.raises(NetworkAttempt):
        s.connect(("127.0.0.1", 9))
    assert len(attempts) == 2


def test_full_self_test_opens_no_connection(attempts: list[str]) -> None:
    ok, lines = run_self_test()
    assert ok, "\n".join(lines)
    assert attempts == []
