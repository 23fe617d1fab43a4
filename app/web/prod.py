"""``rulings serve --prod``: nginx in front, gunicorn's sync workers behind it, on loopback.

Requests are short and CPU-bound (SQLite in memory, Whoosh, Jinja), so one
sync worker process per core (at least two, so a replay can never hold the only
one) uses the machine fully without threads contending for the GIL. Sync
workers must never talk to clients directly, though: each holds one connection
until its request is complete, so two clients that send headers and then go
silent took the whole site down. nginx (``deploy/nginx.conf``, see
``front.py``) reads each request in full, then hands it to a worker, and holds
each answer for slow readers; the workers only compute.

Without nginx, ``serve --prod`` says so and serves with gunicorn's threaded
worker on the public address instead: a silent client then holds one thread of
many, not a whole worker. That is a fallback, not the recommended set-up.

Gunicorn and nginx run as child processes so that this function can return an
exit status to the CLI and stop both together; ``gunicorn_argv`` is the exact
command line the tests and the benchmarks run too. No access log by default: at
hundreds of requests per second it would cost more than the requests.
``--max-requests`` recycles workers now and then so a slow leak can never grow
without bound.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent
# What the workers serve: the app factory, told how it is deployed (app/web/serving.py).
FRONTED_APP = "app:create_app({'BEHIND_PROXY': True, 'RATE_LIMITS': True, 'WARM_START': True})"
DIRECT_APP = "app:create_app({'RATE_LIMITS': True, 'WARM_START': True})"
APP_URI = FRONTED_APP
FALLBACK_THREADS = 16     # threads per worker when gunicorn faces clients itself (no nginx)


def workers() -> int:
    """One worker per core this process may run on, and at least two."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(2, cores)


def gunicorn_argv(host: str, port: int, n_workers: int | None = None, access_log: bool = False,
                  fronted: bool = True) -> list[str]:
    """The gunicorn command line for serving on ``host:port`` (behind nginx unless ``fronted=False``)."""
    argv = [
        sys.executable, "-m", "gunicorn",
        "--chdir", str(PROJECT_ROOT),     # so 'app' imports whatever the current directory
        "--bind", f"{host}:{port}",
        "--workers", str(n_workers or workers()),
        "--preload",                      # import once in the master; workers fork ready
        "--config", "python:app.web.gunicorn_hooks",   # each worker warms up before its first request
        "--timeout", "30",
        "--graceful-timeout", "10",
        "--max-requests", "20000", "--max-requests-jitter", "2000",
        "--limit-request-line", "4094",
        "--limit-request-fields", "60",
        "--error-logfile", "-",
        "--log-level", "warning",
    ]
    if fronted:
        # nginx is the only client; it connects from loopback.
        argv += ["--worker-class", "sync", "--forwarded-allow-ips", "127.0.0.1"]
    else:
        argv += ["--worker-class", "gthread", "--threads", str(FALLBACK_THREADS), "--keep-alive", "5"]
    if access_log:
        argv += ["--access-logfile", "-"]
    return argv + [FRONTED_APP if fronted else DIRECT_APP]


def run_gunicorn(host: str, port: int) -> int:
    """Serve until stopped: nginx on ``host:port`` before gunicorn, or gunicorn alone without nginx.

    Returns the exit status (0 after a clean stop). SIGTERM and SIGINT sent to
    this process (a service manager, Ctrl-C) are passed on; both servers stop
    gracefully and this process returns.
    """
    from app.web import front

    env = dict(os.environ)
    if env.get("RULINGS_ENV") == "development":
        del env["RULINGS_ENV"]           # production never runs in development mode
    run_dir = Path(tempfile.mkdtemp(prefix="rulings-serve-"))
    os.chmod(run_dir, 0o700)
    env["RULINGS_RUN_DIR"] = str(run_dir)      # replay slots and budgets, shared by the workers
    nginx = front.find_nginx()
    procs: list[tuple[str, subprocess.Popen]] = []
    try:
        if nginx is None:
            print(f"rulings serve --prod: nginx not found; {front.INSTALL_HINT}. Serving with gunicorn's "
                  f"threaded workers directly on {host}:{port} instead: slow clients can then hold threads "
                  f"({FALLBACK_THREADS} per worker).", file=sys.stderr)
            procs.append(("gunicorn", subprocess.Popen(gunicorn_argv(host, port, fronted=False), env=env)))
        else:
            upstream_port = front.free_loopback_port()
            gunicorn = subprocess.Popen(gunicorn_argv("127.0.0.1", upstream_port), env=env)
            procs.append(("gunicorn", gunicorn))
            if not _wait_listening("127.0.0.1", upstream_port, gunicorn):
                return _exit_code(gunicorn.wait())
            conf = front.write_config(run_dir, host, port, f"127.0.0.1:{upstream_port}")
            problem = front.check_config(nginx, conf)
            if problem:
                print(f"rulings serve --prod: nginx refused its configuration: {problem}", file=sys.stderr)
                return 1
            procs.append(("nginx", front.start(nginx, conf)))
        return _supervise(procs)
    finally:
        for name, proc in reversed(procs):
            if proc.poll() is None:
                stop(proc, graceful=signal.SIGQUIT if name == "nginx" else signal.SIGTERM)
        shutil.rmtree(run_dir, ignore_errors=True)


def _wait_listening(host: str, port: int, proc: subprocess.Popen, timeout: float = 120.0) -> bool:
    """Until gunicorn accepts connections (it loads the app and reads the scenarios first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        with socket.socket() as s:
            if s.connect_ex((host, port)) == 0:
                return True
        time.sleep(0.1)
    return False


def _supervise(procs: list[tuple[str, subprocess.Popen]]) -> int:
    """Wait until a signal asks us to stop or one server exits; then stop the others. Gunicorn's status wins."""
    stopping = []

    def forward(signum, frame):  # noqa: ARG001 - signal handler signature
        stopping.append(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        while not stopping and all(p.poll() is None for _, p in procs):
            time.sleep(0.2)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    for name, proc in reversed(procs):
        if proc.poll() is None:
            stop(proc, graceful=signal.SIGQUIT if name == "nginx" else signal.SIGTERM)
    codes = {name: _exit_code(proc.wait()) for name, proc in procs}
    for name, code in codes.items():
        if code != 0 and not stopping:
            print(f"rulings serve --prod: {name} exited with status {code}", file=sys.stderr)
    return codes["gunicorn"] if not stopping else max(codes.values())


def _exit_code(code: int) -> int:
    # gunicorn exits 0 on SIGTERM/SIGINT; a negative code means it was killed by a signal.
    return code if code >= 0 else 128 - code


def stop(proc: subprocess.Popen, grace: float = 15.0, graceful: int = signal.SIGTERM) -> None:
    """Ask a server to stop (gunicorn: SIGTERM, nginx: SIGQUIT let requests finish), then insist."""
    proc.send_signal(graceful)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
