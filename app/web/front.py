"""The buffering front (nginx) that ``rulings serve --prod`` puts before gunicorn.

The configuration is ``deploy/nginx.conf`` in the repository, with a few values
filled in here: the run directory (pid file, temporary paths), the address to
listen on, gunicorn's loopback address, and the body limit the app enforces.
nginx runs in the foreground as a child of ``rulings serve``, so stopping the
one stops the other.
"""
from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
from pathlib import Path

from app.web import limits
from app.web.security import SECURITY_HEADERS

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATE = PROJECT_ROOT / "deploy" / "nginx.conf"
NGINX_CANDIDATES = ("nginx", "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")
INSTALL_HINT = "install it with 'apt-get install nginx' (Debian/Ubuntu) or your system's package manager"


def find_nginx() -> str | None:
    """The nginx binary, on PATH or where Debian and source builds put it (sbin is often not on PATH)."""
    override = os.environ.get("RULINGS_NGINX")
    if override:
        return override if Path(override).is_file() else None
    for cand in NGINX_CANDIDATES:
        found = shutil.which(cand)
        if found:
            return found
    return None


def listen_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def render_config(run_dir: Path, host: str, port: int, upstream: str) -> str:
    """``deploy/nginx.conf`` with this server's values in place of the ``@NAME@`` markers."""
    values = {
        "RUN_DIR": str(run_dir),
        "LISTEN": listen_address(host, port),
        "UPSTREAM": upstream,
        "MAX_BODY": str(int(limits.FORM_BYTES.value)),
        # As root, nginx's workers would otherwise become 'nobody', who cannot enter the run directory.
        "USER": f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else "",
        # the headers the app sets on every answer, on the errors nginx makes itself too
        "SECURITY_HEADERS": "\n".join(f'            add_header {name} "{value}" always;'
                                       for name, value in SECURITY_HEADERS.items()),
    }
    text = TEMPLATE.read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    if re.search(r"@[A-Z_]+@", text):
        raise ValueError(f"{TEMPLATE} has a @VALUE@ marker that front.py does not fill in")
    return text


def write_config(run_dir: Path, host: str, port: int, upstream: str) -> Path:
    path = run_dir / "nginx.conf"
    path.write_text(render_config(run_dir, host, port, upstream), encoding="utf-8")
    return path


def check_config(nginx: str, conf: Path) -> str | None:
    """nginx's own verdict on the written configuration (None when it is fine)."""
    proc = subprocess.run([nginx, "-t", "-q", "-p", str(conf.parent), "-c", str(conf)],
                          capture_output=True, text=True, timeout=30)
    return None if proc.returncode == 0 else (proc.stderr or proc.stdout).strip()


def start(nginx: str, conf: Path) -> subprocess.Popen:
    """nginx in the foreground (``daemon off``), a child of this process."""
    return subprocess.Popen([nginx, "-p", str(conf.parent), "-c", str(conf), "-g", "daemon off;"])


def free_loopback_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
