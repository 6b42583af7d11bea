#!/usr/bin/env python3
"""Differential check of CacheLab against libCacheSim's C implementations.

The peer is the libcachesim Python package (pinned to 0.3.5; `Scripts/peer-diff.sh` sets up a
venv with it). For every CacheLab policy with a libCacheSim counterpart, every shared trace the
package can be fed, object mode and byte mode, and several cache sizes, this runs both
simulators and prints one row per (trace, mode, size, policy, admission): CacheLab's misses
and miss bytes, the package's, and a status:

  equal           both counts agree;
  version drift   they differ because libCacheSim changed, not CacheLab: CacheLab equals
                  libCacheSim's unit-test expectation for that row (../shared/reference) and
                  the package (a newer libCacheSim) does not, or the row is listed in
                  Scripts/peer_diff_drift.json with exactly these counts and the cause;
  known difference  an admission row listed under `known_differences` in the drift file
                  with exactly these counts: a documented semantic difference between CacheLab
                  and the package (reproduced on both sides by a model, see the entry's
                  evidence); any other value makes the row DIFFERENT again;
  package failed  the package gave no result (a cache ran past --timeout, or libCacheSim
                  aborted); the drift file says why;
  randomised      a randomised policy named with --policies (not comparable, see below), or
                  a randomised admission with --shared-rng within --random-tolerance (the
                  table shows the relative miss-ratio difference);
  DIFFERENT       anything else (with the known cause, when the drift file has one).
A status marked "(emulated)" is an admission row of a package policy that ignores
cache->admissioner (see Admission below).

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

Admission (--admissions, CacheLab's `--admission`): each compared admission runs in front of
the ADMISSION_POLICIES (--subset: lru, s3fifo, arc with bloom-filter, size and prob; with
--policies: the named ones) in one more CacheLab pass per (trace, mode) (`--admission
a,b,...`, rows matched by the CSV's `admission` column), and in the package as the cache's
`admissioner` (create_*_admissioner), which cache_get_base consults through
cache_can_insert_default on every miss; the C loop honours it. bloom-filter runs everywhere;
size (threshold: the trace's median request size, so about half the requests are refused),
size-prob (exponent 1e-06) and adaptsize (max-iteration 15, reconf-interval 30000) in byte mode
only (every size is 1 in object mode); prob (p 0.5) in both. The randomised ones draw from
libCacheSim's next_rand, lehmer64 from the thread-local state 0xdeadbeef, which the package
never resets between caches; CacheLab starts one stream per cache at 0xdeadbeef + --seed (0),
so the harness calls the package's exported set_rand_seed(0xdeadbeef) before each such cache
and compares exactly (--shared-rng skips that: rows then compare within --random-tolerance).
Package policies listed under `admission_bypass` in the drift file (Clock2QPlus: its own
can_insert never calls cache_can_insert_default) get their admission rows from a Python replay
of cache_get_base's steps on the package's cache with the admission modelled in Python (exact
without admission; adaptsize has no model, so it is not compared for them). Like the package,
CacheLab's 2Q, S3-FIFO and QDLP check their small queue's size before the admission policy,
and its ARC keeps libCacheSim's "in B2" flag across a ghost hit whose object was refused. One
admission row (LIRS with prob on the AdaptSize trace) is pinned as a known difference whose
cause is not found (see the drift file).

Policies written against the package's current code (car, arc-v0, slru-v0, s3fifo-2024,
s3fifod, fifo-merge, lru-prob, cacheus, belady-size, random-two, random-lru, flash-prob,
wtinylfu-lcs; lfu also against LFUCpp; lecar with generator=lehmer64 against LeCaR and LeCaRv0)
are compared like the others; the randomised ones draw from libCacheSim's lehmer64 like the
package, so the package's generator is reset to 0xdeadbeef before each of their caches (before
it is built: Cacheus draws while initialising) and they compare exactly. belady-size,
random-two and random-lru sample through CacheLab's port of libCacheSim's hash table, whose
size follows the hash power: their counterparts name the harness's --hashpower (20); so does
hyperbolic.

The older randomised policies (lhd, lecar:generator=mmix, random) run only when named with
--policies: CacheLab draws for them from the MMIX generator of the libCacheSim version whose
unit tests are in ../shared/reference (lhd and lecar equal those expectations), while the
package draws from lehmer64, so their rows are reported with status "randomised", never as
failures.

Which policies are compared, and how, is in each policy's descriptor (PolicyDescriptor's
libCacheSim: its counterparts, each with CacheLab's parameters, the package's init function and
parameter string, a note, whether it is randomised or resets the package's generator, and its
key in libCacheSim's own expected results; or why the package has none). The script reads them
from `$CACHELAB policies --json` at start-up; rows follow the registry order (`cachelab
policies`), a policy's counterparts in its descriptor's order.

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
# Each policy's descriptor holds them (PolicyDescriptor.libCacheSim: its counterparts, or why it
# has none); load_policy_maps reads them from `cachelab policies --json`.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolicyMap:
    spec: str  # CacheLab --policies item, all parameters explicit
    init: str  # libcachesim_python.<init> function
    params: str  # libCacheSim cache-specific parameter string
    note: str = ""
    randomised: bool = False  # only run when named with --policies
    reseed: bool = False  # draws from next_rand: the package's generator is reset to 0xdeadbeef first


@dataclass
class PolicyMappings:
    """Every registered policy's libCacheSim mapping, as the binary lists them."""

    # Registry order (`cachelab policies`); a policy's counterparts in its descriptor's order.
    policies: list[PolicyMap]
    # CacheLab policy name -> why the package has no counterpart (reported, not run).
    unmapped: dict[str, str]
    # CacheLab spec -> (policy, params) under which libCacheSim's unit tests (../shared/reference) list it.
    reference_keys: dict[str, tuple[str, str]]


def load_policy_maps(binary: str) -> PolicyMappings:
    """The mappings from `<binary> policies --json`: an array in registry order of
    {"name", ..., "libcachesim": {"counterparts": [{"parameters", "constructor",
    "peer_parameters", "note", "randomised", "resets_generator", "reference": {"policy",
    "parameters"} or null}]} or {"none": reason}}. Raises ValueError when the binary cannot
    list them."""
    cmd = [binary, "policies", "--json"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise ValueError(f"{' '.join(cmd)}: {e}") from e
    if proc.returncode != 0:
        raise ValueError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    try:
        entries = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise ValueError(f"{' '.join(cmd)}: not JSON ({e})") from e
    mappings = PolicyMappings([], {}, {})
    try:
        for entry in entries:
            name, lcs = entry["name"], entry["libcachesim"]
            if "none" in lcs:
                mappings.unmapped[name] = lcs["none"]
                continue
            for c in lcs["counterparts"]:
                spec = f"{name}:{c['parameters']}" if c["parameters"] else name
                randomised, reseed = bool(c["randomised"]), bool(c["resets_generator"])
                mappings.policies.append(PolicyMap(spec, c["constructor"], c["peer_parameters"], c["note"], randomised, reseed))
                ref = c.get("reference")
                if ref is not None:
                    key = (ref["policy"], ref["parameters"])
                    if mappings.reference_keys.setdefault(spec, key) != key:
                        raise ValueError(f"{spec}: two libCacheSim references, {mappings.reference_keys[spec]} and {key}")
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{' '.join(cmd)}: unexpected layout ({type(e).__name__}: {e})") from e
    if not mappings.policies:
        raise ValueError(f"{' '.join(cmd)}: no policy has a libCacheSim counterpart")
    return mappings


# --------------------------------------------------------------------------------------------
# Admission policies: CacheLab `--admission` spec -> libCacheSim admissioner (attached as
# cache->admissioner, which cache_get_base consults through cache_can_insert_default on every
# miss, before the cache's own size check; the package's C loop honours it).
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AdmissionMap:
    name: str  # CacheLab admission name (the --admissions key and the CSV `admission` name)
    create: str  # libcachesim_python.<create> function, called with a parameter string or None
    randomised: bool = False  # draws from libCacheSim's thread-local generator (next_rand)
    byte_only: bool = False  # sizes are all 1 in object mode, so the row would mean nothing


ADMISSIONS = [
    AdmissionMap("bloom-filter", "create_bloomfilter_admissioner"),
    AdmissionMap("size", "create_size_admissioner", byte_only=True),
    AdmissionMap("prob", "create_prob_admissioner", randomised=True),
    AdmissionMap("size-prob", "create_size_probabilistic_admissioner", randomised=True, byte_only=True),
    AdmissionMap("adaptsize", "create_adaptsize_admissioner", randomised=True, byte_only=True),
]
# libCacheSim's next_rand (utils/mymath.h): lehmer64, a thread-local 128-bit state that starts at
# 0xdeadbeef, multiplied by LEHMER_MULTIPLIER, returning the high 64 bits. CacheLab's prob,
# size-prob and adaptsize start it at 0xdeadbeef + --seed (0 here), one stream per cache; the
# package's stream runs on through every cache of a thread, so each package cache with a
# randomised admission first resets it with the library's exported set_rand_seed.
LEHMER_MULTIPLIER, LIBCACHESIM_RAND_STATE, ADMISSION_SEED = 0xDA942042E4DD58B5, 0xDEADBEEF, 0
RAND_MODULE = 10000000  # libCacheSim's MAX_MODULE in prob.c and sizeProbabilistic.c


def model_admit(model: dict):
    """A Python admit(req) -> bool for an admission model: bloom (seen-on-miss table), size
    (size < threshold), prob and size-prob (libCacheSim's prob_admit and
    size_probabilistic_admit drawing from lehmer64 started at 0xdeadbeef + seed)."""
    kind = model["kind"]
    if kind == "bloom":
        seen: set = set()

        def admit(req):
            if req.obj_id in seen:
                return True
            seen.add(req.obj_id)
            return False

    elif kind == "size":
        threshold = model["threshold"]

        def admit(req):
            return req.obj_size < threshold

    elif kind in ("prob", "size-prob"):
        import math

        state = [LIBCACHESIM_RAND_STATE + model.get("seed", 0)]
        p_int = int(model.get("p", 0) * RAND_MODULE)  # prob.c: admission_probability_int
        exponent = model.get("exponent", 0.0)

        def admit(req):
            state[0] = (state[0] * LEHMER_MULTIPLIER) & ((1 << 128) - 1)
            r = (state[0] >> 64) % RAND_MODULE
            if kind == "prob":
                return r < p_int
            return r / RAND_MODULE < math.exp(-exponent * req.obj_size)

    else:
        raise ValueError(kind)
    return admit

# Admission rows run these policies (of the compared ones): deterministic, quick in the
# package, and between them every mechanism a rejected miss can meet (ghosts, probation
# queues, frequency sketches, LIRS's non-resident HIR blocks). Not here: lfuda (the package
# runs for hours), gdsf (version drift on its own, and its C++ get never calls the
# admissioner's update), belady (an oracle, not a cache one would put admission in front
# of). The subset runs the SUBSET_ADMISSION_POLICIES.
ADMISSION_POLICIES = [
    "fifo", "lru", "clock:bits=1", "clock:bits=2", "sieve", "lfu", "lruk:k=2", "mq:queues=8",
    "clock2qplus", "slru:segments=4", "arc", "lirs:hir=0.01", "2q:kin=0.25,kout=0.5",
    "s3fifo:small=0.1,ghost=0.9,threshold=2", "qdlp:small=0.1,ghost=0.9,threshold=1,main=clock2",
]  # fmt: skip
SUBSET_ADMISSION_POLICIES = ["lru", "s3fifo:small=0.1,ghost=0.9,threshold=2", "arc"]
SUBSET_ADMISSIONS = ["bloom-filter", "size", "prob"]  # prob: the package generator reset per cache (exact)
DEFAULT_RANDOM_TOLERANCE = 0.01  # randomised rows are DIFFERENT past this relative difference


def admission_variant(a: AdmissionMap, object_mode: bool, median_size: int):
    """(CacheLab --admission spec, package parameter string or None, Python model) for one
    trace and mode, or None when the admission is not run there."""
    if a.byte_only and object_mode:
        return None
    if a.name == "bloom-filter":
        return "bloom-filter", None, {"kind": "bloom"}
    if a.name == "size":
        return f"size:threshold={median_size}", f"size={median_size}", {"kind": "size", "threshold": median_size}
    if a.name == "prob":
        return "prob:p=0.5", "prob=0.5", {"kind": "prob", "p": 0.5, "seed": ADMISSION_SEED}
    if a.name == "size-prob":
        return "size-prob:exponent=1e-06", "exponent=1e-06", {"kind": "size-prob", "exponent": 1e-06, "seed": ADMISSION_SEED}
    if a.name == "adaptsize":
        return "adaptsize:max-iteration=15,reconf-interval=30000", "max-iteration=15,reconf-interval=30000", None
    raise ValueError(a.name)

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
    if key not in _readers:
        _readers[key] = new_reader(source, object_mode)
    return _readers[key]


def new_reader(source: dict, object_mode: bool):
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
    return native.Reader(source["path"], trace_type, param)


def request_stream(source: dict, object_mode: bool):
    """Yields (obj_id, obj_size) of every request as the package reads it."""
    _package()
    import libcachesim as lcs

    reader = lcs.TraceReader(open_reader(source, object_mode))
    for req in reader:
        yield req.obj_id, req.obj_size


def trace_totals(source: dict, object_mode: bool) -> tuple[int, int, int]:
    """Request count, request bytes and the median request size (the size admission's
    threshold) of the package's request stream."""
    sizes = [size for _, size in request_stream(source, object_mode)]
    if not sizes:
        return 0, 0, 1
    median = sorted(sizes)[len(sizes) // 2]
    # The threshold must reject some requests but not all (size < threshold is admitted).
    if median <= min(sizes):
        median = min(sizes) + 1
    return len(sizes), sum(sizes), median


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
    if task.get("reseed") is not None:
        set_rand_seed(task["reseed"])  # before the cache: some (Cacheus) draw while initialising
    cache = getattr(native, task["init"])(params, task["params"])
    admission = task.get("admission")
    admissioner = None
    if admission and not task.get("emulate"):
        # The cache consults it in cache_can_insert_default (the C loop honours it).
        admissioner = getattr(native, admission["create"])(admission["params"])
        cache.admissioner = admissioner
    if os.environ.get("PEER_DIFF_TRACE"):
        print(f"peer-diff: {task['init']} {task['params']} {task['capacity']} {task['source']['path']} object={task['object_mode']} admission={admission}", file=sys.stderr, flush=True)
    started = time.perf_counter()
    if task.get("emulate"):
        misses, miss_bytes = emulate_get_base(cache, task["source"], task["object_mode"], admission["model"])
        return {"id": task["id"], "misses": misses, "miss_bytes": miss_bytes, "seconds": time.perf_counter() - started}
    if task.get("reseed") is not None and admissioner is not None:
        set_rand_seed(task["reseed"])  # the admission's draws start afresh, as CacheLab's do
    miss_ratio, byte_miss_ratio = native.c_process_trace(cache, reader)
    seconds = time.perf_counter() - started
    # The cache first: freeing the Admissioner before its cache crashes in the cache's free.
    del cache
    del admissioner
    n, total = task["requests"], task["request_bytes"]
    hits = round((1.0 - miss_ratio) * n)
    hit_bytes = round((1.0 - byte_miss_ratio) * total)
    return {"id": task["id"], "misses": n - hits, "miss_bytes": total - hit_bytes, "seconds": seconds}


_set_rand_seed = None


def set_rand_seed(state: int) -> None:
    """libCacheSim's set_rand_seed: sets this thread's next_rand state (the package exports it)."""
    global _set_rand_seed
    if _set_rand_seed is None:
        import ctypes

        function = ctypes.CDLL(_package().__file__).set_rand_seed
        function.argtypes = [ctypes.c_uint64]
        function.restype = None
        _set_rand_seed = function
    _set_rand_seed(state)


def emulate_get_base(cache, source: dict, object_mode: bool, model: dict) -> tuple[int, int]:
    """Replays a package cache whose own can_insert never consults cache->admissioner (see
    `admission_bypass` in the drift file) with libCacheSim's cache_get_base steps in Python,
    the admission consulted where cache_can_insert_default would: find (updating), on a miss
    admit, then the cache's own can_insert, evict until the object fits, insert. (The
    package's Admissioner.admit takes a raw request pointer, so the admission is modelled
    here, see model_admit.) cache->n_req is not advanced, so this is only for policies whose
    get is cache_get_base and which never read n_req: for Clock2QPlus (and FIFO, LRU, Clock,
    Sieve, LFU, MQ, SLRU, 2Q, S3FIFOv0, QDLP) it reproduces c_process_trace exactly without
    admission on adaptsize/request.trace at 1 and 10 MiB; not for ARC, LRU-K or LIRS."""
    import libcachesim as lcs

    reader = lcs.TraceReader(new_reader(source, object_mode))
    find, can_insert, occupied, evict, insert = cache.find, cache.can_insert, cache.get_occupied_byte, cache.evict, cache.insert
    capacity = cache.cache_size
    admit = model_admit(model)
    misses = miss_bytes = 0
    for req in reader:
        if find(req, True) is not None:
            continue
        misses += 1
        miss_bytes += req.obj_size
        if not admit(req):
            continue
        if not can_insert(req):
            continue
        while occupied() + req.obj_size > capacity:
            evict(req)
        insert(req)
    return misses, miss_bytes


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
            if number(have[k]) != number(v):
                return False
        except ValueError:
            if have[k] != v:
                return False
    return True


UNITS = {"": 1, "b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}


def number(text: str) -> float:
    """A parameter value as a number; byte counts may carry a unit (CacheLab writes the size
    admission's threshold as e.g. 60KiB)."""
    t = text.strip()
    i = len(t)
    while i > 0 and t[i - 1].isalpha():
        i -= 1
    unit = t[i:].lower()
    if unit not in UNITS or (unit and i == 0):
        raise ValueError(text)
    return float(t[:i]) * UNITS[unit]


def admission_match(wanted_spec: str, csv_admission: str) -> bool:
    """Whether a CSV `admission` cell (empty, `name` or `name:k=v;k=v`) is this spec."""
    name, wanted = parse_spec(wanted_spec)
    have_name, _, have_params = (csv_admission or "").partition(":")
    return have_name == name and params_match(wanted, have_params)


def cachelab_admissions(binary: str) -> set[str]:
    """The admission names the binary knows (`cachelab admissions`), empty without --admission."""
    proc = subprocess.run([binary, "run", "--help"], capture_output=True, text=True)
    if "--admission" not in proc.stdout + proc.stderr:
        return set()
    proc = subprocess.run([binary, "admissions"], capture_output=True, text=True)
    return {line.split()[0] for line in proc.stdout.splitlines() if line.strip() and not line[0].isspace()}


def run_cachelab(binary: str, trace: TraceDef, path: Path, object_mode: bool, policies: list[PolicyMap], sizes: list[str], scratch: Path, admissions: list[str] | None = None) -> list[dict]:
    out = scratch / f"cachelab-{os.getpid()}-{time.monotonic_ns()}.csv"
    cmd = [
        binary, "run", "--trace", str(path), "--format", trace.cachelab_format,
        "--policies", ",".join(dict.fromkeys(p.spec for p in policies)),  # one run per spec, however many maps
        "--sizes", ",".join(sizes), "--output", str(out), "--quiet",
    ]  # fmt: skip
    if admissions:
        cmd += ["--admission", ",".join(admissions)]
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


def explanation(entries: list[dict], policy: str, admission: str = "") -> str:
    """The first entry for this policy whose `admission` (an admission name; absent: any row)
    fits the row's admission spec."""
    adm = admission.split(":")[0]

    def fits(entry):
        want = entry.get("admission")
        return want is None or (want == "*" and bool(adm)) or want == adm

    return next((e["why"] for e in entries if e["policy"] == policy and fits(e)), "")


def drift_for(drift: list[dict], trace: str, mode: str, policy: str, capacity: int, cachelab: tuple, peer: tuple, admission: str = ""):
    """The drift entry that lists this exact row (trace, mode, capacity, admission spec; a
    listed row without `admission` is a row without admission) with these exact counts on
    both sides; any other number makes the row DIFFERENT again."""
    for entry in drift:
        if entry["policy"] != policy:
            continue
        for row in entry.get("rows", []):
            if (row["trace"], row["mode"], row["capacity"], row.get("admission", "")) == (trace, mode, capacity, admission):
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
    ap.add_argument("--hashpower", type=int, default=20, help="libCacheSim hash table power (default 20; only the policies that sample through the table depend on it, and their counterparts name 20)")
    ap.add_argument(
        "--peer-override",
        action="append",
        default=[],
        metavar="NAME=INIT[:PARAMS]",
        help="map CacheLab policy NAME to another package init function, e.g. s3fifo=S3FIFO_init:small-size-ratio=0.1,ghost-size-ratio=0.9,move-to-main-threshold=2",
    )
    ap.add_argument(
        "--admissions",
        help="comma-separated admission policies to compare: none (the policy rows without admission), "
        + ", ".join(a.name for a in ADMISSIONS)
        + "; default: none and every admission (--subset: none, bloom-filter, size, prob)",
    )
    ap.add_argument(
        "--random-tolerance",
        type=float,
        default=DEFAULT_RANDOM_TOLERANCE,
        help="relative miss-ratio difference past which a randomised admission row is DIFFERENT (default 0.01)",
    )
    ap.add_argument(
        "--shared-rng",
        action="store_true",
        help="do not reset the package's generator before each cache with a randomised admission (its stream then runs on through a worker's caches, and those rows are compared within --random-tolerance)",
    )
    ap.add_argument("--only-differences", action="store_true", help="print only rows that are not equal")
    ap.add_argument("--csv", help="also write the table as CSV to this file")
    args = ap.parse_args()

    binary = os.environ.get("CACHELAB", ".build/release/cachelab")
    if shutil.which(binary) is None and not Path(binary).exists():
        print(f"peer-diff: CacheLab binary {binary} not found (set CACHELAB)", file=sys.stderr)
        return 2
    try:
        mappings = load_policy_maps(binary)
    except ValueError as e:
        print(f"peer-diff: the policies' libCacheSim mappings: {e}", file=sys.stderr)
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
        policies = [p for p in mappings.policies if any(p.spec == n or p.spec.split(":")[0] == n for n in names)]
        unknown = [n for n in names if not any(p.spec == n or p.spec.split(":")[0] == n for p in mappings.policies)]
        for n in unknown:
            why = mappings.unmapped.get(n.split(":")[0], "no such mapped policy")
            print(f"peer-diff: not compared: {n} ({why})", file=sys.stderr)
        if not policies:
            return 2
    else:
        policies = [p for p in mappings.policies if not p.randomised]

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

    # Admissions, and the policies that run with them
    if args.admissions:
        names = [n.strip() for n in args.admissions.split(",") if n.strip()]
        unknown = [n for n in names if n != "none" and not any(a.name == n for a in ADMISSIONS)]
        if unknown or not names:
            print(f"peer-diff: --admissions takes none, {', '.join(a.name for a in ADMISSIONS)} (not {', '.join(unknown)})", file=sys.stderr)
            return 2
        plain = "none" in names
        admissions = [a for a in ADMISSIONS if a.name in names]
    else:
        plain = True
        admissions = [a for a in ADMISSIONS if a.name in SUBSET_ADMISSIONS] if args.subset else list(ADMISSIONS)
    if args.policies:
        admission_policies = list(policies)  # as named (randomised ones report "randomised")
    else:
        wanted = SUBSET_ADMISSION_POLICIES if args.subset else ADMISSION_POLICIES
        admission_policies = [p for p in policies if p.spec in wanted]
    if admissions and not admission_policies:
        admissions = []
    not_in_binary = []
    if admissions:
        known = cachelab_admissions(binary)
        not_in_binary = [a.name for a in admissions if a.name not in known]
        if not_in_binary and args.admissions:
            print(f"peer-diff: {binary} does not know admission {', '.join(not_in_binary)} (cachelab admissions)", file=sys.stderr)
            return 2
        if not_in_binary:
            print(f"peer-diff: {binary} does not know admission {', '.join(not_in_binary)}: not compared", file=sys.stderr)
        admissions = [a for a in admissions if a.name not in not_in_binary]
    bypass = {e["policy"]: e for e in load_drift().get("admission_bypass", [])}

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
            n, total, median_size = trace_totals(source, object_mode)
            # (admission spec or "", the map, package params, model); "" = the policy rows
            variants = [("", None, None, None)] if plain else []
            for a in admissions:
                v = admission_variant(a, object_mode, median_size)
                if v:
                    variants.append((v[0], a, v[1], v[2]))
            runs = []  # (policies, variants, CacheLab rows)
            if plain:
                runs.append((policies, variants[:1], run_cachelab(binary, t, traces_dir / t.rel, object_mode, policies, sizes, scratch)))
            adm_variants = [v for v in variants if v[0]]
            if adm_variants:
                lab = run_cachelab(binary, t, traces_dir / t.rel, object_mode, admission_policies, sizes, scratch, [v[0] for v in adm_variants])
                runs.append((admission_policies, adm_variants, lab))
            for run_policies, run_variants, lab_rows in runs:
                for p in run_policies:
                    name, wanted = parse_spec(p.spec)
                    for adm_spec, amap, adm_params, model in run_variants:
                        emulate = bool(adm_spec) and name in bypass
                        if emulate and model is None:
                            continue  # a randomised admission the package cache ignores: nothing to compare
                        random_row = bool(amap and amap.randomised and args.shared_rng and not emulate)
                        reseed = LIBCACHESIM_RAND_STATE + ADMISSION_SEED if (amap and amap.randomised and not args.shared_rng) or p.reseed else None
                        mine = [
                            r for r in lab_rows
                            if r["policy"] == name and params_match(wanted, r["params"])
                            and (admission_match(adm_spec, r.get("admission", "")) if adm_spec else not r.get("admission"))
                        ]  # fmt: skip
                        if len(mine) != len(sizes):
                            raise SystemExit(f"peer-diff: {t.rel} {mode} {p.spec} admission {adm_spec or 'none'}: {len(mine)} CacheLab rows for {len(sizes)} sizes")
                        psource = oracle_source(source, object_mode, scratch, t.rel) if p.init in ("Belady_init", "BeladySize_init") else source
                        how = "native" if psource.get("native") else psource.get("how", "")
                        if emulate:
                            how += "; cache_get_base steps in Python with the admission modelled (the package cache ignores cache->admissioner)"
                        peer_admission = ""
                        if amap and emulate:
                            peer_admission = f"modelled in Python ({model['kind']})"
                        elif amap:
                            peer_admission = f"{amap.create}({adm_params!r})" + (f", set_rand_seed({reseed:#x}) first" if reseed is not None else "")
                        for size_spec, r in zip(sizes, mine):
                            capacity = int(r["capacity"])
                            row = {
                                "trace": t.rel, "mode": mode, "size": size_spec, "capacity": capacity, "policy": p.spec,
                                "admission": adm_spec, "peer_init": p.init, "peer_params": p.params,
                                "peer_admission": peer_admission,
                                "randomised": p.randomised, "admission_randomised": random_row,
                                "emulated": emulate,
                                "cachelab_requests": int(r["requests"]), "cachelab_request_bytes": int(r["request_bytes"]),
                                "cachelab_misses": int(r["misses"]), "cachelab_miss_bytes": int(r["miss_bytes"]),
                                "peer_requests": n, "peer_request_bytes": total, "peer_source": how,
                            }  # fmt: skip
                            row["id"] = len(rows)
                            rows.append(row)
                            tasks.append({
                                "id": row["id"], "source": psource, "object_mode": object_mode, "capacity": capacity,
                                "init": p.init, "params": p.params, "randomised": p.randomised, "hashpower": args.hashpower,
                                "requests": n, "request_bytes": total, "emulate": emulate,
                                "admission": {"create": amap.create, "params": adm_params, "model": model} if amap else None,
                                "reseed": reseed,
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
    counts = {"equal": 0, "version drift": 0, "known difference": 0, "randomised": 0, "package failed": 0, "DIFFERENT": 0}
    for row in rows:
        lab = (row["cachelab_misses"], row["cachelab_miss_bytes"])
        peer = (row["peer_misses"], row["peer_miss_bytes"])
        note = ""
        ref_key = mappings.reference_keys.get(row["policy"])
        ref = None
        adm = row["admission"]
        if ref_key and not adm and row["mode"] == "byte" and row["trace"].endswith("oracleGeneral.bin"):
            ref = reference.get((ref_key[0], ref_key[1], row["capacity"]))
        name = row["policy"].split(":")[0]
        row["relative_difference"] = None
        if row["peer_misses"] is not None:
            # The mode's miss ratio (objects, or bytes in byte mode); both sides read the same requests.
            lab_m, peer_m = (lab[1], peer[1]) if row["mode"] == "byte" else (lab[0], peer[0])
            row["relative_difference"] = (lab_m - peer_m) / peer_m if peer_m else (0.0 if lab_m == peer_m else float("inf"))
        if row["peer_error"]:
            status = "package failed"
            why = explanation(drift_doc.get("package_failures", []), name)
            note = f"{name}: {row['peer_error']}" + (f" ({why})" if why else "")
        elif (row["cachelab_requests"], row["cachelab_request_bytes"]) != (row["peer_requests"], row["peer_request_bytes"]):
            status = "DIFFERENT"
            note = f"input differs: CacheLab read {row['cachelab_requests']} requests / {row['cachelab_request_bytes']} B, the package {row['peer_requests']} / {row['peer_request_bytes']} B"
        elif lab == peer:
            status = "equal"
        elif row["admission_randomised"] and not row["randomised"]:
            rel = row["relative_difference"]
            if abs(rel) <= args.random_tolerance:
                status = "randomised"
                note = f"randomised admission {adm.split(':')[0]} with --shared-rng: the package's generator runs on through a worker's caches, so only the miss ratios are compared (within {args.random_tolerance:.1%})"
            else:
                status = "DIFFERENT"
                note = f"randomised admission {adm.split(':')[0]}: miss ratio differs by more than {args.random_tolerance:.1%}"
        elif row["randomised"]:
            status = "randomised"
            note = "randomised policy: the package's shared RNG state makes it not comparable"
            if ref is not None and lab == ref:
                note += " (CacheLab equals libCacheSim's unit-test expectation on its rows)"
        elif ref is not None and lab == ref:
            status = "version drift"
            note = "the package differs from libCacheSim's unit-test expectation (../shared/reference), which CacheLab equals"
            entry = drift_for(drift, row["trace"], row["mode"], name, row["capacity"], lab, peer, adm)
            if entry:
                note = f"{name}: {entry['why']}"
        elif ref is not None:
            status = "DIFFERENT"
            note = f"reference (libCacheSim unit tests) {ref[0]} / {ref[1]}"
        else:
            entry = drift_for(drift, row["trace"], row["mode"], name, row["capacity"], lab, peer, adm)
            known = drift_for(drift_doc.get("known_differences", []), row["trace"], row["mode"], name, row["capacity"], lab, peer, adm)
            if entry:
                status = "version drift"
                note = f"{name}: {entry['why']}"
            elif known:
                status = "known difference"
                note = f"{name}{' with admission' if adm else ''}: {known['why']}"
            else:
                status = "DIFFERENT"
                why = explanation(drift_doc.get("known_differences", []), name, adm)
                label = f"{name} with {adm.split(':')[0]}" if adm else name
                note = f"{label}: {why}" if why else (f"{label}" if adm else "")
        row["status"] = status
        row["note"] = note
        counts[status] += 1

    # Table
    with_admission = any(r["admission"] for r in rows)
    headers = ["trace", "mode", "size", "capacity", "policy"] + (["admission"] if with_admission else []) + ["cachelab misses", "cachelab miss bytes", "libcachesim misses", "libcachesim miss bytes", "status"]

    def status_cell(row):
        if row["admission_randomised"] and row["relative_difference"] is not None and row["status"] != "package failed":
            return f"{row['status']} ({row['relative_difference']:+.2%})"
        return row["status"] + (" (emulated)" if row["emulated"] else "")

    def cells(row):
        return [
            row["trace"], row["mode"], row["size"], str(row["capacity"]), short_name(row["policy"]),
        ] + ([row["admission"] or "-"] if with_admission else []) + [
            str(row["cachelab_misses"]), str(row["cachelab_miss_bytes"]), str(row["peer_misses"] if row["peer_misses"] is not None else "-"), str(row["peer_miss_bytes"] if row["peer_miss_bytes"] is not None else "-"), status_cell(row),
        ]  # fmt: skip

    shown = [r for r in rows if not (args.only_differences and r["status"] == "equal")]
    table = [headers] + [cells(r) for r in shown]
    widths = [max(len(line[i]) for line in table) for i in range(len(headers))]
    numeric = {3, 6, 7, 8, 9} if with_admission else {3, 5, 6, 7, 8}
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
    emulated = [r for r in rows if r["emulated"]]
    if emulated and not notes:
        print()
    for policy in sorted({r["policy"].split(":")[0] for r in emulated}):
        rs = [r for r in emulated if r["policy"].split(":")[0] == policy]
        print(f"admission emulated ({len(rs)} rows, {sum(r['status'] == 'equal' for r in rs)} equal): {policy}: {bypass[policy]['why']}")
    print()
    print(f"libcachesim {PACKAGE_VERSION} vs {binary}: {len(rows)} rows, {len(policies)} policies, {len(plan)} trace/mode runs, {time.time() - started:.1f} s")
    order = ("equal", "version drift", "known difference", "randomised", "package failed", "DIFFERENT")
    print("totals: " + ", ".join(f"{counts[k]} {k}" for k in order if counts[k] or k in ("equal", "DIFFERENT")))
    adm_rows = [r for r in rows if r["admission"]]
    if adm_rows:
        for label, part in (("without admission", [r for r in rows if not r["admission"]]), ("with admission", adm_rows)):
            if part:
                c = {k: sum(r["status"] == k for r in part) for k in order}
                print(f"  {label}: {len(part)} rows: " + ", ".join(f"{c[k]} {k}" for k in order if c[k] or k in ("equal", "DIFFERENT")))
        print(
            f"  admissions: {', '.join(sorted({r['admission'].split(':')[0] for r in adm_rows}))} with "
            f"{', '.join(short_name(p.spec) for p in admission_policies)} (size, size-prob, adaptsize in byte mode only; "
            f"size's threshold is each trace's median request size)"
        )
    if not_in_binary:
        print(f"not compared: admission {', '.join(not_in_binary)} (the CacheLab binary does not know it)")
    skipped = [f"{k} ({v})" for k, v in NOT_COMPARED_TRACES.items() if (traces_dir / k).exists()] if not args.traces and not args.subset else []
    if skipped:
        print("not compared: " + "; ".join(skipped))
    if not args.policies:
        # By name, or by spec where the policy has other, compared specs (lecar:generator=mmix).
        specs = {}
        for p in mappings.policies:
            specs.setdefault(p.spec.split(":")[0], set()).add(p.spec)
        randomised = ", ".join(dict.fromkeys(p.spec if len(specs[p.spec.split(":")[0]]) > 1 else p.spec.split(":")[0] for p in mappings.policies if p.randomised))
        print("not compared: " + "; ".join(f"{k} ({v})" for k, v in mappings.unmapped.items()) + (f"; randomised {randomised} unless named with --policies" if randomised else ""))

    if args.csv:
        fields = ["trace", "mode", "size", "capacity", "policy", "admission", "peer_init", "peer_params", "peer_admission", "peer_source",
                  "cachelab_requests", "cachelab_request_bytes", "peer_requests", "peer_request_bytes",
                  "cachelab_misses", "cachelab_miss_bytes", "peer_misses", "peer_miss_bytes", "relative_difference", "status", "note"]  # fmt: skip
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    return 1 if counts["DIFFERENT"] else 0


if __name__ == "__main__":
    sys.exit(main())
