"""``rulings serve --prod``: gunicorn, one sync worker per core, against ``app:create_app()``.

Requests are short and CPU-bound (SQLite in memory, Whoosh, Jinja), so one
process per core with gunicorn's sync worker uses the machine fully without
threads contending for the GIL. Gunicorn runs as a child process so that this
function can return its exit status to the CLI, and so that the exact command
line (``gunicorn_argv``) is what the tests and ``bench/load.py`` run too.

No access log by default: at hundreds of requests per second it would cost
more than the requests. ``--max-requests`` recycles workers now and then so a
slow leak can never grow without bound.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

APP_URI = "app:create_app()"
PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent


def workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def gunicorn_argv(host: str, port: int, n_workers: int | None = None, access_log: bool = False) -> list[str]:
    """The gunicorn command line for serving on ``host:port``."""
    argv = [
        sys.executable, "-m", "gunicorn",
        "--chdir", str(PROJECT_ROOT),     # so 'app' imports whatever the current directory
        "--bind", f"{host}:{port}",
        "--workers", str(n_workers or workers()),
        "--worker-class", "sync",
        "--preload",                      # import once in the master; workers fork ready
        "--timeout", "30",
        "--graceful-timeout", "10",
        "--max-requests", "20000", "--max-requests-jitter", "2000",
        "--limit-request-line", "4094",
        "--limit-request-fields", "60",
        "--error-logfile", "-",
        "--log-level", "warning",
    ]
    if access_log:
        argv += ["--access-logfile", "-"]
    return argv + [APP_URI]


def run_gunicorn(host: str, port: int) -> int:
    """Serve until stopped; returns gunicorn's exit status (0 after a clean stop).

    SIGTERM and SIGINT sent to this process (a service manager, Ctrl-C) are passed
    on to gunicorn, which stops its workers gracefully; this process then returns.
    """
    env = dict(os.environ)
    if env.get("RULINGS_ENV") == "development":
        del env["RULINGS_ENV"]           # production never runs in development mode
    proc = subprocess.Popen(gunicorn_argv(host, port), env=env)

    def forward(signum, frame):  # noqa: ARG001 - signal handler signature
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM if signum == signal.SIGTERM else signal.SIGINT)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        while True:
            try:
                code = proc.wait(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                continue
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if proc.poll() is None:          # we are leaving for another reason: do not orphan the server
            stop(proc)
    # gunicorn exits 0 on SIGTERM/SIGINT; a negative code means it was killed by a signal.
    return code if code >= 0 else 128 - code


def stop(proc: subprocess.Popen, grace: float = 15.0) -> None:
    """Ask gunicorn to stop (SIGTERM lets workers finish their requests), then insist."""
    proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
