"""A flood of plain GETs, straight at daphne and behind nginx with the limits of
docs/operations.md (issue 45 item 10): the app itself limits creations, code lookups and
sockets, not page views; holding a flood of page views is the reverse proxy's job.

32 flooding clients (from 127.0.0.2: each binds that source address, so nginx tells them from
the player) GET the home page as fast as they can for `--seconds`; meanwhile one player
(127.0.0.1) opens /how-to-play/ twice a second. Printed: the player's median and p90 page
time alone, in the flood straight at daphne, and in the flood behind nginx, and what the
flooders got (200s and 429s). Loopback only.

Needs nginx (`apt-get install nginx`); the config written is the example's `limit_req` and
`limit_conn` lines with the numbers explained there.

    .venv/bin/python loadtest/flood.py [--seconds 15] [--clients 32]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest.common import daphne_env, ensure_database, free_port, pct, start_daphne, stop, wait_for_port

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/showdown_load"
DEFAULT_REDIS = "redis://127.0.0.1:6379/4"
FLOODER = "127.0.0.2"  # the flood's source address (all of 127/8 is loopback)

# The limits of docs/operations.md's example, per client address: 10 page requests a second
# with a burst of 20 (a page and its assets come in a burst; a person clicks a few pages a
# second at most), and 20 connections at once (a browser opens 6 per host, a household
# behind one address a few browsers).
NGINX_CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    limit_req_zone $binary_remote_addr zone=pages:10m rate=10r/s;
    limit_conn_zone $binary_remote_addr zone=perip:10m;
    limit_req_status 429;
    limit_conn_status 429;
    upstream showdown {{ server 127.0.0.1:{upstream}; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            limit_req zone=pages burst=20 nodelay;
            limit_conn perip 20;
            proxy_pass http://showdown;
            proxy_http_version 1.1;
            proxy_set_header Host 127.0.0.1;
            proxy_set_header X-Forwarded-For $remote_addr;
        }}
    }}
}}
"""


async def get(port: int, path: str, source: str | None = None) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0) if source else None)
    try:
        writer.write(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readline()
        await reader.read()
        return int(head.split()[1])
    finally:
        writer.close()


async def flood(port: int, until: float, counts: dict) -> None:
    while time.monotonic() < until:
        try:
            status = await asyncio.wait_for(get(port, "/", FLOODER), 30)
        except (TimeoutError, OSError, IndexError, ValueError):
            status = 0  # refused or dropped
        counts[status] = counts.get(status, 0) + 1


async def player(port: int, until: float) -> list[float]:
    times = []
    while time.monotonic() < until:
        start = time.monotonic()
        status = await get(port, "/how-to-play/")
        assert status == 200, status
        times.append((time.monotonic() - start) * 1000)
        await asyncio.sleep(max(0.0, 0.5 - (time.monotonic() - start)))
    return times


async def phase(port: int, clients: int, seconds: float) -> tuple[list[float], dict]:
    until = time.monotonic() + seconds
    counts: dict[int, int] = {}
    floods = [flood(port, until, counts) for _ in range(clients)]
    times, *_ = await asyncio.gather(player(port, until), *floods)
    return times or [], counts


def line(name: str, times: list[float], counts: dict) -> str:
    flood = ", ".join(f"{k or 'refused'}: {v}" for k, v in sorted(counts.items())) or "no flood"
    p50, p90 = statistics.median(times), pct(times, 90)
    return f"  {name:<32} player's page p50 {p50:7.1f} ms, p90 {p90:7.1f} ms; flood {flood}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=15.0)
    p.add_argument("--clients", type=int, default=32)
    p.add_argument("--database-url", default=os.environ.get("LOADTEST_DATABASE_URL", DEFAULT_DB))
    p.add_argument("--redis-url", default=os.environ.get("LOADTEST_REDIS_URL", DEFAULT_REDIS))
    args = p.parse_args()
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        raise SystemExit("nginx is not installed: apt-get install nginx")
    ensure_database(args.database_url)
    daphne_port, nginx_port = free_port(), free_port()
    daphne = start_daphne(daphne_port, "config.asgi:application", daphne_env(args.database_url, args.redis_url))
    with tempfile.TemporaryDirectory() as tmp:
        conf = Path(tmp) / "nginx.conf"
        conf.write_text(NGINX_CONF.format(tmp=tmp, upstream=daphne_port, port=nginx_port))
        proxy = subprocess.Popen([nginx, "-c", str(conf), "-p", tmp, "-g", "daemon off;"], stderr=subprocess.PIPE)
        try:
            wait_for_port(nginx_port, proxy, what="nginx")
            print(f"loadtest/flood.py: {args.clients} flooding clients from {FLOODER}, {args.seconds:.0f} s a phase")
            alone, _ = asyncio.run(phase(daphne_port, 0, args.seconds))
            print(line("alone, straight at daphne", alone, {}))
            direct, direct_counts = asyncio.run(phase(daphne_port, args.clients, args.seconds))
            print(line("flood, straight at daphne", direct, direct_counts))
            behind, behind_counts = asyncio.run(phase(nginx_port, args.clients, args.seconds))
            print(line("flood, behind nginx's limits", behind, behind_counts))
        finally:
            stop(proxy)
            stop(daphne)


if __name__ == "__main__":
    main()
