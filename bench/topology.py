"""The production topology on one machine, started from Debian's packages and the
repository's deployment files, as production runs them:

    .venv/bin/python -m bench.topology up      # its last line: the address of nginx
    .venv/bin/python -m bench.topology down    # stops everything it started

- nginx (Debian's ``nginx``) with ``docs/deploy/nginx.conf``, rendered for loopback by
  its markers (``render_site``): static files from the collected ``STATIC_ROOT``,
  ``/ws/`` upgraded, everything else over ``least_conn`` to
- four ASGI processes, each the command of ``docs/deploy/gin-asgi@.service``;
- a Celery worker for the default queue, one for the ``analysis`` queue and one beat,
  each the ``ExecStart`` of its unit file in ``docs/deploy/``;
- PgBouncer (Debian's ``pgbouncer``) in transaction mode in front of PostgreSQL: by
  default a private cluster made with Debian's ``initdb`` in the run directory
  (``--postgres HOST:PORT`` uses a running server instead, with database
  ``gin_topology``); the site runs with ``DATABASE_PREPARED_STATEMENTS=0``, as a pooler
  in transaction mode requires (docs/operations.md, "Past one machine");
- three private ``redis-server`` processes: two shards of the channel layer
  (``CHANNEL_REDIS_URLS``) and one for the broker and the cache (``REDIS_URL``).

Every process listens on a free loopback port and keeps its files under the run
directory (``build/topology``, ``--dir``): the machine's PostgreSQL and Redis on 5432
and 6379 are never touched (with ``--postgres`` only the one database). Each runs
under a small supervisor of its own (``_supervise``), which restarts it a second after
it exits, as ``Restart=always`` / ``RestartSec=1`` do in the unit files: the fault
run (tests/reliability/test_topology_faults.py) kills and restarts them through
``Topology.kill`` and ``Topology.restart``. ``down`` stops the supervisors and their
processes by the pid files in ``<dir>/pids`` and leaves nothing running.

The environment every site process shares is ``<dir>/env`` (``docs/deploy/env.example``
with the topology's addresses), read by ``bench.live_load --target``.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "docs" / "deploy"
DEFAULT_DIR = ROOT / "build" / "topology"
PYTHON = sys.executable
VENV_BIN = Path(PYTHON).parent
DATABASE = "gin_topology"
ASGI_PROCESSES = 4
CHANNEL_SHARDS = 2
RESTART_SECONDS = 1.0  # RestartSec=1 in the unit files
START_TIMEOUT = 90.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def postgres_bin(name: str) -> str:
    """Debian's PostgreSQL binary ``name`` (the newest installed version)."""
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                   key=lambda p: int(p.parts[-3]))
    if not found:
        raise SystemExit(f"no /usr/lib/postgresql/*/bin/{name}: apt-get install postgresql")
    return str(found[-1])


def service_user() -> str | None:
    """PostgreSQL and PgBouncer refuse to run as root: as root they run as ``postgres``."""
    return "postgres" if os.geteuid() == 0 else None


# --- the repository's deployment files, rendered --------------------------------------


def render_site(asgi_ports: list[int], listen: str, static_root: Path) -> str:
    """``docs/deploy/nginx.conf`` for this machine, by its markers (see its head)."""
    lines: list[str] = []
    skipping = False
    for line in (DEPLOY / "nginx.conf").read_text().splitlines():
        if "@https-redirect-begin" in line:
            skipping = True
        if skipping:
            skipping = "@https-redirect-end" not in line
            continue
        if line.rstrip().endswith("# @asgi"):
            if "8001" in line:  # the first: one line per process
                lines.extend(line.replace("8001", str(port)) for port in asgi_ports)
            continue
        if line.rstrip().endswith("# @tls"):
            continue
        if line.rstrip().endswith("# @listen"):
            line = re.sub(r"listen [^;]*;", f"listen {listen};", line)
        if line.rstrip().endswith("# @static"):
            line = re.sub(r"alias [^;]*;", f"alias {static_root}/;", line)
        lines.append(line)
    return "\n".join(lines) + "\n"


def unit_command(unit: str, instance: str = "") -> list[str]:
    """The ``ExecStart`` of ``docs/deploy/<unit>`` with the virtualenv's programs and the
    instance name (``%i``) filled in."""
    text = (DEPLOY / unit).read_text()
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    command = line.removeprefix("ExecStart=").replace("%i", instance).replace("%%", "%")
    argv = shlex.split(command)
    argv[0] = str(VENV_BIN / Path(argv[0]).name)
    return argv


def unit_nice(unit: str) -> int:
    found = re.search(r"^Nice=(-?\d+)", (DEPLOY / unit).read_text(), re.M)
    return int(found.group(1)) if found else 0


def deploy_env() -> dict[str, str]:
    """``docs/deploy/env.example``, as key/value pairs (comments left out)."""
    env = {}
    for line in (DEPLOY / "env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            env[key.strip()] = value.strip()
    return env


# --- the layout of one run ---------------------------------------------------------------


@dataclass
class Layout:
    """Ports and paths of one topology, kept in ``<dir>/topology.json``."""

    dir: str
    nginx_port: int
    asgi_ports: list[int]
    pgbouncer_port: int
    postgres_host: str
    postgres_port: int
    private_postgres: bool
    redis_ports: list[int]  # channel shards first, then the broker and cache
    services: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}"

    @property
    def path(self) -> Path:
        return Path(self.dir)

    def save(self) -> None:
        (self.path / "topology.json").write_text(json.dumps(self.__dict__, indent=1))

    @classmethod
    def load(cls, directory: Path) -> Layout:
        return cls(**json.loads((directory / "topology.json").read_text()))

    def site_env(self) -> dict[str, str]:
        """The environment of every site process (as /etc/gin/env in production)."""
        env = deploy_env()
        for key in list(env):
            if key.startswith("EMAIL_") or key == "DEFAULT_FROM_EMAIL":
                del env[key]  # no SMTP: e-mails are written under the run directory
        channel = [f"redis://127.0.0.1:{port}/0" for port in self.redis_ports[:CHANNEL_SHARDS]]
        env.update({
            "DEBUG": "0",
            "SECRET_KEY": "topology-only-" + "t" * 50,
            "EXPORT_SIGNING_KEY": "7" * 64,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CSRF_TRUSTED_ORIGINS": self.url,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pgbouncer_port}/{DATABASE}",
            "DATABASE_PREPARED_STATEMENTS": "0",
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_ports[-1]}/0",
            "CHANNEL_REDIS_URLS": ",".join(channel),
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "STATIC_ROOT": str(self.path / "static"),
            "EMAIL_FILE_PATH": str(self.path / "mail"),
            "SITE_URL": self.url,
            "REQUEST_LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "ginsite.settings",
        })
        return env

    def direct_database_url(self) -> str:
        """PostgreSQL itself, past PgBouncer (migrations, the fault run's checks)."""
        return f"postgres://postgres@{self.postgres_host}:{self.postgres_port}/{DATABASE}"


def process_env(extra: dict[str, str]) -> dict[str, str]:
    base = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TZ") if key in os.environ}
    return {**base, **extra}


# --- supervised processes ------------------------------------------------------------------


def pid_file(layout: Layout, name: str, supervisor: bool = False) -> Path:
    return layout.path / "pids" / (f"{name}.supervisor.pid" if supervisor else f"{name}.pid")


def read_pid(path: Path) -> int | None:
    try:
        pid = int(path.read_text().strip())
    except (OSError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


def supervise(name: str, directory: Path, spec_json: str) -> None:
    """Run one service and start it again a second after it exits (``Restart=always``)
    until told to stop (SIGTERM); its pid is in ``pids/<name>.pid``."""
    spec = json.loads(spec_json)
    child: subprocess.Popen | None = None
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(spec.get("stop_signal", signal.SIGTERM))

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    pids = directory / "pids"
    log_path = directory / "logs" / f"{name}.log"
    niceness = int(spec.get("nice", 0))

    def lower_priority() -> None:
        os.nice(niceness)

    while not stopping:
        with open(log_path, "ab") as log:
            child = subprocess.Popen(
                spec["argv"], cwd=spec.get("cwd", str(ROOT)), env=spec["env"], stdout=log,
                stderr=subprocess.STDOUT, user=spec.get("user"),
                process_group=0,
                preexec_fn=lower_priority if niceness else None,
            )
        (pids / f"{name}.pid").write_text(str(child.pid))
        child.wait()
        if stopping:
            break
        with open(log_path, "ab") as log:
            log.write(f"[supervisor] {name} exited with {child.returncode}; "
                      f"restarting in {RESTART_SECONDS:g} s\n".encode())
        deadline = time.monotonic() + RESTART_SECONDS
        while not stopping and time.monotonic() < deadline:
            time.sleep(0.05)
    (pids / f"{name}.pid").unlink(missing_ok=True)


class Topology:
    """One running topology: start it (``up``), find it again (``Topology.find``), hurt
    its processes (``kill``, ``restart``) and stop it (``down``)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    @classmethod
    def find(cls, directory: Path = DEFAULT_DIR) -> Topology:
        return cls(Layout.load(directory))

    @property
    def url(self) -> str:
        return self.layout.url

    # --- starting ------------------------------------------------------------------
    @classmethod
    def up(cls, directory: Path = DEFAULT_DIR, postgres: str | None = None,
           log=print) -> Topology:
        directory = directory.resolve()
        if (directory / "topology.json").exists():
            existing = cls.find(directory)
            if any(read_pid(pid_file(existing.layout, name, True))
                   for name in existing.layout.services):
                raise SystemExit(f"a topology is already running in {directory}: run down first")
        if directory.exists():
            shutil.rmtree(directory)
        for sub in ("pids", "logs", "mail", "nginx/temp", "run"):
            (directory / sub).mkdir(parents=True, exist_ok=True)
        if postgres:
            host, port = postgres.rsplit(":", 1)
        else:
            host, port = "127.0.0.1", str(free_port())
        layout = Layout(
            dir=str(directory), nginx_port=free_port(),
            asgi_ports=[free_port() for _ in range(ASGI_PROCESSES)],
            pgbouncer_port=free_port(), postgres_host=host, postgres_port=int(port),
            private_postgres=not postgres,
            redis_ports=[free_port() for _ in range(CHANNEL_SHARDS + 1)],
        )
        layout.save()
        topology = cls(layout)
        try:
            topology._start_all(log)
        except BaseException:
            topology.down(log=lambda *_: None)
            raise
        return topology

    def _start_all(self, log) -> None:
        layout = self.layout
        user = service_user()
        if layout.private_postgres:
            self._init_postgres(user)
            self._start("postgres", self._postgres_argv(), user=user, stop_signal=signal.SIGINT)
            self._wait(lambda: self._pg_ready(), "PostgreSQL")
        self._create_database()
        self._write_pgbouncer(user)
        self._start("pgbouncer", ["/usr/sbin/pgbouncer", str(layout.path / "pgbouncer.ini")],
                    user=user)
        for index, port in enumerate(layout.redis_ports):
            name = f"redis-channel-{index + 1}" if index < CHANNEL_SHARDS else "redis-broker"
            self._start(name, ["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no", "--daemonize", "no",
                               "--dir", str(layout.path / "run")])
        for port in layout.redis_ports:
            self._wait(lambda port=port: self._redis_ping(port), f"redis on {port}")
        self._wait(lambda: self._pgbouncer_ready(), "PgBouncer")
        env = layout.site_env()
        # Migrations straight to PostgreSQL, as an operator runs them; collectstatic
        # into the run directory, which nginx serves.
        direct = {**env, "DATABASE_URL": layout.direct_database_url()}
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([PYTHON, "manage.py", *command, "-v", "0"], cwd=ROOT,
                           env=process_env(direct), check=True)
        (layout.path / "env").write_text("".join(f"{k}={v}\n" for k, v in sorted(env.items())))
        for port in layout.asgi_ports:
            self._start(f"asgi-{port}", unit_command("gin-asgi@.service", str(port)), env=env)
        self._start("worker", unit_command("gin-worker.service"), env=env)
        self._start("analysis-worker", unit_command("gin-analysis-worker.service"), env=env,
                    nice=unit_nice("gin-analysis-worker.service"))
        self._start("beat", [*unit_command("gin-beat.service"), "--schedule",
                             str(layout.path / "run" / "celerybeat-schedule")], env=env)
        self._write_nginx()
        self._start("nginx", ["/usr/sbin/nginx", "-c", str(layout.path / "nginx" / "nginx.conf"),
                              "-p", str(layout.path / "nginx")])
        for port in layout.asgi_ports:
            self._wait(lambda port=port: self._healthy(f"http://127.0.0.1:{port}"),
                       f"the ASGI process on {port}")
        self._wait(lambda: self._healthy(layout.url), "nginx")
        log(f"run directory {layout.path}; logs in {layout.path / 'logs'}")
        log(f"PostgreSQL {layout.postgres_host}:{layout.postgres_port}"
            f"{' (private cluster)' if layout.private_postgres else ''}, PgBouncer "
            f"127.0.0.1:{layout.pgbouncer_port} (transaction mode), database {DATABASE}")
        log("Redis: channel layer on " + ", ".join(str(p) for p in layout.redis_ports[:-1])
            + f"; broker and cache on {layout.redis_ports[-1]}")
        log("ASGI processes on " + ", ".join(str(p) for p in layout.asgi_ports)
            + "; Celery worker, analysis worker, beat")
        log(layout.url)

    def _start(self, name: str, argv: list[str], *, env: dict[str, str] | None = None,
               user: str | None = None, stop_signal: int = signal.SIGTERM,
               nice: int = 0) -> None:
        layout = self.layout
        spec = {"argv": argv, "env": process_env(env or {}), "user": user,
                "stop_signal": int(stop_signal), "nice": nice}
        supervisor = subprocess.Popen(
            [PYTHON, "-m", "bench.topology", "_supervise", name, str(layout.path),
             json.dumps(spec)],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(layout.path / "logs" / f"{name}.supervisor.log", "ab"),
            start_new_session=True,
        )
        pid_file(layout, name, True).write_text(str(supervisor.pid))
        layout.services.append(name)
        layout.save()

    def _wait(self, condition, what: str, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.2)
        raise RuntimeError(f"{what} did not start within {timeout:g} s "
                           f"(logs in {self.layout.path / 'logs'})")

    # --- PostgreSQL and PgBouncer ------------------------------------------------------
    def _init_postgres(self, user: str | None) -> None:
        data = self.layout.path / "pgdata"
        data.mkdir()
        (self.layout.path / "run").chmod(0o777)
        if user:
            entry = pwd.getpwnam(user)
            os.chown(data, entry.pw_uid, entry.pw_gid)
        made = subprocess.run([postgres_bin("initdb"), "-D", str(data), "-U", "postgres",
                               "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
                              capture_output=True, text=True, user=user)
        if made.returncode:  # as root, the run directory must be reachable by "postgres"
            raise RuntimeError(f"initdb failed in {data}:\n{made.stderr}")

    def _postgres_argv(self) -> list[str]:
        layout = self.layout
        return [postgres_bin("postgres"), "-D", str(layout.path / "pgdata"),
                "-p", str(layout.postgres_port), "-c", "listen_addresses=127.0.0.1",
                "-c", f"unix_socket_directories={layout.path / 'run'}",
                "-c", "max_connections=100", "-c", "shared_buffers=64MB"]

    def _psql(self, sql: str, database: str = "postgres", port: int | None = None,
              check: bool = True) -> subprocess.CompletedProcess:
        layout = self.layout
        return subprocess.run(
            ["psql", "-h", layout.postgres_host if port is None else "127.0.0.1",
             "-p", str(port or layout.postgres_port), "-U", "postgres", "-d", database,
             "-Atqc", sql],
            capture_output=True, text=True, check=check, timeout=30,
        )

    def _pg_ready(self) -> bool:
        return self._psql("SELECT 1", check=False).returncode == 0

    def _pgbouncer_ready(self) -> bool:
        return self._psql("SELECT 1", DATABASE, self.layout.pgbouncer_port,
                          check=False).returncode == 0

    def _create_database(self) -> None:
        if not self.layout.private_postgres:
            self._psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        self._psql(f"CREATE DATABASE {DATABASE}")

    def _write_pgbouncer(self, user: str | None) -> None:
        layout = self.layout
        (layout.path / "userlist.txt").write_text('"postgres" ""\n')
        (layout.path / "pgbouncer.ini").write_text(f"""\
[databases]
{DATABASE} = host={layout.postgres_host} port={layout.postgres_port} dbname={DATABASE}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {layout.pgbouncer_port}
unix_socket_dir =
auth_type = trust
auth_file = {layout.path / 'userlist.txt'}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 40
reserve_pool_size = 5
server_reset_query =
; After a failed login to PostgreSQL (it is restarting), PgBouncer refuses every client
; for server_login_retry seconds (15 by default): 1 lets play resume as soon as it is back.
server_login_retry = 1
ignore_startup_parameters = extra_float_digits,options
logfile =
pidfile =
admin_users = postgres
log_connections = 0
log_disconnections = 0
""")
        if user:
            entry = pwd.getpwnam(user)
            for name in ("userlist.txt", "pgbouncer.ini"):
                os.chown(layout.path / name, entry.pw_uid, entry.pw_gid)

    # --- nginx and Redis ---------------------------------------------------------------------
    def _write_nginx(self) -> None:
        layout = self.layout
        conf = layout.path / "nginx"
        temp = conf / "temp"
        (conf / "site.conf").write_text(render_site(
            layout.asgi_ports, f"127.0.0.1:{layout.nginx_port}", layout.path / "static"))
        user_line = ""
        if os.geteuid() == 0:  # workers run as www-data; give them the temp files
            user_line = "user www-data;\n"
            entry = pwd.getpwnam("www-data")
            os.chown(temp, entry.pw_uid, entry.pw_gid)
        # The main file only holds what a distribution's /etc/nginx/nginx.conf holds
        # (the process, the logs, the temp paths); the site is the repository's.
        (conf / "nginx.conf").write_text(f"""\
{user_line}worker_processes 1;
daemon off;
pid {conf / 'nginx.pid'};
error_log {layout.path / 'logs' / 'nginx-error.log'} warn;
events {{ worker_connections 8192; }}
worker_rlimit_nofile 20000;
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {conf / 'site.conf'};
}}
""")
        check = subprocess.run(["/usr/sbin/nginx", "-t", "-c", str(conf / "nginx.conf"),
                                "-p", str(conf)], capture_output=True, text=True)
        if check.returncode:
            raise RuntimeError(f"nginx -t refused the rendered configuration:\n{check.stderr}")

    @staticmethod
    def _redis_ping(port: int) -> bool:
        answer = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True,
                                text=True)
        return answer.stdout.strip() == "PONG"

    @staticmethod
    def _healthy(base: str) -> bool:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=3) as answer:
                return answer.status == 200
        except OSError:
            return False

    # --- faults -------------------------------------------------------------------------------
    def pid(self, name: str) -> int | None:
        return read_pid(pid_file(self.layout, name))

    def kill(self, name: str) -> int:
        """SIGKILL to service ``name``'s process (its supervisor restarts it); its pid."""
        pid = self.pid(name)
        if pid is None:
            raise RuntimeError(f"{name} is not running")
        os.kill(pid, signal.SIGKILL)
        return pid

    def restart(self, name: str) -> int:
        """Stop service ``name`` as ``systemctl restart`` does (its stop signal; PostgreSQL:
        a fast shutdown) and let its supervisor start it again; its old pid."""
        pid = self.pid(name)
        if pid is None:
            raise RuntimeError(f"{name} is not running")
        os.kill(pid, signal.SIGINT if name == "postgres" else signal.SIGTERM)
        return pid

    def wait_running(self, name: str, old_pid: int, timeout: float = 60.0) -> int:
        """Wait for service ``name`` to run again under a new pid; returns it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.pid(name)
            if pid is not None and pid != old_pid:
                return pid
            time.sleep(0.05)
        raise RuntimeError(f"{name} was not restarted within {timeout:g} s")

    # --- stopping -----------------------------------------------------------------------------
    def down(self, log=print) -> None:
        """Stop every supervisor (each stops its process): first the site's processes
        and nginx together, then the data services (PgBouncer, Redis, PostgreSQL); then
        make sure nothing is left."""
        layout = self.layout
        data = ("postgres", "pgbouncer", "redis-")
        site = [name for name in layout.services if not name.startswith(data)]
        stores = [name for name in reversed(layout.services) if name.startswith(data)]
        for group in (site, stores):
            supervisors = [read_pid(pid_file(layout, name, True)) for name in group]
            for supervisor in supervisors:
                if supervisor is not None:
                    os.kill(supervisor, signal.SIGTERM)
            for supervisor in supervisors:
                if supervisor is not None:
                    self._wait_gone(supervisor, 30)
        for name in layout.services:
            child = read_pid(pid_file(layout, name))
            if child is not None:  # its supervisor died first
                try:
                    os.killpg(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self._wait_gone(child, 10)
            pid_file(layout, name, True).unlink(missing_ok=True)
            pid_file(layout, name).unlink(missing_ok=True)
        log(f"topology in {layout.path} stopped")

    @staticmethod
    def _wait_gone(pid: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:  # reap it when it is this process's child (Topology.up in a test)
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    return
            except ChildProcessError:
                pass
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_supervise":
        supervise(sys.argv[2], Path(sys.argv[3]), sys.argv[4])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["up", "down"])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="the run directory")
    parser.add_argument("--postgres", metavar="HOST:PORT",
                        help="use this running PostgreSQL (database gin_topology, recreated) "
                             "instead of a private cluster in the run directory")
    args = parser.parse_args()
    if args.command == "up":
        Topology.up(args.dir, args.postgres)
    else:
        if not (args.dir / "topology.json").exists():
            print(f"no topology in {args.dir}")
            return
        Topology.find(args.dir).down()


if __name__ == "__main__":
    main()
