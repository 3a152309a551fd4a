"""`manage.py bench --peak --clubs N`: an evening of N clubs of 10 tables on one node.

Friday at eight on a hosted service: every club plays at once, each table's phone keeps its
page live, each club's live board and night page are open, and the tables save hands every two
or three minutes. The command sets the clubs up in bulk (club.operations.bench.peak_setup),
starts the server as docs/operators.md runs it (gunicorn, `--workers` sync workers, DEBUG off,
the request log on, written to a file) over the configured PostgreSQL and Redis, and drives
the evening from a separate asyncio process (club.operations.bench.peak_load) for a warm-up and
then a measured window. It reports p50 and p99 by kind of request, the errors, whether every
hand answered "saved" is stored once and every night is zero-sum, and the CPU seconds of each
group of processes in the window: PostgreSQL, Redis, gunicorn, the push engine, the load
generator, and the machine as a whole (others' work included).

`--push` runs the push design: the bench's own nginx with nchan (club.operations.bench.peak_engine,
the deploy files as docs/operators.md installs them), LIVE_PUSH_URL set on the node, and every
phone, board and night page holding a subscription instead of polling. The pages are asked of
gunicorn directly and only the subscriptions of nginx, in both designs alike: a host's nginx in
front of the pages costs the same per request in both, and the engine's CPU is then its own.

`--find-max` runs the evening at growing N and reports the largest that holds: every kind's
p99 under 250 ms, no error, no hand lost. `--compare` runs it for today's polling, then push.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Sum

from club.lib import live_push
from club.operations.bench import peak_engine, peak_report, peak_setup
from club.operations.bench.entry import stop_server
from club.operations.bench.many_clubs import node_env, start_node, wait_until_up
from club.play.models import Hand, Night, ScoreLine, Table
from club.play.queries.live_night import revision
from club.play.queries.sheet_version import etag_of_hands, night_etag

BASE_DIR = Path(settings.BASE_DIR)


# --- CPU of each group of processes, from /proc ------------------------------------------------


def _processes() -> dict[int, tuple[str, int, float, str]]:
    """Every process: (name, session, CPU seconds so far, command line)."""
    ticks = os.sysconf("SC_CLK_TCK")
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        # After the name: state, ppid, pgrp, session, ... utime is the 12th, stime the 13th.
        cpu = (int(fields[11]) + int(fields[12])) / ticks
        out[int(entry.name)] = (name, int(fields[3]), cpu, cmdline)
    return out


def _group(
    name: str,
    session: int,
    cmdline: str,
    pid: int,
    server: int,
    generator: int,
    database: str,
    engine: int | None = None,
) -> str | None:
    if pid == generator:
        return "load generator"
    if session == server:
        return "gunicorn (the app)"
    if name.startswith("redis-server"):
        return "Redis"
    if engine is not None and session == engine:  # the bench's own nginx, not another
        return "push engine (nginx, nchan)"
    if name in ("postgres", "postmaster"):
        # This database's connections and the server's own processes; not other databases'.
        if "(" in cmdline or "[local]" in cmdline:
            return "PostgreSQL" if f" {database} " in cmdline else None
        return "PostgreSQL"
    return None


def cpu_snapshot() -> tuple[dict[int, tuple[str, int, float, str]], float]:
    """The processes' CPU, and the machine's busy CPU seconds (all processes, /proc/stat)."""
    with open("/proc/stat") as f:
        cpu = [int(v) for v in f.readline().split()[1:]]
    busy = sum(cpu) - cpu[3] - cpu[4]  # all but idle and iowait
    return _processes(), busy / os.sysconf("SC_CLK_TCK")


def cpu_by_group(
    before: tuple[dict[int, tuple[str, int, float, str]], float],
    after: tuple[dict[int, tuple[str, int, float, str]], float],
    server: int,
    generator: int,
    database: str,
    engine: int | None = None,
) -> dict[str, float]:
    """CPU seconds spent between two snapshots by each group (a process that ended in between
    is not counted: the node's and PostgreSQL's stay up the whole window)."""
    groups: dict[str, float] = defaultdict(float)
    for pid, (name, session, cpu, cmdline) in after[0].items():
        group = _group(name, session, cmdline, pid, server, generator, database, engine)
        if group is None:
            continue
        earlier = before[0].get(pid)
        groups[group] += cpu - (earlier[2] if earlier and earlier[0] == name else 0.0)
    order = [
        "PostgreSQL",
        "Redis",
        "gunicorn (the app)",
        "push engine (nginx, nchan)",
        "load generator",
    ]
    out = {g: round(groups[g], 2) for g in order if g in groups}
    out["machine, all processes"] = round(after[1] - before[1], 2)
    return out


# --- one evening ---------------------------------------------------------------------------


def _plan_json(nights: list[Night], plan: peak_setup.Plan) -> dict[str, Any]:
    """The plan with what each page showed when opened: the sheet's ETag, the board's revision
    and the night page's ETag (the pages were opened before the window)."""
    data = plan.as_json()
    by_id = {n.pk: n for n in nights}
    for club in data["clubs"]:
        night = by_id[club["night_id"]]
        club["revision"] = revision(night)
        club["etag"] = night_etag(night)
    empty = etag_of_hands(Table(night=nights[0]), [])  # an open night's table with no hand
    for phone in data["phones"]:
        phone["etag"] = empty
        # What the table page gives its poll to send as X-Live-Channel, with push or without.
        phone["channel"] = live_push.table_channel(phone["table_id"])
    return data


def check(nights: list[Night], saves: list[list[Any]], evening: peak_report.Evening) -> None:
    """Every hand answered "saved" is stored, once, each table's hands numbered 1..n; every hand
    and every night zero-sum."""
    answered: Counter[int] = Counter(t for t, _n, outcome in saves if outcome == "saved")
    evening.saves_answered = sum(answered.values())
    numbers: dict[int, list[int]] = {}
    for table_id, number in (
        Hand.objects.filter(table__night__in=nights)
        .order_by("table_id", "number")
        .values_list("table_id", "number")
    ):
        numbers.setdefault(table_id, []).append(number)
    evening.stored = sum(len(v) for v in numbers.values())
    lost = 0
    for table_id in set(answered) | set(numbers):
        stored = numbers.get(table_id, [])
        if stored != list(range(1, len(stored) + 1)):
            evening.problems.append(f"table {table_id} has hands {stored}")
            lost += 1
        lost += max(0, answered[table_id] - len(stored))
    evening.lost = lost
    lines = ScoreLine.objects.filter(night__in=nights)
    evening.unbalanced = (
        lines.values("hand_id").annotate(total=Sum("amount")).exclude(total=0).count()
    )
    evening.uneven_nights = (
        lines.values("night_id").annotate(total=Sum("amount")).exclude(total=0).count()
    )


REQUEST_LINE = re.compile(r" club\.requests \[[^\]]*\] (\w+) (\S+) (\d+) ([\d.]+)ms")


def served_ms(log: Path) -> dict[str, list[float]]:
    """The node's own time for each request (its request log's lines), by method, route and
    status: what the server spent, without the time a request waited for a worker."""
    out: dict[str, list[float]] = defaultdict(list)
    with log.open(errors="replace") as lines:
        for line in lines:
            found = REQUEST_LINE.search(line)
            if found:
                method, route, status, ms = found.groups()
                out[f"{method} {route} {status}"].append(float(ms))
    return out


def drive(
    config: dict[str, Any],
    server: subprocess.Popen,
    database: str,
    nice: int,
    engine: subprocess.Popen | None = None,
) -> tuple[dict[str, Any], dict[str, float], int]:
    """Run the load generator on `config`; its result, the CPU of each group in the window
    (read when the generator says the window starts and ends) and the push engine's memory in
    KB as the window ends (0 without it)."""
    with tempfile.TemporaryDirectory(prefix="bench-peak-") as folder:
        config_path, result_path = Path(folder) / "config.json", Path(folder) / "result.json"
        config_path.write_text(json.dumps(config))
        command = [sys.executable, "-m", "club.operations.bench.peak_load"]
        if nice:
            command = ["nice", "-n", str(nice), *command]
        generator = subprocess.Popen(
            [*command, str(config_path), str(result_path)],
            cwd=BASE_DIR,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert generator.stdout is not None
        snapshots, memory = [], 0
        for line in generator.stdout:
            if line.startswith("window"):
                snapshots.append(cpu_snapshot())
                if engine is not None and line.startswith("window end"):
                    memory = peak_engine.memory_kb(engine.pid)
        if generator.wait() != 0 or len(snapshots) != 2:
            raise RuntimeError(f"The load generator failed (exit {generator.returncode})")
        result = json.loads(result_path.read_text())
    cpu = cpu_by_group(
        snapshots[0],
        snapshots[1],
        server.pid,
        generator.pid,
        database,
        engine.pid if engine is not None else None,
    )
    return result, cpu, memory


def evening(
    clubs: int,
    *,
    seconds: float = 120,
    warmup: float = 30,
    port: int = 8130,
    workers: int = 5,
    push: bool = False,
    publisher_port: int = 8090,
    run: int | None = None,
    server_env: dict[str, str] | None = None,
    nice: int = 0,
    secretary_rate: float = 1.0,
    save_mean: float = 150.0,
    say: Any = print,
) -> peak_report.Evening:
    """One evening of `clubs` clubs, start to check."""
    if push and (why := peak_engine.missing()):
        raise RuntimeError(why)
    started = time.perf_counter()
    all_clubs = peak_setup.ensure_clubs(clubs)
    run = run if run is not None else Night.objects.count()
    nights, plan = peak_setup.open_evening(all_clubs, run)
    data = _plan_json(nights, plan)
    took = time.perf_counter() - started
    say(f"  set up {clubs} clubs, {len(plan.phones)} tables and their links in {took:.1f} s")
    env = server_env or node_env()
    env["REQUEST_LOG"] = "true"  # as docs/operators.md runs a node
    # A worker keeps its database connection through the run (the guide's 60 s would have it
    # reconnect once a minute, a cost too small to see): a backend that ends in the window takes
    # its CPU time with it, and PostgreSQL's CPU would read low.
    env["CONN_MAX_AGE"] = str(int(warmup + seconds + 300))
    with tempfile.TemporaryDirectory(prefix="bench-peak-") as folder:
        log = Path(folder) / "node.log"
        engine = None
        if push:
            # The engine's public port beside the node's; the publisher where the deploy file
            # puts it (8090) unless told otherwise.
            engine = peak_engine.start(Path(folder), port + 1, publisher_port)
            env["LIVE_PUSH_URL"] = f"http://127.0.0.1:{publisher_port}/live/pub/"
        else:
            env["LIVE_PUSH_URL"] = ""
        server = start_node(port, env, log, workers=workers, threads=1)
        try:
            wait_until_up({port: server}, log)
            config = {
                "base": f"http://127.0.0.1:{port}",
                "plan": data,
                "warmup": warmup,
                "seconds": seconds,
                "save_mean": save_mean,
                "phone_poll": 10.0,
                "board_poll": 1.0,
                "night_poll": 15.0,
                "secretary_rate": secretary_rate,
                "push": f"http://127.0.0.1:{port + 1}" if push else "",
                "phone_safety_poll": 60.0,  # static/js/table.js, PUSHED_POLL_MS
                "board_safety_poll": 30.0,  # templates/play/nights/live.html, "every 30s"
                "night_safety_poll": 30.0,  # static/js/live-refresh.js, PUSHED_POLL_MS
                "seed": run,
            }
            result, cpu, memory = drive(
                config, server, connection.settings_dict["NAME"], nice, engine
            )
        finally:
            stop_server(server)
            if engine is not None:
                peak_engine.stop(engine)
        served = served_ms(log)
        log_lines = sum(len(v) for v in served.values())
    evening = peak_report.Evening(
        clubs=clubs,
        window_s=result["window_s"],
        kinds=peak_report.kinds_of(result),
        lag_p99=peak_report.percentile(result["lag_ms"], 0.99),
        samples=result["samples"],
        push_ms=result["push_ms"],
        subscriptions=result["subscriptions"],
        subscription_errors=int(result["errors"].get("subscription", 0)),
        board_ms=result["board_ms"],
        engine_kb=memory,
        unfinished=result["unfinished"],
        cpu=cpu,
    )
    check(nights, result["saves"], evening)
    evening.served = {
        route: (peak_report.percentile(ms, 0.5), peak_report.percentile(ms, 0.99), len(ms))
        for route, ms in sorted(served.items(), key=lambda item: -len(item[1]))
    }
    generator_share = cpu.get("load generator", 0) / max(cpu["machine, all processes"], 0.01)
    engine_files = (
        "; nginx: worker_rlimit_nofile {}, worker_connections {}".format(*peak_engine.open_files())
        if push
        else ""
    )
    say(
        f"  open files: limit {result['nofile'][0]} raised to {result['nofile'][1]} in the "
        f"load generator{engine_files}; the node logged {log_lines} requests; load generator "
        f"{generator_share:.0%} of the machine's CPU in the window"
    )
    return evening


def header(clubs: int, options: dict[str, Any]) -> str:
    """The run's first line: what runs where, and how busy the machine was before."""
    workers, push = options.get("workers", 5), options.get("push", False)
    seconds, warmup = options.get("seconds", 120), options.get("warmup", 30)
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return (
        f"An evening of {clubs} clubs x 10 tables on one node: gunicorn {workers} sync workers, "
        f"request log on, {connection.vendor} {connection.settings_dict['NAME']}, cache "
        f"{'Redis' if settings.CACHE_URL else 'local memory'}; "
        f"{'push through nginx + nchan' if push else 'pages polling as today'}; "
        f"warm-up {warmup:g} s, window {seconds:g} s; {os.cpu_count()} cores, load average "
        f"{load} before"
    )


def find_max(steps: list[int], say: Any = print, **options: Any) -> int:
    """Evenings at each N in turn, up to the first that does not hold; the largest that held."""
    best = 0
    for clubs in steps:
        say(header(clubs, options))
        result = evening(clubs, say=say, **options)
        for line in peak_report.lines(result):
            say(line)
        if not result.holds():
            break
        best = clubs
    say(f"The largest N that holds: {best or f'none of {steps}'}")
    return best


def compare(steps: list[int], say: Any = print, **options: Any) -> tuple[int, int]:
    """`find_max` for today's polling, then for push, in one run; both largest N."""
    say("== Today's design: every page polls ==")
    polling = find_max(steps, say=say, **(options | {"push": False}))
    say("== Push: nginx + nchan, the pages subscribe ==")
    pushed = find_max(steps, say=say, **(options | {"push": True}))
    say(f"The largest N that holds: polling {polling or 'none'}, push {pushed or 'none'}")
    return polling, pushed
