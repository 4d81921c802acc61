#!/usr/bin/env python3
"""Writes docs/benchmarks.md from the raw outputs of scripts/bench.

usage: bench-report.py RAW_DIR QUICK
"""

import re
import statistics
import sys
from pathlib import Path

raw = Path(sys.argv[1])
quick = sys.argv[2] == "1"


def keyvalues(name):
    out = {}
    path = raw / name
    if path.exists():
        for line in path.read_text().splitlines():
            if "=" in line:
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
    return out


UNITS = {"ps": 1e-12, "ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def criterion(name):
    """Median time (seconds) of every benchmark id in a criterion output."""
    out = {}
    last = None
    path = raw / name
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        m = re.match(r"^(.*?)\s*time:\s+\[(\S+) (\S+)(?: cpu)? (\S+) (\S+)(?: cpu)? (\S+) (\S+)(?: cpu)?\]", line)
        if m:
            ident = m.group(1).strip() or last
            out[ident] = float(m.group(4)) * UNITS[m.group(5)]
        elif line and not line[0].isspace() and not line.startswith(("Benchmarking", "Found", "Warning")):
            last = line.strip()
    return out


def fmt_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


machine = keyvalues("machine.txt")
rows = []  # (figure, measured, anchor, ratio, target, met, cause, command)
gaps = []


def row(figure, measured, anchor, ratio, target, met, cause, command):
    if met is None:
        status = "no result"
    elif met == "partly":
        status = "partly"
    else:
        status = "met" if met else "**not met**"
    rows.append((figure, measured, anchor, ratio, target, status, command))
    if met is not True and cause:
        gaps.append((figure, cause))


# --- Life against bgolly -----------------------------------------------------
life_sections = {}
current = None
path = raw / "life.txt"
for line in path.read_text().splitlines() if path.exists() else []:
    m = re.match(r"^(\d+)x\d+ torus, 50% soup, (\d+) generations", line)
    if m:
        current = (int(m.group(1)), int(m.group(2)))
        life_sections[current] = {}
        continue
    if current is None:
        continue
    m = re.match(r"^\s+(.*?)\s{2,}(\d+\.\d+) s\s+(\S+) cell-updates/s", line)
    if m:
        life_sections[current][m.group(1)] = (float(m.group(2)), float(m.group(3)))
    m = re.match(r"^\s+(tabula .*?)\s{2,}(\d+\.\d+)x$", line)
    if m:
        life_sections[current][m.group(1)] = float(m.group(2))
    m = re.match(r"^\s+steps alone: .*?(\S+) / (\S+) cell-updates/s, ratio (\d+\.\d+)x", line)
    if m:
        life_sections[current]["steps alone"] = (float(m.group(1)), float(m.group(2)), float(m.group(3)))

life_cmd = "`scripts/bench-life`" + (" `quick`" if quick else "")
sections = sorted(life_sections)
if sections:
    small = sections[0]
    big = sections[-1]
    s = life_sections[small]
    size = f"{small[0]}x{small[0]} torus, {small[1]} generations"
    two = s.get("tabula, 2 players", (float("nan"),) * 2)
    imm = next((v for k, v in s.items() if k.startswith("bgolly RuleLoader") and isinstance(v, tuple)), None)
    qk = next((v for k, v in s.items() if k.startswith("bgolly QuickLife") and isinstance(v, tuple)), None)
    r_imm = s.get("tabula 2p / bgolly Immigration")
    r_qk = s.get("tabula 2p / bgolly QuickLife")
    row(
        f"Life, 2 players, {size}, 50% soup, one thread",
        f"{two[1]:.3g} cell updates/s",
        f"bgolly RuleLoader, Immigration: {imm[1]:.3g}/s" if imm else "—",
        f"{r_imm:.1f}x" if r_imm else "—",
        "at least 20x",
        None if r_imm is None else r_imm >= 20,
        "",
        life_cmd,
    )
    row(
        "the same run",
        f"{two[1]:.3g} cell updates/s",
        f"bgolly QuickLife, B3/S23: {qk[1]:.3g}/s" if qk else "—",
        f"{r_qk:.1f}x" if r_qk else "—",
        "at least 1x",
        None if r_qk is None else r_qk >= 1,
        "",
        life_cmd,
    )
    b = life_sections[big]
    r8 = b.get("tabula 8p+neutral / tabula 2p")
    eight = b.get("tabula, 8 players + neutral", (float("nan"),) * 2)
    two_b = b.get("tabula, 2 players", (float("nan"),) * 2)
    steps = b.get("steps alone")
    # The bar's figure is the whole process, as in the rows against bgolly;
    # the steps alone say how far the engine itself is from the bar.
    steps_note = (
        f" (whole process, loading the board included; the generation steps alone: "
        f"{steps[1]:.3g}/s against {steps[0]:.3g}/s for 2 players, {steps[2]:.2f}x)"
        if steps
        else ""
    )
    row(
        f"Life, 8 players + neutral, {big[0]}x{big[0]} torus, {big[1]} generations",
        f"{eight[1]:.3g} cell updates/s{steps_note}",
        f"2 players, same field: {two_b[1]:.3g}/s",
        f"{r8:.2f}x" if r8 else "—",
        "at least 0.5x",
        None if r8 is None else r8 >= 0.5,
        "A cell's owner is a binary code over bit planes: 1 plane for two owners, 4 for nine. "
        "A birth takes the majority of its parents' codes per plane and, with three or more owners, "
        "whether all three parents differ (4 quadratic forms of the code bits, each a parity over the "
        "neighbours): about 190 word operations per 64 cells against 47 for two players. "
        "The same code has measured 0.44x to 0.54x of the two-player figure in full runs on "
        "2026-11-24 and 2026-11-25: it sits at the bar's edge, and which side a run lands on "
        "depends on the load the machine had during its two halves. "
        "See [Life](benchmarks/life.md).",
        life_cmd,
    )

plane = criterion("life-plane.txt")
plane_cmd = "`cargo bench -p tabula-life --bench engine -- --warm-up-time 1 --measurement-time 3 sparse`"
layouts = {}
for ident, t in plane.items():
    m = re.match(r"sparse/1M cells (.*) over 20000x20000, (unbounded plane|torus of the box)", ident)
    if m:
        layouts.setdefault(m.group(1), {})[m.group(2)] = t
if layouts:
    parts, anchors, ratios, oks = [], [], [], []
    for layout, v in sorted(layouts.items()):
        if "unbounded plane" in v and "torus of the box" in v:
            parts.append(f"{layout}: {fmt_time(v['unbounded plane'])}")
            anchors.append(f"{layout}: {fmt_time(v['torus of the box'])}")
            ratio = v["torus of the box"] / v["unbounded plane"]
            ratios.append(f"{layout}: {ratio:.2f}x")
            oks.append(ratio > 1)
    met = True if all(oks) else ("partly" if any(oks) else False)
    row(
        "Life, unbounded plane, 1M live cells over 20000x20000, one generation",
        "; ".join(parts),
        "the torus engine on the dense 20000x20000 box: " + "; ".join(anchors),
        "; ".join(ratios) + " (box time / plane time)",
        "faster than the dense box (above 1x)",
        met,
        "Clustered cells (players' groups, the case the plane is for) leave most 64x64 tiles empty, "
        "and the plane steps only the others. Cells scattered uniformly at 0.25% put about 10 live "
        "cells in every tile, so the plane visits as many tiles as the box has. A tile stores only "
        "its rows with live cells (about 160 bytes at this density instead of 1 KiB), the step "
        "visits the tiles in the order of their grid with the next tiles' rows prefetched, and it "
        "computes only rows that can hold a live cell next: in alternate runs that took the "
        "scattered case from 0.61x and 0.32x to 1.98x and 1.97x of the box (benchmarks/life.md). "
        "Below 1x in a run, the step's memory traffic met other work on the machine's cache; each "
        "step's scratch, allocated afresh, is what is left to try.",
        plane_cmd,
    )

# --- Rewrite -------------------------------------------------------------------
rw = criterion("rewrite.txt")
rw_cmd = "`cargo bench -p tabula-rewrite --bench engine -- --warm-up-time 1 --measurement-time 3`"
copy = rw.get("pass_16MiB_cpu/memcpy")
cases = {k.split("/")[1]: v for k, v in rw.items() if k.startswith("pass_16MiB_cpu/") and k.endswith("/500")}
if copy and cases:
    worst = max(cases, key=cases.get)
    ratio = cases[worst] / copy
    row(
        "Rewrite engine, 16 MiB string, 500 rules, one pass (CPU time)",
        "; ".join(f"{k}: {fmt_time(v)}" for k, v in sorted(cases.items())),
        f"copying the 16 MiB: {fmt_time(copy)}",
        "; ".join(f"{k}: {v / copy:.1f}x" for k, v in sorted(cases.items())) + " the copy",
        "within 10x of the copy",
        ratio <= 10,
        "With 500 rules every position goes through an automaton of up to 2,443 states, and with "
        "dense matches a rule applies every 3 to 4 bytes, so the output is built from millions of "
        "short pieces: a backward scan of about 12 instructions per input byte, bound by the latency "
        "of its table look-ups (the 500-rule tables are 23.5 KB for `atcg`, 99 to 264 KB for 26 "
        "letters, whose most visited rows still spill out of the L1 cache), and a forward rewrite of "
        "about 42 instructions per application. The copy runs from the L3 cache on a quiet machine "
        "(0.48 ms on 2026-11-24, 0.8 ms on 2026-11-26: 16 MiB in and 16 MiB out fit this machine's "
        "32 MiB L3) and at memory speed when other work shares the cache (2.4 ms), which moves the "
        "ratio about fourfold; `08-bars.md` recorded a memory copy of 3 to 7 GB/s, 2.4 to 5.6 ms "
        "for 16 MiB, when it set the bar. Ten times a copy from L3 leaves about half a nanosecond "
        "per input byte, less than the forward rewrite alone takes in the dense cases: it is a "
        "chain of dependent steps (load the next match, add its advance, load again), a few cycles "
        "each, for 3.3 to 4.6 million applications per pass. "
        "See [Rewrite](benchmarks/rewrite.md).",
        rw_cmd,
    )

# --- DNA -----------------------------------------------------------------------
dna = criterion("dna.txt")
dna_cmd = "`cargo bench -p tabula-dna --bench dna -- --warm-up-time 1 --measurement-time 3 nomination`"
check = dna.get("nomination/8 players x 36/parse+check")
apply = dna.get("nomination/8 players x 36/clone+apply")
if check or apply:
    row(
        "DNA: nomination legality + application, 36 letters, 8 players",
        f"check {check * 1e9:,.0f} ns; clone + apply {apply * 1e9:,.0f} ns" if check and apply else "—",
        "—",
        "—",
        "a figure in ns",
        True,
        "",
        dna_cmd,
    )

# --- Bots ------------------------------------------------------------------------
bots_text = (raw / "bots.txt").read_text() if (raw / "bots.txt").exists() else ""
bots_cmd = "`cargo bench -p tabula-bots --bench throughput`"
m_rust = re.search(r"all cores: (\d+) games in [\d.]+ s = (\d+) games/s", bots_text)
m_py = re.search(r"python referee, same bots, one core: (\d+) games/s", bots_text)
m_cpu = re.search(r"ratio \(CPU time, all cores against one\): (\d+)x", bots_text)
m_rust_cpu = re.search(r"= (\d+) games per CPU second, x (\d+) cores", bots_text)
m_py_cpu = re.search(r"^\s+(\d+) games per CPU second$", bots_text, re.M)
if m_rust and m_py:
    wall = int(m_rust.group(2)) / int(m_py.group(1))
    ratio = int(m_cpu.group(1)) if m_cpu else wall
    measured = f"{int(m_rust.group(2)):,} games/s wall clock"
    anchor = f"Python referee, same bots' logic, one core: {int(m_py.group(1)):,} games/s"
    if m_rust_cpu and m_py_cpu:
        measured += f"; {int(m_rust_cpu.group(1)):,} games per CPU second x {m_rust_cpu.group(2)} cores"
        anchor += f"; {int(m_py_cpu.group(1)):,} games per CPU second"
    row(
        "Intervalo tournament, built-in bots, games per second, all cores",
        measured,
        anchor,
        f"{ratio:.0f}x by CPU time ({wall:.0f}x by wall clock on the shared machine)",
        "at least 100x",
        ratio >= 100,
        "Games between built-in bots are played on the bare state, with no history lines written "
        "(`Ctx::history`), the seats to move in a one-word set (`Seats`), each move written into "
        "one buffer per seat, one event generator a game reset to each event's stream, and results "
        "handed over in batches. What is left (perf): the rules and the centre bot, the generator's "
        "reset (about 9%), the allocator (about 12%: each game's new state and result), the move "
        "texts written and parsed back. A loaded machine slows the Python anchor more than the "
        "games, so loaded ratios run about 1.2x high. See [Bots](benchmarks/bots.md).",
        bots_cmd,
    )
m_pipe = re.search(r"bare pipe round trip: ([\d.]+) us", bots_text)
m_ref = re.search(r"referee time per external move: ([\d.]+) us = ([\d.]+)x", bots_text)
if m_pipe and m_ref:
    ratio = float(m_ref.group(2))
    row(
        "external bot: referee overhead per move",
        f"{m_ref.group(1)} µs",
        f"bare pipe round trip: {m_pipe.group(1)} µs",
        f"{ratio:.2f}x",
        "at most 3x",
        ratio <= 3,
        "",
        bots_cmd,
    )

# --- Server ------------------------------------------------------------------------
srv = keyvalues("server.txt")
# Run-specific sentences put before a figure's cause from bench-causes.txt.
run_notes = {}
load_cmd = (
    "`cargo build --release -p tabula --bin tabula --example loadgen && "
    "target/release/examples/loadgen --tabula target/release/tabula --dir DIR --clients 64 "
    + ("--users 20 --stored 500 --active 128 --seconds 4 --anchor-seconds 1`" if quick else
       "--users 200 --stored 10000 --active 1000 --seconds 15 --anchor-seconds 3`")
)


def load_figures(run):
    """Moves per second, the anchors before and after, their mean, the ratio and the errors of a loadgen run."""
    rate = float(run["moves_per_s"])
    anchors = [float(run[k]) for k in ("anchor_commits_per_s", "anchor_after_commits_per_s") if k in run]
    anchor = statistics.mean(anchors)
    return rate, anchors, anchor, rate / anchor, int(run.get("errors", "0"))


if "moves_per_s" in srv:
    rate, anchors, anchor, ratio, errors = load_figures(srv)
    if "ceiling_requests_per_s" in srv:
        ceiling = float(srv["ceiling_requests_per_s"])
        ten_times = 10 * anchor
        budget = 2 * 1e6 / ten_times
        loadgen_us = float(srv["loadgen_cpu_us_per_move"])
        server_us = float(srv["server_cpu_us_per_move"])
        bare_server_us = float(srv["ceiling_server_cpu_us_per_request"])
        bare_loadgen_us = float(srv["ceiling_loadgen_cpu_us_per_request"])
        floor_us = loadgen_us + bare_server_us
        run_notes["server: durable moves per second"] = (
            f"Ten times this run's anchor is {ten_times:,.0f} moves a second, which leaves "
            f"{budget:.0f} us of the two cores per move for the server and the load generator "
            f"together. In this run the load generator took {loadgen_us:.0f} us of CPU per move and "
            f"the server {server_us:.0f} us; the same {srv.get('clients')} clients asking the same "
            f"server for `GET /healthz` (no command, no database: only the HTTP exchange) got "
            f"{ceiling:,.0f} answers a second, with {bare_server_us:.0f} us of the server's CPU and "
            f"{bare_loadgen_us:.0f} us of the load generator's per answer. "
            + (f"The load generator's share of a move and the server's share of a bare HTTP answer "
               f"already come to {floor_us:.0f} us, more than the budget: no server measured this "
               "way on these two cores can reach the bar while this disk commits this fast. "
               if floor_us >= budget else "")
        )
    row(
        f"server: durable moves per second, {srv.get('clients')} concurrent clients, SQLite",
        f"{rate:,.0f} moves/s ({srv.get('moves')} moves, {errors} errors)",
        "one SQLite commit (INSERT, WAL, synchronous=FULL) per row on the same file system: "
        + " and ".join(f"{a:,.0f}/s" for a in anchors) + " (before and after the load)",
        f"{ratio:.1f}x",
        "at least 10x",
        ratio >= 10 and errors == 0,
        None,
        load_cmd,
    )
    p99 = float(srv["p99_ms"])
    row(
        "server: latency per move under that load",
        f"p50 {float(srv['p50_ms']):.1f} ms, p99 {p99:.1f} ms (max {float(srv['max_ms']):.0f} ms)",
        "—",
        "—",
        "p99 under 50 ms",
        p99 < 50,
        None,
        load_cmd,
    )
    rss = int(srv.get("rss_peak_kib", "0")) / 1024
    row(
        f"server: resident memory, {int(srv['games_stored']):,} games stored, "
        f"{int(srv['games_active']):,} played",
        f"{rss:.0f} MiB at the peak of the load "
        f"({int(srv.get('rss_stored_kib', '0')) / 1024:.0f} MiB with the games stored, before the load)",
        "—",
        "—",
        "under 200 MB",
        rss * 1024 * 1024 < 200e6,
        None,
        load_cmd,
    )

slow = keyvalues("server-slow-disk.txt")
if "moves_per_s" in slow:
    rate, anchors, anchor, ratio, errors = load_figures(slow)
    p99 = float(slow["p99_ms"])
    row(
        "the same load on the disk the bars were set on: every fsync 2 ms slower, server and anchor alike",
        f"{rate:,.0f} moves/s ({slow.get('moves')} moves, {errors} errors); "
        f"p50 {float(slow['p50_ms']):.1f} ms, p99 {p99:.1f} ms",
        "the same anchor under the same slower fsync: "
        + " and ".join(f"{a:,.0f}/s" for a in anchors) + " (before and after the load)",
        f"{ratio:.1f}x",
        "at least 10x, p99 under 50 ms",
        ratio >= 10 and errors == 0 and p99 < 50,
        "The moves of a batch share one commit and one sync of the log, so where the disk is slow "
        "the batches grow and the rate stays up while the anchor falls with each fsync. "
        "See [Server](benchmarks/server.md).",
        "`cc -shared -fPIC -O2 -o target/slow-fsync.so scripts/slow-fsync.c -ldl`, then the "
        "server's command above with `LD_PRELOAD=$PWD/target/slow-fsync.so` and `--ceiling-seconds 0`",
    )

# --- Short-lived processes -----------------------------------------------------------
proc = {}
path = raw / "processes.txt"
for line in path.read_text().splitlines() if path.exists() else []:
    k, v = line.split()
    proc.setdefault(k, []).append(int(v) / 1e6)
med = {k: statistics.median(v) for k, v in proc.items()}
proc_cmd = "`scripts/bench` (its last part: a 20-move Intervalo game made with the CLI, then each command timed in turn)"
if "show" in med and "sqlite3" in med:
    ratio = med["show"] / med["sqlite3"]
    row(
        "`tabula` CLI: `intervalo show 1`, process start to exit",
        f"{med['show']:.1f} ms (median of {len(proc['show'])})",
        f"`sqlite3` CLI reading the game's row from the same database: {med['sqlite3']:.1f} ms",
        f"{ratio:.2f}x",
        "at most 2x",
        ratio <= 2,
        None,
        proc_cmd,
    )
if "mail_show" in med:
    row(
        "`tabula mail`: one message in, reply out (a `show` by mail)",
        f"{med['mail_show']:.1f} ms (median of {len(proc['mail_show'])})",
        "—",
        "—",
        "under 20 ms",
        med["mail_show"] < 20,
        None,
        proc_cmd,
    )
if "mail_move" in med:
    row(
        "`tabula mail`: a move by mail, with its password",
        f"{med['mail_move']:.1f} ms (median of {len(proc['mail_move'])})",
        "—",
        "—",
        "under 20 ms",
        med["mail_move"] < 20,
        "A move by mail carries the player's password, checked against its argon2id hash "
        "(7 MiB, 5 passes: the form of OWASP's minimum cost with the least memory, which the "
        "service uses for every password, in 2 lanes computed on 2 threads); that check is about "
        "14 ms with both cores free and needs the second core to take half of it, plus about 3 ms "
        "of page faults since its block comes from the `argon2` crate's own allocation in 4 KiB "
        "pages (no hand-written `unsafe` mapping on huge pages any more). "
        "The rest is the process itself: start, database open, and three commits with their "
        "fsyncs (the claim of the message, the move, and the reply queued together with the mark "
        "that the message was answered; no longer a checkpoint at exit). A process that opens the database alone also rebuilds SQLite's index "
        "of the log that earlier processes left (up to 4 MB before the automatic checkpoint): about "
        "1 ms with a 3 MB log, which `sqlite3` and the CLI pay alike. In the quietest full run the "
        "median move by mail was 20.3 ms (the fastest 18.6 ms); under load it takes longer. The same "
        "process answering a `show` (no password, no move) is the figure above. See "
        "[Server](benchmarks/server.md).",
        proc_cmd,
    )

# --- The long load test (scripts/load-test, run on its own) -------------------------
load_test = {}
load_minutes = []
load_path = Path(__file__).resolve().parent.parent / "docs" / "benchmarks" / "load-test.txt"
if load_path.exists():
    for line in load_path.read_text().splitlines():
        if line.startswith("minute="):
            load_minutes.append(dict(kv.split("=", 1) for kv in line.split()))
        elif "=" in line:
            k, v = line.split("=", 1)
            load_test[k.strip()] = v.strip()
if load_test.get("requests"):
    growth = float(load_test.get("rss_growth_percent", "nan"))
    errors = int(load_test.get("errors", "1"))
    minutes = float(load_test.get("seconds", "0")) / 60
    row(
        f"load test on loopback, {minutes:.0f} minutes of mixed reads and moves "
        f"({load_test.get('date')}, a run of its own)",
        f"{errors} errors in {int(load_test['requests']):,} requests; p50 {load_test.get('p50_ms')} ms, "
        f"p99 {load_test.get('p99_ms')} ms; memory {growth:+.1f}% from the middle minute to the last (the first half fills the caches)",
        "—",
        "—",
        "10 minutes: 0 errors, no memory growth",
        errors == 0 and growth <= 10 and minutes >= 10,
        None,
        "`scripts/load-test` (writes docs/benchmarks/load-test.txt, read by this page)",
    )

# --- The web's move latency (scripts/bench-web, run on its own) --------------------
web_moves = {}
web_path = Path(__file__).resolve().parent.parent / "docs" / "benchmarks" / "web-moves.txt"
if web_path.exists():
    for line in web_path.read_text().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            web_moves[k.strip()] = v.strip()
if web_moves.get("median_ms"):
    median = float(web_moves["median_ms"])
    row(
        f"web: a move from the press of Move to the board drawn anew from the live stream, no page load, "
        f"Chromium ({web_moves.get('date')}, a run of its own)",
        f"median {median:.1f} ms over {web_moves.get('moves')} moves; p90 {web_moves.get('p90_ms')} ms, "
        f"min {web_moves.get('min_ms')} ms, max {web_moves.get('max_ms')} ms",
        "—",
        "—",
        "median under 50 ms over 20 moves",
        median < 50 and int(web_moves.get("moves", "0")) >= 20,
        None,
        "`scripts/bench-web` (writes docs/benchmarks/web-moves.txt, read by this page)",
    )

# --- Write -------------------------------------------------------------------------
extra_causes = {}
cause_file = Path(__file__).with_name("bench-causes.txt")
if cause_file.exists():
    for block in cause_file.read_text().split("\n\n"):
        if block.strip():
            head, _, text = block.strip().partition("\n")
            extra_causes[head.strip()] = " ".join(text.split())
for figure, status in [(r[0], r[5]) for r in rows]:
    for key, text in extra_causes.items():
        if figure.startswith(key) and status != "met" and not any(g[0] == figure for g in gaps):
            note = run_notes.get(key)
            gaps.append((figure, f"{note.strip()} {text}" if note else text))

print("# Benchmarks")
print()
print(
    "Every speed figure of the product's performance bars, each beside its anchor measured in the "
    "same run: figures on a shared machine drift, so each is read as a ratio against what a user "
    "would otherwise use, or against the machine's own limit. One command measures them all and "
    "writes this page:"
)
print()
print("    scripts/bench            # the whole set, 5 to 20 minutes on 2 cores with the machine's load")
print("    scripts/bench --quick    # a smoke run on small inputs, a few minutes")
print()
if quick:
    print("**This page comes from a `--quick` run: small inputs, short measurements.**")
    print()
print("## Machine")
print()
print("| | |")
print("|---|---|")
print(f"| cores | {machine.get('cores')} |")
print(f"| CPU | {machine.get('cpu')} |")
print(f"| memory | {machine.get('memory_mib')} MiB |")
print(f"| disk of the databases | {machine.get('disk')} |")
print(f"| load average (1, 5, 15 min) at the start / end | {machine.get('load_start')} / {machine.get('load_end')} |")
print(f"| run | {machine.get('date')}, {machine.get('rustc')}, bgolly {machine.get('bgolly')}, "
      f"sqlite3 {machine.get('sqlite3')}, Python {machine.get('python3')} |")
print()
print(
    "The machine is shared with other work (the load average above), so absolute times are "
    "inflated by an amount that varies from minute to minute; each ratio's two sides were measured "
    "minutes apart at most, under the same load."
)
print()
print("## Against the bars")
print()
print("| figure | measured | anchor, same run | ratio | target | status |")
print("|---|---|---|---|---|---|")
for figure, measured, anchor, ratio, target, status, _ in rows:
    print(f"| {figure} | {measured} | {anchor} | {ratio} | {target} | {status} |")
print()
if gaps:
    print("## Gaps and their causes")
    print()
    for figure, cause in gaps:
        print(f"- **{figure}**: {cause}")
        print()
print("## Commands")
print()
print("Each figure on its own (from the repository root, release builds):")
print()
seen = set()
for figure, *_, command in rows:
    if command not in seen:
        seen.add(command)
        print(f"- {figure}: {command}")
print()
if srv:
    print("## The server run in detail")
    print()
    print(
        f"`tabula serve` on a fresh SQLite database; {srv.get('clients')} clients, one keep-alive HTTP/1.1 "
        "connection each, send `POST /api/v1/commands` with `intervalo move BOARD USER - CELL` and the "
        "player's bearer token (made once per user, so no password hash is computed per move); each "
        "client plays its own games, so moves on one game never race. Every answer is the full JSON "
        "reply (board text, view, history), and every move queues an email notification for the other "
        "player in the same transaction, as the server does for every user who has an address. The games "
        "in play start at every stage (their first moves are made during the setup), and a game that "
        "ends is replaced by a new challenge between its players, so that as many are in play to the end."
    )
    print()
    if slow:
        print(
            "The second column is the same load with every fsync of the server and of the anchor "
            "made 2 ms slower (`scripts/slow-fsync.c`, preloaded), as on the disk the bars were set on."
        )
        print()
        print("| | this disk | every fsync 2 ms slower |")
        print("|---|---|---|")
    else:
        print("| | |")
        print("|---|---|")
    for key, label in [
        ("games_stored", "games stored (challenged through the API)"),
        ("games_active", "games in play at a time during the load"),
        ("setup_seconds", "setup: sign-ups, tokens, challenges, opening moves (s)"),
        ("moves", "moves made"),
        ("challenges_during_load", "new games challenged during the load (one for each game that ended)"),
        ("load_seconds", "load duration (s)"),
        ("moves_per_s", "moves per second"),
        ("p50_ms", "p50 latency (ms)"),
        ("p99_ms", "p99 latency (ms)"),
        ("max_ms", "slowest move (ms)"),
        ("errors", "errors"),
        ("server_cpu_us_per_move", "server CPU time per move (us, user + system)"),
        ("loadgen_cpu_us_per_move", "load generator CPU time per move (us, on the same two cores)"),
        ("ceiling_requests_per_s", "after the load, `GET /healthz` from the same clients: answers per second"),
        ("ceiling_server_cpu_us_per_request", "... server CPU time per answer (us)"),
        ("ceiling_loadgen_cpu_us_per_request", "... load generator CPU time per answer (us)"),
        ("anchor_commits_per_s", "anchor before the load: commits/s"),
        ("anchor_commit_ms", "anchor: median commit (ms)"),
        ("anchor_after_commits_per_s", "anchor after the load: commits/s"),
        ("rss_started_kib", "server RSS just started (KiB)"),
        ("rss_stored_kib", "server RSS with the games stored (KiB)"),
        ("rss_peak_kib", "server RSS, peak during the load (KiB)"),
        ("rss_after_kib", "server RSS after the load (KiB)"),
    ]:
        if key in srv and slow:
            print(f"| {label} | {srv[key]} | {slow.get(key, '—')} |")
        elif key in srv:
            print(f"| {label} | {srv[key]} |")
    print()
if med:
    print("## Short-lived processes in detail")
    print()
    print("Medians over the runs, each run a whole process (start, open the database, run, exit):")
    print()
    print("| command | median (ms) | min (ms) |")
    print("|---|---:|---:|")
    labels = {
        "show": "`tabula --db DB intervalo show 1`",
        "sqlite3": "`sqlite3 DB 'SELECT ... FROM games WHERE id = 1'`",
        "version": "`tabula --version` (no database)",
        "mail_show": "`tabula --db DB mail --reply-to-stdout` with `intervalo show 1`",
        "mail_move": "`tabula --db DB mail --reply-to-stdout` with `intervalo move 2 USER PASSWORD CELL`",
    }
    for k, label in labels.items():
        if k in proc:
            print(f"| {label} | {med[k]:.2f} | {min(proc[k]):.2f} |")
    print()
if load_test.get("requests"):
    print("## The load test in detail")
    print()
    print(
        f"`scripts/load-test` ({load_test.get('date')}, load average {load_test.get('load_start')} at the "
        f"start): `tabula serve` on a fresh SQLite database, {load_test.get('clients')} clients on one "
        "keep-alive connection each, every client with its own two users and "
        f"{load_test.get('games_per_client')} Intervalo games going (a new challenge when one ends); "
        f"each request is a move with a share of {1 - float(load_test.get('read_share', '0')):.0%}, "
        "otherwise one of five reads: the game as a player sees it, its history, its web page, the "
        "user's running games, a `show` command. Latency by kind (ms):"
    )
    print()
    print("| request | count | p50 | p99 | max |")
    print("|---|---:|---:|---:|---:|")
    for k, v in load_test.items():
        if k.startswith("kind_"):
            f = v.split()
            print(f"| {k[5:]} | {f[1]} | {f[3]} | {f[5]} | {f[7]} |")
    print()
    print("Minute by minute (the server's resident size is the minute's mean):")
    print()
    print("| minute | requests | errors | p50 (ms) | p99 (ms) | RSS (KiB) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for m in load_minutes:
        print(f"| {m['minute']} | {m['requests']} | {m['errors']} | {m['p50_ms']} | {m['p99_ms']} | {m['rss_kib']} |")
    print()
# The last side-by-side run of two builds (scripts/bench-compare), kept by hand.
side_by_side = Path(__file__).resolve().parent.parent / "docs" / "benchmarks" / "side-by-side.md"
if side_by_side.exists():
    print(side_by_side.read_text().rstrip())
    print()
print("## Per area")
print()
print("Earlier runs and what lies behind each figure:")
print()
print("- [DNA removal engine and move generation](benchmarks/dna.md)")
print("- [Rewrite engine](benchmarks/rewrite.md)")
print("- [Life engine against Golly](benchmarks/life.md)")
print("- [Real-Time Life](benchmarks/rtlife.md)")
print("- [Bots, tournaments and the referee](benchmarks/bots.md)")
print("- [Server: group commit, the hot path, short-lived processes](benchmarks/server.md)")
