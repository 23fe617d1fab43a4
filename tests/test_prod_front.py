"""The slow-client attack on the real production server (issue 15, item 2).

Two clients send a request's headers with ``Content-Length: 1000`` and then go
silent. Against gunicorn's sync workers alone that held both workers, and
``/healthz`` took 31.8 s. ``rulings serve --prod`` puts nginx in front, which
holds such clients itself; without nginx it falls back to threaded workers and
says so. Either way ``/healthz`` must keep answering at once.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from app.web import front

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _get(port: int, path: str, timeout: float) -> tuple[int, float]:
    """One GET on a fresh connection: (status, seconds). Status 0 when it failed or timed out."""
    t0 = time.monotonic()
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        return int(data[9:12]), time.monotonic() - t0
    except (OSError, ValueError):
        return 0, time.monotonic() - t0


def _serve(built_index: Path, port: int, **env_extra: str) -> subprocess.Popen:
    env = dict(os.environ, RULINGS_INDEX_DIR=str(built_index), **env_extra)
    env.pop("RULINGS_ENV", None)
    # The log goes to a file: a pipe nobody reads until the end could fill and stop the server.
    log = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--prod", "--host", HOST, "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
    proc.log = log  # type: ignore[attr-defined]
    return proc


def _log(proc: subprocess.Popen) -> str:
    proc.log.seek(0)  # type: ignore[attr-defined]
    return proc.log.read()  # type: ignore[attr-defined]


def _wait_healthy(proc: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if _get(port, "/healthz", 5)[0] == 200:
            return
        time.sleep(0.2)
    proc.kill()
    pytest.fail(f"the server did not come up: {_log(proc)[-3000:]}")


def _silent_clients(port: int) -> list[socket.socket]:
    """Two clients that announce a 1000-byte body and go silent: one after its headers, one part-way through them."""
    first = socket.create_connection((HOST, port), timeout=5)
    first.sendall(f"POST /api/replay HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/yaml\r\n"
                  f"Content-Length: 1000\r\n\r\n".encode())
    second = socket.create_connection((HOST, port), timeout=5)
    second.sendall(f"POST /api/replay HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: 1000\r\n".encode())
    return [first, second]


def _healthz_under_attack(port: int) -> list[tuple[int, float]]:
    socks = _silent_clients(port)
    try:
        time.sleep(0.5)                     # let them reach whatever would hold them
        results = []
        end = time.monotonic() + 6          # longer than any worker could wait it out quietly
        while time.monotonic() < end:
            results.append(_get(port, "/healthz", timeout=10))
            time.sleep(0.1)
        return results
    finally:
        for s in socks:
            s.close()


def _stop(proc: subprocess.Popen) -> int:
    proc.terminate()
    try:
        return proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


@pytest.mark.skipif(front.find_nginx() is None, reason="nginx is not installed (apt-get install nginx; .ci/run does)")
def test_two_silent_clients_do_not_hold_healthz_behind_nginx(built_index):
    port = _free_port()
    proc = _serve(built_index, port)
    try:
        _wait_healthy(proc, port)
        results = _healthz_under_attack(port)
        statuses = [s for s, _ in results]
        slowest = max(t for _, t in results)
        assert statuses and all(s == 200 for s in statuses), statuses
        assert slowest < 2.0, slowest       # at once, on a busy shared machine: not 30 s
        # It is nginx answering in front (gunicorn's own header is never seen).
        with socket.create_connection((HOST, port), timeout=10) as s:
            s.sendall(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
            head = s.recv(65536).split(b"\r\n\r\n")[0].lower()
        assert b"server: nginx" in head and b"gunicorn" not in head
        # A flood of replay requests from one address is cut short in nginx, with Retry-After.
        heads = []
        for _ in range(40):
            with socket.create_connection((HOST, port), timeout=10) as s:
                s.sendall(f"POST /api/replay HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
                          f"Content-Length: 0\r\n\r\n".encode())
                heads.append(s.recv(65536).split(b"\r\n\r\n")[0].lower())
        refused = [h for h in heads if h.startswith(b"http/1.1 429")]
        assert refused and all(b"retry-after: " in h for h in refused), heads[-1]
        assert _get(port, "/healthz", 10)[0] == 200
    finally:
        assert _stop(proc) == 0
    with socket.socket() as s:       # nothing is left listening on the port
        assert s.connect_ex((HOST, port)) != 0


def test_without_nginx_serve_prod_says_so_and_still_holds_up(built_index):
    port = _free_port()
    proc = _serve(built_index, port, RULINGS_NGINX="/nonexistent/nginx")
    try:
        _wait_healthy(proc, port)
        results = _healthz_under_attack(port)
        assert all(s == 200 for s, _ in results) and max(t for _, t in results) < 2.0, results
    finally:
        code = _stop(proc)
        err = _log(proc)
    assert code == 0
    assert "nginx not found" in err and "apt-get install nginx" in err


def _raw(port: int, request: bytes, timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """One raw request: (status, lower-cased headers, body)."""
    with socket.create_connection((HOST, port), timeout=timeout) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.skipif(front.find_nginx() is None, reason="nginx is not installed (apt-get install nginx; .ci/run does)")
def test_errors_nginx_makes_itself_carry_the_security_headers_and_the_apis_json(built_index):
    """Issue 36: nginx's own 413, 414, 405 and 429 were HTML without the security headers, also under /api."""
    import json

    from app.web.security import SECURITY_HEADERS

    port = _free_port()
    proc = _serve(built_index, port)
    big = b"x" * (int(front.limits.FORM_BYTES.value) + 10)
    try:
        _wait_healthy(proc, port)
        cases = {
            "413 api": (b"POST /api/replay HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Length: "
                        + str(len(big)).encode() + b"\r\n\r\n" + big, 413, "json"),
            "413 page": (b"POST /try HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Length: "
                         + str(len(big)).encode() + b"\r\n\r\n" + big, 413, "html"),
            "414": (b"GET /api/search?q=" + b"a" * 40000 + b" HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
                    414, "html"),
            "405 trace": (b"TRACE / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", 405, "html"),
            "405 trace api": (b"TRACE /api/cards HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", 405, "json"),
        }
        for name, (req, status, kind) in cases.items():
            got, headers, body = _raw(port, req)
            assert got == status, (name, got, body[:200])
            for header, value in SECURITY_HEADERS.items():
                assert headers.get(header.lower()) == value, (name, header, headers)
            if kind == "json":
                doc = json.loads(body)
                assert doc["status"] == status and doc["code"] and len(doc["message"]) > 10, (name, doc)
                assert headers["content-type"].startswith("application/json"), name
            else:
                assert headers["content-type"].startswith("text/html") and b"<h1>" in body, (name, body[:200])
            if status == 405:
                assert headers.get("allow") == "GET, HEAD, POST", (name, headers)
        refused = None
        for _ in range(40):          # nginx's per-address replay rate: its own 429, in the API's shape
            got, headers, body = _raw(port, b"POST /api/replay HTTP/1.1\r\nHost: h\r\nConnection: close\r\n"
                                            b"Content-Length: 0\r\n\r\n")
            if got == 429 and headers.get("server", "").startswith("nginx") and b"too_many_requests" in body:
                refused = (headers, body)
                break
        assert refused is not None
        headers, body = refused
        assert json.loads(body)["code"] == "too_many_requests" and headers["retry-after"] == "1"
        assert headers["content-security-policy"] == SECURITY_HEADERS["Content-Security-Policy"]
    finally:
        assert _stop(proc) == 0
