#!/usr/bin/env python3
"""Differential check of CacheLab against libCacheSim's C implementations.

The peer is the libcachesim Python package (pinned to 0.3.5; `Scripts/peer-diff.sh` sets up a
venv with it). For every CacheLab policy with a libCacheSim counterpart, every shared trace the
package can be fed, object mode and byte mode, and several cache sizes, this runs both
simulators and prints one row per (trace, mode, size, policy): CacheLab's misses and miss
bytes, the package's, and a status:

  equal           both counts agree;
  version drift   they differ because libCacheSim changed, not CacheLab: CacheLab equals
                  libCacheSim's unit-test expectation for that row (../shared/reference) and
                  the package (a newer libCacheSim) does not, or the row is listed in
                  Scripts/peer_diff_drift.json with exactly these counts and the cause;
  package failed  the package gave no result (a cache ran past --timeout, or libCacheSim
                  aborted); the drift file says why;
  randomised      a randomised policy named with --policies (not comparable, see below);
  DIFFERENT       anything else (with the known cause, when the drift file has one).

Exit status 1 when any row is DIFFERENT, 2 on a set-up problem, else 0.

CacheLab runs every policy and size of a (trace, mode) in one pass
(`cachelab run ... --output x.csv`); the absolute capacity it resolved (the CSV's `capacity`
column) is what the package is given, so fractions mean the same capacity for both. The
package replays each cache with its C loop (`c_process_trace`), which returns miss ratios;
misses and miss bytes are recovered exactly from them and the trace's request count and bytes
(counted once per trace from the package's own reader).

How the package reads each trace: natively where libCacheSim has a reader (oracleGeneral,
vscsi, csv with column numbers, plain txt, the AdaptSize `seq id size` text through the csv
reader with a space delimiter); the LIRS traces with `*` marker lines go through a copy
without those lines (libCacheSim's txt reader aborts on them); the big-endian key streams
(cache2k int32, Scarab and Corda int64), which libCacheSim's binary reader cannot read (it is
little-endian only), are written as oracleGeneral in a scratch folder. Belady needs each
request's next-access time, so for it the package replays an oracleGeneral copy of the
package's own request stream with next-access indices computed here (the native file for an
oracleGeneral trace). Scratch files live in a temporary folder that is removed at exit.
CacheLib's kv samples are not compared: their SET/DELETE rows have no equivalent in the
package's get-only replay.

Randomised policies (lhd, lecar, hyperbolic, random) run only when named with --policies: the
package draws from one thread-local MMIX state (`rand_seed`) that no cache resets, so a
cache's result depends on what ran before it in the process (LHD at 128 MiB on cloudPhysics:
90483 first in a process, 90547 second; the unit tests and CacheLab: 90500). Resetting it with
the library's exported `set_rand_seed(0)` does not help: the generator then degenerates (LeCaR
always picks its LRU expert, Random and Hyperbolic stall), so their rows are reported with
status "randomised", never as failures.

Environment: CACHELAB (binary, default .build/release/cachelab), PEER_TRACES (default
../shared/traces beside the repository).
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

SCRIPT_DIR = Path(__file__).resolve().parent
DRIFT_FILE = SCRIPT_DIR / "peer_diff_drift.json"
PACKAGE_VERSION = "0.3.5"

# --------------------------------------------------------------------------------------------
# Policies: CacheLab spec (every parameter explicit) -> libCacheSim init function + parameters
# (explicit too: the package's Python defaults differ from the C defaults for some policies,
# e.g. ClockPro's init-ratio-cold, and from libCacheSim's unit tests, e.g. SLRU's n-seg=5).
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolicyMap:
    spec: str  # CacheLab --policies item, all parameters explicit
    init: str  # libcachesim_python.<init> function
    params: str  # libCacheSim cache-specific parameter string
    note: str = ""
    randomised: bool = False  # only run when named with --policies


POLICIES = [
    PolicyMap("fifo", "FIFO_init", ""),
    PolicyMap("lru", "LRU_init", ""),
    PolicyMap("clock:bits=1", "Clock_init", "init-freq=0,n-bit-counter=1"),
    PolicyMap("clock:bits=2", "Clock_init", "init-freq=0,n-bit-counter=2"),
    PolicyMap("sieve", "Sieve_init", ""),
    PolicyMap("lfu", "LFU_init", ""),
    PolicyMap("lfuda", "LFUDA_init", ""),
    PolicyMap("gdsf", "GDSF_init", ""),
    PolicyMap("size", "Size_init", ""),
    PolicyMap("lruk:k=2", "LRU_K_init", "k=2"),
    PolicyMap("lruk:k=3", "LRU_K_init", "k=3"),
    PolicyMap("mq:queues=8", "MQ_init", "n-queue=8,lifetime=10000,Qout-size-ratio=4"),
    PolicyMap("mq:queues=4,lifetime=100,qout=1", "MQ_init", "n-queue=4,lifetime=100,Qout-size-ratio=1"),
    PolicyMap(
        "clock2qplus",
        "Clock2QPlus_init",
        "fifo-size-ratio=0.1,ghost-size-ratio=0.9,move-to-main-threshold=1,corr-window-ratio=0.5",
    ),
    PolicyMap("belady:bypass=false", "Belady_init", "", "replayed on an oracleGeneral copy with next-access times"),
    PolicyMap("slru:segments=4", "SLRU_init", "n-seg=4"),
    PolicyMap("slru:segments=5", "SLRU_init", "n-seg=5"),
    PolicyMap("arc", "ARC_init", ""),
    PolicyMap("lirs:hir=0.01", "LIRS_init", "", "libCacheSim's LIRS has no parameter; its HIR share is 1 %"),
    PolicyMap("2q:kin=0.25,kout=0.5", "TwoQ_init", "Ain-size-ratio=0.25,Aout-size-ratio=0.5"),
    PolicyMap(
        "s3fifo:small=0.1,ghost=0.9,threshold=2",
        "S3FIFOv0_init",
        "fifo-size-ratio=0.1,ghost-size-ratio=0.9,move-to-main-threshold=2",
        "CacheLab follows the 2023 S3-FIFO, kept in libCacheSim as S3FIFOv0.c",
    ),
    PolicyMap(
        "qdlp:small=0.1,ghost=0.9,threshold=1,main=clock2",
        "QDLP_init",
        "fifo-size-ratio=0.1,ghost-size-ratio=0.9,main-cache=Clock2,move-to-main-threshold=1",
    ),
    # Randomised: see the module docstring; only when named with --policies.
    PolicyMap("lhd:associativity=32,admissions=8", "LHD_init", "", randomised=True),
    PolicyMap("lecar:learning-rate=0.45,lru-weight=0.5", "LeCaR_init", "update-weight=1,lru-weight=0.5", randomised=True),
    PolicyMap("hyperbolic:samples=64", "Hyperbolic_init", "", randomised=True),
    PolicyMap("random", "Random_init", "", randomised=True),
]

# CacheLab policies with no counterpart in the package (reported, not run).
UNMAPPED = {
    "mru": "libCacheSim has MRU.c but the 0.3.5 package exports no MRU_init",
    "wtinylfu": "CacheLab follows Caffeine's simulator (WindowTinyLfuPolicy); libCacheSim's WTinyLFU.c is a different design",
    "cost-lru": "CacheLab-only (Nuke-style cost-bounded LRU)",
    "access-date-purge": "CacheLab-only (AFNetworking purge)",
    "nscache": "CacheLab-only (Foundation NSCache order)",
    "urlcache": "CacheLab-only (Foundation URLCache order)",
}

# --------------------------------------------------------------------------------------------
# Traces
# --------------------------------------------------------------------------------------------

REFERENCE_SIZES = ",".join(f"{n}MiB" for n in range(128, 1025, 128))
DEFAULT_OBJECT_SIZES = "60,500,0.01,0.1,0.25"
DEFAULT_BYTE_SIZES = "1MiB,10MiB,0.01,0.1,0.25"


@dataclass
class TraceDef:
    rel: str  # path under the traces folder; also the trace's name in the table
    cachelab_format: str  # --format for CacheLab
    peer: str  # how the package reads it: oracle, vscsi, csv-cloudphysics, txt, txt-filtered, id-size, be32, be64
    sized: bool  # has object sizes (so byte mode means something)
    extra_byte_sizes: str = ""  # sizes added in byte mode (the reference table's)
    subset_modes: dict = field(default_factory=dict)  # mode -> sizes for --subset


TRACES = [
    TraceDef(
        "libcachesim/cloudPhysicsIO.oracleGeneral.bin",
        "oracle-general",
        "oracle",
        True,
        REFERENCE_SIZES,
        {"byte": "128MiB,1024MiB,0.01", "object": "0.01,0.1"},
    ),
    TraceDef("libcachesim/cloudPhysicsIO.vscsi", "vscsi", "vscsi", True, REFERENCE_SIZES),
    TraceDef("libcachesim/cloudPhysicsIO.csv", "csv:time-col=2,size-col=4,key-col=5,header=true", "csv-cloudphysics", True, REFERENCE_SIZES),
    TraceDef("libcachesim/cloudPhysicsIO.txt", "txt", "txt", False),
    TraceDef("adaptsize/request.trace", "id-size", "id-size", True, "", {"byte": "1MiB"}),
    TraceDef("cache2k/web07.trace", "int32-be", "be32", False),
    TraceDef("cache2k/web12.trace", "int32-be", "be32", False, "", {"object": "0.01"}),
    TraceDef("scarab/scarab-recs.trace", "int64-be", "be64", False),
    TraceDef("corda/trace_vaultservice.trace", "int64-be", "be64", False),
] + [
    TraceDef(f"lirs/{name}.trace", "txt", "txt-filtered" if name in ("2_pools", "cs") else "txt", False, "", subset)
    for name, subset in [
        ("2_pools", {}),
        ("backf", {}),
        ("cpp", {}),
        ("cs", {}),
        ("gli", {"object": "0.1,500"}),
        ("loop", {}),
        ("multi1", {}),
        ("multi2", {}),
        ("multi3", {}),
        ("ps", {}),
        ("scan", {}),
        ("sprite", {}),
        ("zigzag", {}),
    ]
]

NOT_COMPARED_TRACES = {
    "cachelib/kv_traces_1.csv": "SET/DELETE rows (store, remove) have no equivalent in the package's get-only replay",
    "cachelib/kv_traces_2.csv": "SET/DELETE rows (store, remove) have no equivalent in the package's get-only replay",
}

# --------------------------------------------------------------------------------------------
# The package side (runs in worker processes)
# --------------------------------------------------------------------------------------------

_lcs = None
_readers: dict = {}


def _package():
    global _lcs
    if _lcs is None:
        import libcachesim  # noqa: F401  (loads the extension)
        import libcachesim.libcachesim_python as native

        _lcs = native
    return _lcs


def open_reader(source: dict, object_mode: bool):
    """A libCacheSim reader for a prepared source (cached per worker process)."""
    key = (json.dumps(source, sort_keys=True), object_mode)
    if key in _readers:
        return _readers[key]
    native = _package()
    import libcachesim as lcs

    param = lcs.ReaderInitParam()
    kind = source["type"]
    trace_type = {
        "oracle": lcs.TraceType.ORACLE_GENERAL_TRACE,
        "vscsi": lcs.TraceType.VSCSI_TRACE,
        "csv": lcs.TraceType.CSV_TRACE,
        "txt": lcs.TraceType.PLAIN_TXT_TRACE,
    }[kind]
    if kind == "csv":
        param.delimiter = source["delimiter"]
        param.has_header = source["header"]
        param.has_header_set = True
        param.obj_id_field = source["id"]
        param.obj_size_field = source.get("size", 0)
        param.time_field = source.get("time", 0)
    param.ignore_obj_size = object_mode
    reader = native.Reader(source["path"], trace_type, param)
    _readers[key] = reader
    return reader


def request_stream(source: dict, object_mode: bool):
    """Yields (obj_id, obj_size) of every request as the package reads it."""
    _package()
    import libcachesim as lcs

    reader = lcs.TraceReader(open_reader(source, object_mode))
    for req in reader:
        yield req.obj_id, req.obj_size


def trace_totals(source: dict, object_mode: bool) -> tuple[int, int]:
    n = total = 0
    for _, size in request_stream(source, object_mode):
        n += 1
        total += size
    return n, total


def _worker(conn) -> None:
    """Runs the tasks the parent sends over its own pipe, one at a time."""
    _readers.clear()
    if not os.environ.get("PEER_DIFF_TRACE"):
        # libCacheSim's C code logs warnings (objects larger than the cache...) to stderr.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            result = run_peer(task)
        except Exception as error:  # a Python-level failure of the package
            result = {"id": task["id"], "error": f"package error: {error}"}
        conn.send(result)


def run_pool(tasks: list[dict], jobs: int, timeout: float, progress: bool = False) -> list[dict]:
    """Runs the package caches in worker processes, each fed over its own pipe. A cache that
    runs longer than `timeout` seconds (libCacheSim's LFUDA can spend hours in
    update_min_freq) or kills its process (libCacheSim aborts on some errors) is recorded
    with an error, and its worker is replaced."""
    from multiprocessing.connection import wait

    ctx = get_context("fork")
    pending = list(reversed(tasks))  # pop() takes the first task
    results: list[dict] = []
    busy: dict = {}  # connection -> [process, task, start time]
    idle: list = []

    def spawn():
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        proc.start()
        child.close()
        idle.append((parent, proc))

    def retire(conn, proc, timed_out):
        task = busy.pop(conn)[1]
        if proc.is_alive() and timed_out:
            proc.kill()
        proc.join(timeout=5)
        if proc.is_alive():
            proc.kill()
            proc.join()
        conn.close()
        error = f"still running after {timeout:g} s" if timed_out else f"process died (exit {proc.exitcode})"
        results.append({"id": task["id"], "error": f"package gave no result: {error}"})

    for _ in range(min(jobs, len(tasks))):
        spawn()
    last_report = time.monotonic()
    while pending or busy:
        while pending and idle:
            conn, proc = idle.pop()
            task = pending.pop()
            conn.send(task)
            busy[conn] = [proc, task, time.monotonic()]
        for conn in wait(list(busy), timeout=0.5):
            proc, task, _ = busy[conn]
            try:
                result = conn.recv()
            except (EOFError, OSError):
                retire(conn, proc, False)
                spawn()
                continue
            results.append(result)
            del busy[conn]
            idle.append((conn, proc))
        now = time.monotonic()
        for conn, (proc, task, since) in list(busy.items()):
            if not proc.is_alive():
                retire(conn, proc, False)
                spawn()
            elif now - since > timeout:
                retire(conn, proc, True)
                spawn()
        if progress and now - last_report > 10:
            last_report = now
            print(f"peer-diff: {len(results)}/{len(tasks)} package caches done", file=sys.stderr, flush=True)
    for conn, proc in idle:
        try:
            conn.send(None)
        except OSError:
            pass
        proc.join(timeout=5)
        if proc.is_alive():
            proc.kill()
        conn.close()
    return results


def run_peer(task: dict) -> dict:
    """One package cache: returns misses and miss bytes."""
    native = _package()
    import libcachesim as lcs

    reader = open_reader(task["source"], task["object_mode"])
    params = lcs.CommonCacheParams(task["capacity"], hashpower=task["hashpower"])
    cache = getattr(native, task["init"])(params, task["params"])
    if os.environ.get("PEER_DIFF_TRACE"):
        print(f"peer-diff: {task['init']} {task['params']} {task['capacity']} {task['source']['path']} object={task['object_mode']}", file=sys.stderr, flush=True)
    started = time.perf_counter()
    miss_ratio, byte_miss_ratio = native.c_process_trace(cache, reader)
    seconds = time.perf_counter() - started
    n, total = task["requests"], task["request_bytes"]
    hits = round((1.0 - miss_ratio) * n)
    hit_bytes = round((1.0 - byte_miss_ratio) * total)
    return {"id": task["id"], "misses": n - hits, "miss_bytes": total - hit_bytes, "seconds": seconds}


# --------------------------------------------------------------------------------------------
# Preparing traces for the package
# --------------------------------------------------------------------------------------------


def write_oracle_general(path: Path, requests) -> int:
    """Writes (id, size) pairs as oracleGeneral with 1-based next-access indices (-1: none)."""
    ids: list[int] = []
    sizes: list[int] = []
    for obj_id, size in requests:
        ids.append(obj_id & 0xFFFFFFFFFFFFFFFF)
        sizes.append(size)
    n = len(ids)
    next_access = [-1] * n
    seen: dict[int, int] = {}
    for i in range(n - 1, -1, -1):
        next_access[i] = seen.get(ids[i], -1)
        seen[ids[i]] = i + 1
    record = struct.Struct("<IQIq")
    with open(path, "wb") as out:
        buf = bytearray()
        for i in range(n):
            buf += record.pack(0, ids[i], sizes[i], next_access[i])
            if len(buf) >= 1 << 20:
                out.write(buf)
                buf.clear()
        out.write(buf)
    return n


def big_endian_keys(path: Path, width: int):
    fmt = ">i" if width == 4 else ">q"
    data = path.read_bytes()
    if len(data) % width:
        raise SystemExit(f"peer-diff: {path}: size is not a multiple of {width}")
    for (key,) in struct.iter_unpack(fmt, data):
        yield key, 1


def prepare_source(trace: TraceDef, path: Path, scratch: Path) -> dict:
    """How the package reads this trace (converting into scratch when it cannot)."""
    p = str(path)
    if trace.peer == "oracle":
        return {"type": "oracle", "path": p, "native": True}
    if trace.peer == "vscsi":
        return {"type": "vscsi", "path": p, "native": True}
    if trace.peer == "csv-cloudphysics":
        return {"type": "csv", "path": p, "delimiter": ",", "header": True, "time": 2, "size": 4, "id": 5, "native": True}
    if trace.peer == "id-size":
        return {"type": "csv", "path": p, "delimiter": " ", "header": False, "size": 3, "id": 2, "native": True}
    if trace.peer == "txt":
        return {"type": "txt", "path": p, "native": True}
    if trace.peer == "txt-filtered":
        out = scratch / (path.name + ".nomarkers.txt")
        with open(path, "rb") as src, open(out, "wb") as dst:
            for line in src:
                if line.strip() != b"*":
                    dst.write(line)
        return {"type": "txt", "path": str(out), "native": False, "how": "txt without '*' lines"}
    if trace.peer in ("be32", "be64"):
        out = scratch / (path.name + ".oracleGeneral.bin")
        write_oracle_general(out, big_endian_keys(path, 4 if trace.peer == "be32" else 8))
        return {"type": "oracle", "path": str(out), "native": False, "how": "big-endian keys written as oracleGeneral"}
    raise ValueError(trace.peer)


def oracle_source(source: dict, object_mode: bool, scratch: Path, name: str) -> dict:
    """An oracleGeneral source with next-access times for Belady."""
    if source["type"] == "oracle":
        return source
    out = scratch / f"{name.replace('/', '_')}.{'obj' if object_mode else 'byte'}.belady.oracleGeneral.bin"
    if not out.exists():
        write_oracle_general(out, request_stream(source, object_mode))
    return {"type": "oracle", "path": str(out), "native": False, "how": "oracleGeneral copy with next-access times"}


# --------------------------------------------------------------------------------------------
# CacheLab side
# --------------------------------------------------------------------------------------------


def parse_spec(spec: str) -> tuple[str, dict]:
    name, _, rest = spec.partition(":")
    params = {}
    if rest:
        for item in rest.split(","):
            k, _, v = item.partition("=")
            params[k.strip()] = v.strip()
    return name, params


def params_match(wanted: dict, csv_params: str) -> bool:
    have = {}
    for item in filter(None, csv_params.split(";")):
        k, _, v = item.partition("=")
        have[k] = v
    for k, v in wanted.items():
        if k not in have:
            return False
        try:
            if float(have[k]) != float(v):
                return False
        except ValueError:
            if have[k] != v:
                return False
    return True


def run_cachelab(binary: str, trace: TraceDef, path: Path, object_mode: bool, policies: list[PolicyMap], sizes: list[str], scratch: Path) -> list[dict]:
    out = scratch / f"cachelab-{os.getpid()}-{time.monotonic_ns()}.csv"
    cmd = [
        binary, "run", "--trace", str(path), "--format", trace.cachelab_format,
        "--policies", ",".join(p.spec for p in policies),
        "--sizes", ",".join(sizes), "--output", str(out), "--quiet",
    ]  # fmt: skip
    if object_mode:
        cmd.append("--ignore-size")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"peer-diff: cachelab failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.strip()}")
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    out.unlink()
    return rows


# --------------------------------------------------------------------------------------------
# Drift, reference
# --------------------------------------------------------------------------------------------


def load_drift() -> dict:
    if not DRIFT_FILE.exists():
        return {"drift": [], "known_differences": [], "package_failures": []}
    return json.loads(DRIFT_FILE.read_text())


def explanation(entries: list[dict], policy: str) -> str:
    return next((e["why"] for e in entries if e["policy"] == policy), "")


def drift_for(drift: list[dict], trace: str, mode: str, policy: str, capacity: int, cachelab: tuple, peer: tuple):
    """The drift entry that lists this exact row (trace, mode, capacity) with these exact
    counts on both sides; any other number makes the row DIFFERENT again."""
    for entry in drift:
        if entry["policy"] != policy:
            continue
        for row in entry["rows"]:
            if (row["trace"], row["mode"], row["capacity"]) == (trace, mode, capacity):
                if tuple(row["cachelab"]) == cachelab and tuple(row["peer"]) == peer:
                    return entry
    return None


def load_reference(traces_dir: Path) -> dict:
    """(policy, params, capacity) -> (misses, miss_bytes) from libCacheSim's unit tests."""
    path = traces_dir.parent / "reference" / "libcachesim-cloudphysics.csv"
    table = {}
    if not path.exists():
        return table
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["trace"] != "cloudPhysicsIO.oracleGeneral.bin":
                continue
            table[(row["policy"], row["params"], int(row["capacity_bytes"]))] = (int(row["misses"]), int(row["miss_bytes"]))
    return table


REFERENCE_KEYS = {  # CacheLab spec -> (reference policy, params)
    "fifo": ("fifo", ""),
    "lru": ("lru", ""),
    "clock:bits=1": ("clock", "n-bit-counter=1"),
    "sieve": ("sieve", ""),
    "lfu": ("lfu", ""),
    "lfuda": ("lfuda", ""),
    "gdsf": ("gdsf", ""),
    "belady:bypass=false": ("belady", ""),
    "slru:segments=5": ("slru", "n-seg=5"),
    "arc": ("arc", ""),
    "lirs:hir=0.01": ("lirs", ""),
    "s3fifo:small=0.1,ghost=0.9,threshold=2": ("s3fifo", "fifo-size-ratio=0.10,ghost-size-ratio=0.90,move-to-main-threshold=2"),
    "qdlp:small=0.1,ghost=0.9,threshold=1,main=clock2": ("qdlp", "fifo-size-ratio=0.10,main-cache=clock2"),
    "lhd:associativity=32,admissions=8": ("lhd", ""),
    "lecar:learning-rate=0.45,lru-weight=0.5": ("lecar", ""),
}

# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def short_name(spec: str) -> str:
    """The policy as shown in the table: parameters only where two variants are compared."""
    name = spec.split(":")[0]
    return spec if name in ("clock", "slru") else name


def select(items, wanted: str | None, key):
    if not wanted:
        return list(items)
    patterns = [w.strip() for w in wanted.split(",") if w.strip()]
    chosen = [i for i in items if any(p == key(i) or fnmatch.fnmatch(key(i), f"*{p}*") for p in patterns)]
    return chosen


def main() -> int:
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--subset", action="store_true", help="a small fast subset (for CI): 4 traces, a few sizes, about 25 s")
    ap.add_argument("--policies", help="comma-separated CacheLab policy names (or specs) to compare; randomised ones only when named")
    ap.add_argument("--traces", help="comma-separated trace names or parts of them (e.g. lirs/cpp,cache2k)")
    ap.add_argument("--sizes", help="sizes as CacheLab's --sizes takes them (fractions, counts, 10MiB...), for every mode")
    ap.add_argument("--modes", default="object,byte", help="object, byte or both (default both; byte only for traces with sizes)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="package worker processes (default: cores)")
    ap.add_argument("--timeout", type=float, default=20, help="seconds one package cache may run (default 20)")
    ap.add_argument("--hashpower", type=int, default=20, help="libCacheSim hash table power (default 20; results do not depend on it)")
    ap.add_argument(
        "--peer-override",
        action="append",
        default=[],
        metavar="NAME=INIT[:PARAMS]",
        help="map CacheLab policy NAME to another package init function, e.g. s3fifo=S3FIFO_init:small-size-ratio=0.1,ghost-size-ratio=0.9,move-to-main-threshold=2",
    )
    ap.add_argument("--only-differences", action="store_true", help="print only rows that are not equal")
    ap.add_argument("--csv", help="also write the table as CSV to this file")
    args = ap.parse_args()

    binary = os.environ.get("CACHELAB", ".build/release/cachelab")
    if shutil.which(binary) is None and not Path(binary).exists():
        print(f"peer-diff: CacheLab binary {binary} not found (set CACHELAB)", file=sys.stderr)
        return 2
    traces_dir = Path(os.environ.get("PEER_TRACES", SCRIPT_DIR / ".." / ".." / "shared" / "traces")).resolve()
    if not traces_dir.is_dir():
        print(f"peer-diff: traces folder {traces_dir} not found (set PEER_TRACES)", file=sys.stderr)
        return 2
    try:
        import importlib.metadata as metadata

        version = metadata.version("libcachesim")
    except Exception:
        print("peer-diff: the libcachesim package is not installed (run Scripts/peer-diff.sh)", file=sys.stderr)
        return 2
    if version != PACKAGE_VERSION:
        print(f"peer-diff: libcachesim {version} installed, {PACKAGE_VERSION} expected", file=sys.stderr)
        return 2

    # Policies
    if args.policies:
        names = [n.strip() for n in args.policies.split(",") if n.strip()]
        policies = [p for p in POLICIES if any(p.spec == n or p.spec.split(":")[0] == n for n in names)]
        unknown = [n for n in names if not any(p.spec == n or p.spec.split(":")[0] == n for p in POLICIES)]
        for n in unknown:
            why = UNMAPPED.get(n.split(":")[0], "no such mapped policy")
            print(f"peer-diff: not compared: {n} ({why})", file=sys.stderr)
        if not policies:
            return 2
    else:
        policies = [p for p in POLICIES if not p.randomised]

    for override in args.peer_override:
        name, _, target = override.partition("=")
        init, _, params = target.partition(":")
        if not init.endswith("_init"):
            print(f"peer-diff: --peer-override {override}: expected NAME=SOMETHING_init[:params]", file=sys.stderr)
            return 2
        matched = False
        for i, p in enumerate(policies):
            if p.spec.split(":")[0] == name:
                policies[i] = PolicyMap(p.spec, init, params, f"overridden: {init} {params}", p.randomised)
                matched = True
        if not matched:
            print(f"peer-diff: --peer-override {override}: {name} is not among the compared policies", file=sys.stderr)
            return 2

    # Traces and sizes per mode
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if any(m not in ("object", "byte") for m in modes):
        print("peer-diff: --modes takes object, byte", file=sys.stderr)
        return 2
    traces = select(TRACES, args.traces, lambda t: t.rel)
    if args.subset:
        traces = [t for t in traces if t.subset_modes]
    if not traces:
        print("peer-diff: no trace selected", file=sys.stderr)
        return 2
    plan = []  # (trace, mode, sizes)
    for t in traces:
        path = traces_dir / t.rel
        if not path.exists():
            print(f"peer-diff: {path} missing", file=sys.stderr)
            return 2
        for mode in modes:
            if mode == "byte" and not t.sized:
                continue
            if args.subset and not args.sizes:
                if mode not in t.subset_modes:
                    continue
                sizes = t.subset_modes[mode]
            elif args.sizes:
                sizes = args.sizes
            else:
                sizes = DEFAULT_OBJECT_SIZES if mode == "object" else ",".join(filter(None, [DEFAULT_BYTE_SIZES, t.extra_byte_sizes]))
            plan.append((t, mode, [s for s in sizes.split(",") if s]))

    drift_doc = load_drift()
    drift = drift_doc.get("drift", [])
    reference = load_reference(traces_dir)
    scratch = Path(tempfile.mkdtemp(prefix="peer-diff-"))
    started = time.time()
    rows = []
    try:
        sources = {}
        tasks = []
        for t, mode, sizes in plan:
            object_mode = mode == "object"
            if t.rel not in sources:
                sources[t.rel] = prepare_source(t, traces_dir / t.rel, scratch)
            source = sources[t.rel]
            n, total = trace_totals(source, object_mode)
            lab_rows = run_cachelab(binary, t, traces_dir / t.rel, object_mode, policies, sizes, scratch)
            for p in policies:
                name, wanted = parse_spec(p.spec)
                mine = [r for r in lab_rows if r["policy"] == name and params_match(wanted, r["params"])]
                if len(mine) != len(sizes):
                    raise SystemExit(f"peer-diff: {t.rel} {mode} {p.spec}: {len(mine)} CacheLab rows for {len(sizes)} sizes")
                psource = oracle_source(source, object_mode, scratch, t.rel) if p.init == "Belady_init" else source
                for size_spec, r in zip(sizes, mine):
                    capacity = int(r["capacity"])
                    row = {
                        "trace": t.rel, "mode": mode, "size": size_spec, "capacity": capacity, "policy": p.spec,
                        "peer_init": p.init, "peer_params": p.params, "randomised": p.randomised,
                        "cachelab_requests": int(r["requests"]), "cachelab_request_bytes": int(r["request_bytes"]),
                        "cachelab_misses": int(r["misses"]), "cachelab_miss_bytes": int(r["miss_bytes"]),
                        "peer_requests": n, "peer_request_bytes": total,
                        "peer_source": "native" if psource.get("native") else psource.get("how", ""),
                    }  # fmt: skip
                    row["id"] = len(rows)
                    rows.append(row)
                    tasks.append({
                        "id": row["id"], "source": psource, "object_mode": object_mode, "capacity": capacity,
                        "init": p.init, "params": p.params, "randomised": p.randomised, "hashpower": args.hashpower,
                        "requests": n, "request_bytes": total,
                    })  # fmt: skip
        # Longest first keeps the workers busy to the end.
        tasks.sort(key=lambda task: -task["requests"])
        for res in run_pool(tasks, max(1, args.jobs), args.timeout, progress=sys.stderr.isatty() or bool(os.environ.get("PEER_DIFF_PROGRESS"))):
            row = rows[res["id"]]
            row["peer_misses"] = res.get("misses")
            row["peer_miss_bytes"] = res.get("miss_bytes")
            row["peer_error"] = res.get("error", "")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    # Classify
    counts = {"equal": 0, "version drift": 0, "randomised": 0, "package failed": 0, "DIFFERENT": 0}
    for row in rows:
        lab = (row["cachelab_misses"], row["cachelab_miss_bytes"])
        peer = (row["peer_misses"], row["peer_miss_bytes"])
        note = ""
        ref_key = REFERENCE_KEYS.get(row["policy"])
        ref = None
        if ref_key and row["mode"] == "byte" and row["trace"].endswith("oracleGeneral.bin"):
            ref = reference.get((ref_key[0], ref_key[1], row["capacity"]))
        name = row["policy"].split(":")[0]
        if row["peer_error"]:
            status = "package failed"
            why = explanation(drift_doc.get("package_failures", []), name)
            note = f"{name}: {row['peer_error']}" + (f" ({why})" if why else "")
        elif (row["cachelab_requests"], row["cachelab_request_bytes"]) != (row["peer_requests"], row["peer_request_bytes"]):
            status = "DIFFERENT"
            note = f"input differs: CacheLab read {row['cachelab_requests']} requests / {row['cachelab_request_bytes']} B, the package {row['peer_requests']} / {row['peer_request_bytes']} B"
        elif lab == peer:
            status = "equal"
        elif row["randomised"]:
            status = "randomised"
            note = "randomised policy: the package's shared RNG state makes it not comparable"
            if ref is not None and lab == ref:
                note += " (CacheLab equals libCacheSim's unit-test expectation on its rows)"
        elif ref is not None and lab == ref:
            status = "version drift"
            note = "the package differs from libCacheSim's unit-test expectation (../shared/reference), which CacheLab equals"
            entry = drift_for(drift, row["trace"], row["mode"], name, row["capacity"], lab, peer)
            if entry:
                note = f"{name}: {entry['why']}"
        elif ref is not None:
            status = "DIFFERENT"
            note = f"reference (libCacheSim unit tests) {ref[0]} / {ref[1]}"
        else:
            entry = drift_for(drift, row["trace"], row["mode"], name, row["capacity"], lab, peer)
            if entry:
                status = "version drift"
                note = f"{name}: {entry['why']}"
            else:
                status = "DIFFERENT"
                why = explanation(drift_doc.get("known_differences", []), name)
                note = f"{name}: {why}" if why else ""
        row["status"] = status
        row["note"] = note
        counts[status] += 1

    # Table
    headers = ["trace", "mode", "size", "capacity", "policy", "cachelab misses", "cachelab miss bytes", "libcachesim misses", "libcachesim miss bytes", "status"]

    def cells(row):
        return [
            row["trace"], row["mode"], row["size"], str(row["capacity"]), short_name(row["policy"]),
            str(row["cachelab_misses"]), str(row["cachelab_miss_bytes"]), str(row["peer_misses"] if row["peer_misses"] is not None else "-"), str(row["peer_miss_bytes"] if row["peer_miss_bytes"] is not None else "-"), row["status"],
        ]  # fmt: skip

    shown = [r for r in rows if not (args.only_differences and r["status"] == "equal")]
    table = [headers] + [cells(r) for r in shown]
    widths = [max(len(line[i]) for line in table) for i in range(len(headers))]
    numeric = {3, 5, 6, 7, 8}
    for line in table:
        print("  ".join(c.rjust(widths[i]) if i in numeric else c.ljust(widths[i]) for i, c in enumerate(line)).rstrip())
    notes = {}
    for r in shown:
        if r["status"] != "equal" and r["note"]:
            notes.setdefault(r["note"], []).append(r)
    if notes:
        print()
        for note, rs in notes.items():
            label = rs[0]["status"]
            print(f"{label} ({len(rs)} rows): {note}")
    print()
    print(f"libcachesim {PACKAGE_VERSION} vs {binary}: {len(rows)} rows, {len(policies)} policies, {len(plan)} trace/mode runs, {time.time() - started:.1f} s")
    print("totals: " + ", ".join(f"{counts[k]} {k}" for k in ("equal", "version drift", "randomised", "package failed", "DIFFERENT") if counts[k] or k in ("equal", "DIFFERENT")))
    skipped = [f"{k} ({v})" for k, v in NOT_COMPARED_TRACES.items() if (traces_dir / k).exists()] if not args.traces and not args.subset else []
    if skipped:
        print("not compared: " + "; ".join(skipped))
    if not args.policies:
        print("not compared: " + "; ".join(f"{k} ({v})" for k, v in UNMAPPED.items()) + "; randomised lhd, lecar, hyperbolic, random unless named with --policies")

    if args.csv:
        fields = ["trace", "mode", "size", "capacity", "policy", "peer_init", "peer_params", "peer_source",
                  "cachelab_requests", "cachelab_request_bytes", "peer_requests", "peer_request_bytes",
                  "cachelab_misses", "cachelab_miss_bytes", "peer_misses", "peer_miss_bytes", "status", "note"]  # fmt: skip
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    return 1 if counts["DIFFERENT"] else 0


if __name__ == "__main__":
    sys.exit(main())
