#!/usr/bin/env python3
"""CacheLab's benchmark set: measures and writes docs/benchmarks.md and docs/benchmarks.csv.

Run it through `bash Scripts/benchmarks.sh` (which installs what is missing and builds the
release binary). Each section is measured on this machine and stamped with the date, the
commit, the machine and the tool versions; a run replaces only the sections it measured, so
the slow ones (`build`, `test-suite`) can be refreshed alone. No figure in the page is typed.

Sections (default: every one but test-suite):
  build       a fresh clone's `bash Scripts/demo.sh` (the README's first command), timed whole
  test-suite  the same clone's `bash Scripts/test.sh` (the README's second command)
  policies    every policy alone on a Zipf trace: replay and whole-process speed, peak memory,
              and with --peer the libcachesim package's C loop on the same file and capacity
  engine      LRU as a policy and as a memory-only engine; every preset on a `gen http` trace
  parsing     trace readers' throughput and peak memory (CacheLab CSV, text, id-size text,
              oracleGeneral; HTTP: access logs of about 1 GB and a HAR made from `gen http`)
  sampling    spatially sampled sweeps against the exact sweep (../shared/traces scarab trace)
  sweep       LRU at 20 sizes in one command: time and peak memory (with --peer: the package)
  calibration `cachelab calibrate` on this machine's disk (a folder under the system's temp dir):
              every operation's fitted cost; draws docs/latency-calibration.svg
  latency-model  disk-hit percentiles the file store measures against those the simulated
              engine predicts from a calibration, three presets on Traces/http-demo.cachelab.csv
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import multiprocessing
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CSV_PATH = DOCS / "benchmarks.csv"
MD_PATH = DOCS / "benchmarks.md"
LOCAL = ROOT / "Traces" / "local"
SECTIONS = ["build", "test-suite", "policies", "engine", "parsing", "sampling", "sweep", "calibration",
            "latency-model"]
DEFAULT_SECTIONS = [s for s in SECTIONS if s != "test-suite"]
FIELDS = ["section", "item", "metric", "value", "date", "commit", "machine", "tools"]

TITLES = {
    "build": "First build",
    "test-suite": "Test suite",
    "policies": "Replay speed and memory per policy",
    "engine": "Engine and presets",
    "parsing": "Trace parsing",
    "sampling": "Sampling",
    "sweep": "Sweeps",
    "calibration": "Calibration of the file store",
    "latency-model": "Measured against modelled disk latency",
}
LATENCY_PRESETS = ["sdwebimage", "nuke", "zzdiskcache"]
LATENCY_TRACE = ROOT / "Traces" / "http-demo.cachelab.csv"


# ------------------------------------------------------------------------------------------
# Stamps
# ------------------------------------------------------------------------------------------


def run_text(command: list[str], cwd: Path = ROOT) -> str:
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ""


def machine() -> str:
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    memory = ""
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1048576:.0f} GiB"
    except OSError:
        pass
    cores = os.cpu_count() or 1
    return f"{platform.system()} {platform.release()}, {model or platform.machine()}, {cores} cores, {memory}".strip(", ")


def commit() -> str:
    head = run_text(["git", "rev-parse", "--short", "HEAD"]) or "unknown"
    dirty = run_text(["git", "status", "--porcelain", "--untracked-files=no", "--", "Sources", "Package.swift"])
    return head + ("+changes" if dirty else "")


def swift_version() -> str:
    text = run_text(["swift", "--version"])
    match = re.search(r"Swift version (\S+)", text)
    return f"Swift {match.group(1)}" if match else "Swift ?"


class Stamp:
    def __init__(self, tools: str):
        self.date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        self.commit = commit()
        self.machine = machine()
        self.tools = tools


# ------------------------------------------------------------------------------------------
# Running things
# ------------------------------------------------------------------------------------------


class Measured:
    """A finished child: wall seconds and peak resident memory (MiB, from wait4)."""

    def __init__(self, seconds: float, peak_mib: float, stdout: str, status: int = 0):
        self.seconds, self.peak_mib, self.stdout, self.status = seconds, peak_mib, stdout, status


def measure(command: list[str], cwd: Path = ROOT, env: dict | None = None) -> Measured:
    """Runs `command` to completion (a set-up step: generating a trace, listing names)."""
    return timed(command, cwd=cwd, env=env)


# How `cachesim` reads a `gen http` CSV (libcsv, so the quoted cache_control cells are fields).
CACHESIM_HTTP_CSV = "time-col=1,obj-id-col=3,obj-size-col=4,delimiter=,,has-header=true,obj-id-is-num=false"


def timed(command: list[str], cwd: Path = ROOT, env: dict | None = None, check: bool = True) -> Measured:
    """Runs `command` with its own wall time and peak RSS (os.wait4 on that child alone); a
    non-zero exit ends the benchmark run with the command's error output (with `check`)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if check and process.returncode != 0:
        sys.exit(f"benchmarks: `{' '.join(map(str, command))}` exited {process.returncode}\n{stderr[-4000:]}")
    # ru_maxrss is in KiB on Linux, bytes on macOS.
    peak = usage.ru_maxrss / (1 << 20) if sys.platform == "darwin" else usage.ru_maxrss / 1024
    return Measured(seconds, peak, stdout + stderr, process.returncode)


def strip_timing(row: dict) -> dict:
    """A report row without the columns that depend on timing."""
    return {k: v for k, v in row.items() if k not in ("replay_seconds", "requests_per_second", "peak_memory_bytes")}


def report_row(path: Path) -> dict:
    with open(path, newline="") as f:
        return next(csv.DictReader(f))


def report_rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Bench:
    def __init__(self, args):
        self.args = args
        self.cachelab = str(ROOT / ".build" / "release" / "cachelab")
        self.scratch = Path(tempfile.mkdtemp(prefix="cachelab-bench-"))
        self.rows: list[dict] = []
        self.peer_python = args.peer_python
        self._clone: Path | None = None
        self._demo_ran = False

    def add(self, stamp: Stamp, section: str, item: str, metric: str, value) -> None:
        text = value if isinstance(value, str) else (f"{value:.4g}" if isinstance(value, float) else str(value))
        self.rows.append(
            {
                "section": section, "item": item, "metric": metric, "value": text, "date": stamp.date,
                "commit": stamp.commit, "machine": stamp.machine, "tools": stamp.tools,
            }
        )

    def cl(self, *arguments: str) -> list[str]:
        return [self.cachelab, *arguments]

    # -- traces ---------------------------------------------------------------------------

    def zipf_trace(self) -> Path:
        requests = self.args.requests
        path = LOCAL / f"bench-zipf-1m-{requests}.oracleGeneral.bin"
        if not path.exists():
            LOCAL.mkdir(parents=True, exist_ok=True)
            measure(self.cl("gen", "zipf", "--objects", "1000000", "--requests", str(requests), "--alpha", "1.0",
                            "--seed", "1", "--sizes", "lognormal:mu=8.318,sigma=1.5,min=64,max=1MiB",
                            "--output", str(path), "--quiet"))
        return path

    def engine_traces(self) -> tuple[Path, Path]:
        LOCAL.mkdir(parents=True, exist_ok=True)
        zipf = LOCAL / "engine-zipf-5m.oracleGeneral.bin"
        http = LOCAL / "engine-http-1m.cachelab.csv"
        if not zipf.exists():
            measure(self.cl("gen", "zipf", "--objects", "100000", "--requests", "5000000", "--alpha", "0.9",
                            "--seed", "1", "--output", str(zipf), "--quiet"))
        if not http.exists():
            measure(self.cl("gen", "http", "--requests", "1000000", "--seed", "1", "--output", str(http)))
        return zipf, http

    # -- sections -------------------------------------------------------------------------

    def fresh_clone(self) -> Path:
        if self._clone:
            return self._clone
        parent = self.scratch / "clone"
        parent.mkdir()
        shared = ROOT.parent / "shared"
        if shared.exists():
            (parent / "shared").symlink_to(shared)
        measure(["git", "clone", "--quiet", str(ROOT), str(parent / "main")])
        self._clone = parent / "main"
        return self._clone

    def build(self, stamp: Stamp) -> None:
        clone = self.fresh_clone()
        took = timed(["bash", "Scripts/demo.sh"], cwd=clone)
        self._demo_ran = True
        steps = re.findall(r"\[(\d+)/(\d+)\]", took.stdout)
        self.add(stamp, "build", "bash Scripts/demo.sh (fresh clone)", "minutes", took.seconds / 60)
        if steps:
            self.add(stamp, "build", "bash Scripts/demo.sh (fresh clone)", "build steps",
                     max(int(total) for _, total in steps))
        resolved = run_text(["swift", "package", "show-dependencies", "--format", "flatlist"], cwd=clone)
        self.add(stamp, "build", "bash Scripts/demo.sh (fresh clone)", "packages",
                 ", ".join(sorted(p.strip() for p in resolved.splitlines() if p.strip())) or "none")

    def test_suite(self, stamp: Stamp) -> None:
        clone = self.fresh_clone()
        env = dict(os.environ)
        env.pop("CI", None)
        took = timed(["bash", "Scripts/test.sh"], cwd=clone, env=env)
        match = re.findall(r"Test run with (\d+) tests? in (\d+) suites? passed", took.stdout)
        item = "bash Scripts/test.sh " + ("(same clone, after the demo)" if self._demo_ran else "(fresh clone)")
        self.add(stamp, "test-suite", item, "minutes", took.seconds / 60)
        if match:
            self.add(stamp, "test-suite", item, "tests", match[-1][0])
            self.add(stamp, "test-suite", item, "suites", match[-1][1])

    def policies(self, stamp: Stamp) -> None:
        trace = self.zipf_trace()
        names = measure(self.cl("policies", "--names")).stdout.strip().split(",")
        if self.args.policies:
            names = [n for n in self.args.policies.split(",") if n]
        counterparts = self.counterparts() if (self.peer_python or self.args.peer_cachesim) else {}
        randomised = {p["name"] for p in json.loads(measure(self.cl("policies", "--json")).stdout) if p["randomized"]}
        algorithms = self.cachesim_algorithms() if self.args.peer_cachesim else {}
        # 10 % of the working-set bytes, found once: every timed run (ours and the peers') gets
        # the same absolute capacity, so none of them makes a working-set pass.
        probe = self.scratch / "policy-capacity.csv"
        measure(self.cl("run", "--trace", str(trace), "--policies", "fifo", "--sizes", "0.1", "--quiet",
                        "--output", str(probe)))
        capacity = report_row(probe)["capacity"]
        for name in names:
            best_policy, best_e2e, peaks, hit = 0.0, 0.0, [], ""
            out = self.scratch / f"policy-{name}.csv"
            for _ in range(self.args.repeats):
                took = timed(self.cl("run", "--trace", str(trace), "--policies", name, "--sizes", capacity, "--serial",
                                     "--quiet", "--output", str(out)))
                row = report_row(out)
                best_policy = max(best_policy, float(row["requests_per_second"]) / 1e6)
                best_e2e = max(best_e2e, int(row["requests"]) / took.seconds / 1e6)
                peaks.append(took.peak_mib)
                hit = row["hit_ratio"]
            item = f"`{name}`"
            self.add(stamp, "policies", item, "hit ratio", f"{float(hit):.4f}")
            self.add(stamp, "policies", item, "replay M req/s", best_policy)
            self.add(stamp, "policies", item, "whole process M req/s", best_e2e)
            self.add(stamp, "policies", item, "peak MiB", min(peaks))
            peer = counterparts.get(name)
            if peer and self.peer_python:
                result = self.peer_run(peer, trace, int(capacity))
                self.add(stamp, "policies", item, "libcachesim M req/s", result["rps"] / 1e6)
                self.add(stamp, "policies", item, "libcachesim hit ratio", f"{result['hit_ratio']:.4f}")
                self.add(stamp, "policies", item, "whole process / libcachesim", f"{best_e2e * 1e6 / result['rps']:.1f}×")
            algorithm = algorithms.get(peer["constructor"]) if peer else None
            if algorithm:
                result = self.cachesim_single(algorithm, peer["peer_parameters"], trace, int(capacity))
                if "refused" in result:
                    self.add(stamp, "policies", item, "× cachesim", f"not compared: cachesim said \"{result['refused']}\"")
                    print(f"benchmarks: policies: {name} done", file=sys.stderr)
                    continue
                self.add(stamp, "policies", item, "cachesim whole process M req/s", result["rps"] / 1e6)
                self.add(stamp, "policies", item, "× cachesim",
                         cachesim_cell(best_e2e * 1e6 / result["rps"], 1 - float(hit), result["miss_ratio"],
                                       name in randomised))
            print(f"benchmarks: policies: {name} done", file=sys.stderr)

    def cachesim_algorithms(self) -> dict:
        """libCacheSim constructor (`LRU_init`) -> the name `cachesim` takes for it, where one of
        the names its `cache_init.h` accepts spells the constructor (case, `-` and `_` aside)."""
        names = ["lru", "fifo", "arc", "arcv0", "lhd", "random", "randomTwo", "lfu", "gdsf", "lfuda", "twoq", "slru",
                 "slruv0", "hyperbolic", "lecar", "lecarv0", "RandomLRU", "cacheus", "size", "lfucpp", "wtinyLFU",
                 "belady", "beladySize", "clock", "lirs", "fifo-merge", "flashProb", "lru-prob", "s3fifo", "s3fifod",
                 "qdlp", "sieve"]
        plain = {n.replace("-", "").lower(): n for n in names}
        result = {}
        for counterpart in self.counterparts().values():
            constructor = counterpart["constructor"]
            key = constructor.removesuffix("_init").replace("_", "").lower()
            if key in plain:
                result[constructor] = plain[key]
        return result

    def cachesim_single(self, algorithm: str, parameters: str, trace: Path, capacity: int) -> dict:
        """libCacheSim's `cachesim` with one cache (whole process, best of the repeats) in a
        scratch folder: requests per second and the miss ratio it prints (4 decimals)."""
        folder = Path(tempfile.mkdtemp(prefix="cachesim-", dir=self.scratch))
        command = [self.args.peer_cachesim, str(trace), "oracleGeneral", algorithm, str(capacity), "--num-thread", "1"]
        if parameters:
            command += ["--eviction-params", parameters]
        runs = [timed(command, cwd=folder, check=False)]
        if runs[0].status != 0:
            # cachesim's policies take other parameters than the package's at times.
            line = next((l for l in runs[0].stdout.splitlines() if "ERROR" in l), f"exit {runs[0].status}")
            return {"refused": re.sub(r".*\)\s*:?\s*", "", line).strip()}
        # Best of the repeats, as for CacheLab; a run of a minute or more is noisy enough alone.
        while len(runs) < self.args.repeats and runs[0].seconds < 60:
            runs.append(timed(command, cwd=folder))
        ratios = [line.split("miss ratio ")[1].split(",")[0].strip() for line in runs[0].stdout.splitlines()
                  if "miss ratio " in line]
        if not ratios:
            sys.exit(f"benchmarks: cachesim printed no miss ratio for {algorithm}:\n{runs[0].stdout[-2000:]}")
        return {"rps": self.args.requests / min(r.seconds for r in runs), "miss_ratio": ratios[0]}

    def engine(self, stamp: Stamp) -> None:
        zipf, http = self.engine_traces()
        out = self.scratch / "engine.csv"

        def best(arguments: list[str]) -> tuple[float, float, str]:
            rps, e2e, hit = 0.0, 0.0, ""
            for _ in range(self.args.repeats):
                took = timed(self.cl(*arguments, "--quiet", "--output", str(out)))
                row = report_row(out)
                rps = max(rps, float(row["requests_per_second"]) / 1e6)
                e2e = max(e2e, int(row["requests"]) / took.seconds / 1e6)
                hit = row["hit_ratio"]
            return rps, e2e, hit

        for label, arguments in [
            ("`lru` 10 MiB as a policy (5 M-request Zipf 0.9)", ["run", "--trace", str(zipf), "--policies", "lru",
                                                                  "--sizes", "10MiB"]),
            ("`lru` 10 MiB as a memory-only engine", ["run", "--trace", str(zipf), "--memory", "lru:10MiB"]),
        ]:
            rps, e2e, hit = best(arguments)
            self.add(stamp, "engine", label, "hit ratio", f"{float(hit):.4f}")
            self.add(stamp, "engine", label, "replay M req/s", rps)
            self.add(stamp, "engine", label, "whole process M req/s", e2e)
        presets = [line.split()[0] for line in measure(self.cl("presets")).stdout.splitlines()
                   if line and not line.startswith(" ")]
        for preset in presets:
            rps, e2e, hit = best(["run", "--trace", str(http), "--preset", preset])
            label = f"preset `{preset}` (1 M-request `gen http` CSV)"
            self.add(stamp, "engine", label, "hit ratio", f"{float(hit):.4f}")
            self.add(stamp, "engine", label, "replay M req/s", rps)
            self.add(stamp, "engine", label, "whole process M req/s", e2e)
        if self.args.peer_cachesim:
            self.engine_beside_cachesim(stamp, http, out)

    def engine_beside_cachesim(self, stamp: Stamp, http: Path, out: Path) -> None:
        """The `sdwebimage` preset run end to end against libCacheSim's `cachesim` with a plain
        LRU on the same CSV, the two alternating (best of the repeats each): the LRU holds all
        the trace's bytes, so it never evicts, like the preset's unbounded memory."""
        ours = self.cl("run", "--trace", str(http), "--preset", "sdwebimage", "--quiet", "--output", str(out))
        timed(ours)
        row = report_row(out)
        requests, capacity = int(row["requests"]), int(row["request_bytes"])
        peer = [self.args.peer_cachesim, str(http), "csv", "lru", str(capacity), "-t", CACHESIM_HTTP_CSV,
                "--num-thread", "1"]
        folder = Path(tempfile.mkdtemp(prefix="cachesim-", dir=self.scratch))
        cores = os.cpu_count() or 1
        for label, busy in [("preset `sdwebimage` beside `cachesim` lru (same CSV, whole process)", 0),
                            (f"the same with every core busy ({cores} spinning processes)", cores)]:
            ours_seconds, peer_seconds = [], []
            # The spinning processes start before the pair and stop after it, whatever happens.
            spinners = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(busy)]
            try:
                for _ in range(self.args.repeats):
                    ours_seconds.append(timed(ours).seconds)
                    peer_seconds.append(timed(peer, cwd=folder).seconds)
            finally:
                for spinner in spinners:
                    spinner.kill()
                    spinner.wait()
            self.add(stamp, "engine", label, "CacheLab whole process M req/s", requests / min(ours_seconds) / 1e6)
            self.add(stamp, "engine", label, "cachesim whole process M req/s", requests / min(peer_seconds) / 1e6)
            self.add(stamp, "engine", label, "× cachesim", f"{min(peer_seconds) / min(ours_seconds):.2f}×")
            self.add(stamp, "engine", label, "× cachesim, medians",
                     f"{statistics.median(peer_seconds) / statistics.median(ours_seconds):.2f}×")

    def parsing(self, stamp: Stamp) -> None:
        LOCAL.mkdir(parents=True, exist_ok=True)
        base = LOCAL / "parse-10m.csv"
        if not base.exists():
            measure(self.cl("gen", "zipf", "--objects", "1000000", "--requests", "10000000", "--seed", "1",
                            "--output", str(base), "--quiet"))
        text = LOCAL / "parse-10m.txt"
        if not text.exists():
            measure(self.cl("convert", str(base), str(text), "--quiet"))
        idsize = LOCAL / "parse-10m.idsize.txt"
        if not idsize.exists():
            with open(base) as source, open(idsize, "w") as sink:
                next(source)
                for number, line in enumerate(source, 1):
                    fields = line.rstrip("\n").split(",")
                    sink.write(f"{number} {fields[1]} {fields[2]}\n")
        binary = LOCAL / "parse-10m.oracleGeneral.bin"
        if not binary.exists():
            measure(self.cl("convert", str(base), str(binary), "--quiet"))
        out = self.scratch / "parse.csv"
        combined, nginx, har = self.http_logs()
        nginx_format = (ROOT / "Traces" / "captures" / "nginx-http.access.log.format").read_text().strip()
        for label, spec, path in [
            ("CacheLab CSV", ["csv:" + str(base)], base),
            ("plain text (one id per line)", ["txt:" + str(text)], text),
            ("id-size text", ["id-size:" + str(idsize)], idsize),
            ("oracleGeneral binary", ["oracle-general:" + str(binary)], binary),
            ("access log, NCSA combined", ["access-log:" + str(combined)], combined),
            ("access log, nginx `log_format` with 4 headers and `$upstream_cache_status`",
             [str(nginx), "--format", nginx_format], nginx),
            ("HAR 1.2", ["har:" + str(har)], har),
        ]:
            best = 0.0
            peak = 0.0
            for _ in range(self.args.repeats):
                took = timed(self.cl("run", "--trace", *spec, "--policies", "fifo", "--sizes", "1", "--ignore-size",
                                     "--serial", "--quiet", "--output", str(out)))
                replay = float(report_row(out)["replay_seconds"])
                best = max(best, path.stat().st_size / 1e6 / max(took.seconds - replay, 1e-9))
                peak = max(peak, took.peak_mib)
            self.add(stamp, "parsing", label, "file MB", f"{path.stat().st_size / 1e6:.0f}")
            self.add(stamp, "parsing", label, "read MB/s", best)
            self.add(stamp, "parsing", label, "peak MiB", f"{peak:.0f}")

    def http_logs(self) -> tuple[Path, Path, Path]:
        """HTTP traces made from the 1 M-request `gen http` CSV: an NCSA combined log and an
        nginx log in the capture's format (the requests four times over, time-shifted: about
        0.7 GB each), and a HAR of the requests once. Each line ends when its response does
        (time + latency), as servers write them, so the readers reorder as on real logs."""
        _, http = self.engine_traces()
        combined = LOCAL / "parse-http-4m.combined.log"
        nginx = LOCAL / "parse-http-4m.nginx.log"
        har = LOCAL / "parse-http-1m.har"
        if not (combined.exists() and nginx.exists() and har.exists()):
            child = multiprocessing.Process(target=write_http_logs, args=(http, combined, nginx, har))
            child.start()
            child.join()
            if child.exitcode != 0:
                sys.exit(f"benchmarks: writing the HTTP traces failed ({child.exitcode})")
        return combined, nginx, har

    def sampling(self, stamp: Stamp) -> None:
        trace = ROOT.parent / "shared" / "traces" / "scarab" / "scarab-recs.trace"
        if not trace.exists():
            self.add(stamp, "sampling", "(not measured)", "why", f"{trace} is missing")
            return
        sizes = "1000,2132,4544,9686,20648,44014,93823,200000"

        def sweep(output: Path, *extra: str) -> list[str]:
            return self.cl("sweep", "--trace", str(trace), "--policies", "lru,sieve,s3fifo,arc", "--ignore-size",
                           "--quiet", "--sizes", sizes, "--output", str(output), *extra)

        def ratios(path: Path) -> dict:
            return {(r["policy"], r["capacity_spec"]): float(r["miss_ratio"]) for r in report_rows(path)}

        exact_csv = self.scratch / "exact.csv"
        exact = min(timed(sweep(exact_csv)).seconds for _ in range(self.args.repeats))
        self.add(stamp, "sampling", "exact", "seconds", exact)
        for sample, floor in [("0.01", "0"), ("0.01", "32"), ("0.1", "32"), ("8192obj", "32"), ("2000obj", "32")]:
            out = self.scratch / "sampled.csv"
            took = min(timed(sweep(out, "--sample", sample, "--sample-floor", floor)).seconds
                       for _ in range(self.args.repeats))
            exact_ratios, sampled = ratios(exact_csv), ratios(out)
            errors = [abs(exact_ratios[k] - sampled[k]) for k in exact_ratios]
            label = f"`--sample {sample} --sample-floor {floor}`"
            self.add(stamp, "sampling", label, "seconds", took)
            self.add(stamp, "sampling", label, "speed-up", f"{exact / took:.1f}×")
            self.add(stamp, "sampling", label, "mean abs. miss-ratio error", f"{statistics.mean(errors):.4f}")
            self.add(stamp, "sampling", label, "largest error", f"{max(errors):.4f}")

    def sweep(self, stamp: Stamp) -> None:
        trace = self.zipf_trace()
        cachesim = self.args.peer_cachesim

        def best(sizes: str, *extra: str, repeats: int | None = None) -> tuple[Measured, Path]:
            out = self.scratch / f"sweep-{sizes.replace(':', '_')}{'-'.join(extra)}.csv"
            # Not --quiet: the header's `method:` line says how the curve was made.
            runs = [timed(self.cl("sweep", "--trace", str(trace), "--policies", "lru", "--sizes", sizes, *extra,
                                  "--output", str(out))) for _ in range(repeats or self.args.repeats)]
            return min(runs, key=lambda r: r.seconds), out

        for count in (20, 100, 1000):
            sizes = f"log:0.001:0.52:{count}"
            label = f"`lru` at {count} sizes (0.1 %–52 % of the working set), one command"
            run, out = best(sizes)
            method = next((line.strip() for line in run.stdout.splitlines() if line.strip().startswith("method:")), "")
            self.add(stamp, "sweep", label, "seconds", run.seconds)
            self.add(stamp, "sweep", label, "peak MiB", run.peak_mib)
            self.add(stamp, "sweep", label, "method", "stack pass" if "stack-distance" in method else "simulated")
            if count == 20:
                simulated, simulated_out = best(sizes, "--method", "simulate", repeats=1)
                self.add(stamp, "sweep", label, "`--method simulate` seconds", simulated.seconds)
                self.add(stamp, "sweep", label, "`--method simulate` peak MiB", simulated.peak_mib)
                same = [strip_timing(r) for r in report_rows(out)] == [strip_timing(r) for r in report_rows(simulated_out)]
                self.add(stamp, "sweep", label, "rows equal simulation's", "yes" if same else "NO")
            if cachesim and count <= 100:
                rows = report_rows(out)
                peer = self.cachesim_run(cachesim, trace, [int(r["capacity"]) for r in rows])
                self.add(stamp, "sweep", label, "cachesim seconds (2 threads)", peer["seconds"])
                self.add(stamp, "sweep", label, "cachesim peak MiB", peer["peak_mib"])
                self.add(stamp, "sweep", label, "× cachesim", f"{peer['seconds'] / run.seconds:.1f}×")
                ours = [f"{float(r['miss_ratio']):.4f}" for r in rows]
                differing = sum(1 for a, b in zip(ours, peer["miss_ratios"]) if a != b)
                self.add(stamp, "sweep", label, "miss ratios differing from cachesim's (4 decimals)",
                         f"{differing} of {len(ours)}")
            if self.peer_python and count == 20:
                counterpart = self.counterparts().get("lru")
                total = 0.0
                for row in report_rows(out):
                    total += self.peer_run(counterpart, trace, int(row["capacity"]))["seconds"]
                self.add(stamp, "sweep", label, "libcachesim package seconds (one cache after another)", total)

    def cachesim_run(self, cachesim: str, trace: Path, capacities: list[int]) -> dict:
        """libCacheSim's `cachesim` at `capacities` (absolute bytes, so it makes no working-set
        pass) on 2 threads, in a scratch folder (it writes result/ there): wall time, peak
        memory and its miss ratios in the order given."""
        folder = Path(tempfile.mkdtemp(prefix="cachesim-", dir=self.scratch))
        took = timed([cachesim, str(trace), "oracleGeneral", "lru", ",".join(map(str, capacities)),
                      "--num-thread", "2"], cwd=folder)
        ratios = [line.split("miss ratio ")[1].split(",")[0] for line in took.stdout.splitlines()
                  if "cache size" in line and "byte miss ratio" in line]
        if len(ratios) != len(capacities):
            sys.exit(f"benchmarks: cachesim printed {len(ratios)} results for {len(capacities)} sizes:\n{took.stdout[-2000:]}")
        return {"seconds": took.seconds, "peak_mib": took.peak_mib, "miss_ratios": ratios}

    # -- the libcachesim package ------------------------------------------------------------

    def calibration(self, stamp: Stamp) -> None:
        folder = Path(tempfile.mkdtemp(prefix="cachelab-calibrate-"))
        try:
            profile = folder / "disk.toml"
            measure(self.cl("calibrate", "--disk-backend", f"file:{folder / 'store'}", "--repeat", "5",
                            "--output", str(profile), "--chart", str(DOCS / "latency-calibration.svg")))
            import tomllib  # Python 3.11+, needed only to measure this section

            fits = tomllib.loads(profile.read_text())["calibration"]
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        for operation, fit in fits.items():
            unit = "objects/s" if operation == "scan" else "MB/s"
            scale = 1 if operation == "scan" else 1e6
            self.add(stamp, "calibration", operation, "points", fit["points"])
            self.add(stamp, "calibration", operation, "fixed µs", f"{fit['fixed_us']:.1f}")
            interval = fit.get("fixed_us_ci95")
            self.add(stamp, "calibration", operation, "fixed 95 %",
                     f"{interval[0]:.1f}…{interval[1]:.1f}" if interval else "")
            rate = fit.get("per_second")
            self.add(stamp, "calibration", operation, "bandwidth",
                     f"{rate / scale:.4g} {unit}" if rate else "none measurable")
            interval = fit.get("per_second_ci95")
            self.add(stamp, "calibration", operation, "bandwidth 95 %",
                     f"{interval[0] / scale:.4g}…{interval[1] / scale:.4g}" if interval else "")
            self.add(stamp, "calibration", operation, "R²", f"{fit['r_squared']:.3f}" if "r_squared" in fit else "")
            spread = fit.get("spread_p90_over_median")
            self.add(stamp, "calibration", operation, "spread", f"{spread:.2f}" if spread else "")

    def latency_model(self, stamp: Stamp) -> None:
        figures: dict = {}
        for _ in range(self.args.repeats):
            folder = Path(tempfile.mkdtemp(prefix="cachelab-latency-"))
            try:
                profile = folder / "disk.toml"
                measure(self.cl("calibrate", "--disk-backend", f"file:{folder / 'calibration'}", "--sizes",
                                "1KiB..1MiB", "--repeat", "3", "--output", str(profile)))
                for preset in LATENCY_PRESETS:
                    common = ["run", "--trace", str(LATENCY_TRACE), "--preset", preset, "--quiet"]
                    measure(self.cl(*common, "--disk-backend", f"file:{folder / 'stores'}", "--fresh",
                                    "--output", str(folder / "measured.csv")))
                    measure(self.cl(*common, "--latency-profile", str(profile),
                                    "--output", str(folder / "modelled.csv")))
                    measured = report_row(folder / "measured.csv")
                    modelled = report_row(folder / "modelled.csv")
                    entry = figures.setdefault(preset, {"hits": measured["disk_hits"]})
                    for column in ["disk_hit_latency_p50", "disk_hit_latency_p90"]:
                        if not measured[column] or not modelled[column]:
                            sys.exit(f"benchmarks: {preset} had no disk hits on {LATENCY_TRACE.name}")
                        entry.setdefault(column, []).append((float(measured[column]), float(modelled[column])))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        for preset, entry in figures.items():
            self.add(stamp, "latency-model", preset, "disk hits", entry["hits"])
            for column, label in [("disk_hit_latency_p50", "p50"), ("disk_hit_latency_p90", "p90")]:
                pairs = entry[column]
                real = statistics.median(m for m, _ in pairs)
                model = statistics.median(m for _, m in pairs)
                self.add(stamp, "latency-model", preset, f"{label} measured µs", f"{real:.0f}")
                self.add(stamp, "latency-model", preset, f"{label} modelled µs", f"{model:.0f}")
                self.add(stamp, "latency-model", preset, f"{label} modelled − measured",
                         f"{(model - real) / real * 100:+.0f} %" if real > 0 else "")
                self.add(stamp, "latency-model", preset, f"{label} each round (measured/modelled)",
                         ", ".join(f"{m:.0f}/{d:.0f}" for m, d in pairs))

    def counterparts(self) -> dict:
        """Policy name -> its first libCacheSim counterpart that is compared by default."""
        catalogue = json.loads(measure(self.cl("policies", "--json")).stdout)
        result = {}
        for policy in catalogue:
            for counterpart in policy["libcachesim"].get("counterparts", []):
                if not counterpart["randomised"]:
                    result.setdefault(policy["name"], counterpart)
        return result

    def peer_run(self, counterpart: dict, trace: Path, capacity: int) -> dict:
        """The package's C loop (c_process_trace, reading included) on `trace` at `capacity`."""
        script = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import peer_diff
counterpart, trace, capacity = json.loads(sys.argv[2]), sys.argv[3], int(sys.argv[4])
native = peer_diff._package()
import libcachesim as lcs
reader = peer_diff.new_reader({"type": "oracle", "path": trace}, False)
params = lcs.CommonCacheParams(capacity, hashpower=24)
if counterpart["resets_generator"]:
    peer_diff.set_rand_seed(peer_diff.LIBCACHESIM_RAND_STATE)
cache = getattr(native, counterpart["constructor"])(params, counterpart["peer_parameters"])
started = time.perf_counter()
miss_ratio, _ = native.c_process_trace(cache, reader)
print(json.dumps({"seconds": time.perf_counter() - started, "hit_ratio": 1 - miss_ratio}))
"""
        took = timed([self.peer_python, "-c", script, str(ROOT / "Scripts"), json.dumps(counterpart), str(trace),
                      str(capacity)])
        result = json.loads(took.stdout)
        result["rps"] = self.args.requests / result["seconds"]
        return result


# ------------------------------------------------------------------------------------------
# The page
# ------------------------------------------------------------------------------------------

INTRO = """# Benchmarks

Generated by `bash Scripts/benchmarks.sh` (see `Scripts/benchmarks.py` for what each section
runs); the raw figures are in [benchmarks.csv](benchmarks.csv). Every section says when, on
what machine and at which commit it was measured; a run refreshes only the sections it
measures (`--sections`). Speeds are the best of the repeats (`--repeats`, default 3) of a
release build, one thread per cache; a shared or loaded machine measures less. "Replay" is the
report's `requests_per_second` (policy and engine time, reading excluded); "whole process"
divides the requests by the wall time of the whole command (start-up, the working-set
pre-pass, reading and replay); "peak MiB" is the process's peak resident memory.
"""

NOTES = {
    "build": "A fresh `git clone` of the repository, dependencies already installed (`Scripts/ensure-deps.sh`), "
    "Swift packages resolved from the package mirror: the wall time of `bash Scripts/demo.sh` until its table is printed.",
    "test-suite": "The README's second command in a fresh clone (after the demo when both sections run): "
    "formatting lint, debug build of every test, the tests, the DocC catalogs and the library example.",
    "policies": "Each policy alone (`cachelab run --policies NAME --sizes BYTES --serial`, whole process) on a Zipf(1.0) "
    "trace over 1 M objects with lognormal sizes (64 B–1 MiB); the cache is 10 % of the working-set bytes, found once "
    "and given in bytes, so no run makes a working-set pass. With `--peer-python`, the libcachesim package's C loop "
    "(`c_process_trace`, trace reading included, interpreter start-up not) runs the policy's first libCacheSim "
    "counterpart (`cachelab policies --json`) on the same file and capacity. With `--peer-cachesim`, libCacheSim's "
    "`cachesim` runs that counterpart where it has a name for it (whole process, one thread, best of the repeats of "
    "a run under a minute); "
    "its printed miss ratio must equal ours to 4 decimals, else the speed is not compared. A randomised policy is the "
    "exception: `cachesim` seeds its generator from the clock (`libCacheSim/bin/cachesim/sim.c` L22–23), so the same configuration "
    "draws other samples; its speed is compared when the miss ratio is within 5 % of ours, and the cell says so.",
    "engine": "LRU through the plain policy loop and through the two-tier engine (memory only), and every preset "
    "on a `gen http` trace read from its CSV. With `--peer-cachesim`, the `sdwebimage` preset's whole run beside "
    "libCacheSim's `cachesim` with a plain LRU on the same CSV (as large as all its bytes, so it never evicts), the "
    "two alternating, best of the repeats each (and the ratio of the medians); then the same pairs again while one "
    "spinning process per core (`python3 -c 'while 1: pass'`) keeps every core busy, as on a loaded CI machine.",
    "parsing": "Read throughput of the trace readers: the file's size over the whole command's time less the replay "
    "time its report records, for a 10 M-request trace in four encodings and for HTTP traffic (the 1 M-request "
    "`gen http` trace written four times over as an NCSA combined log and as an nginx log in the capture's format, "
    "once as a HAR), through a one-object FIFO, so replay is a small part of the whole; peak memory is the whole "
    "process's. HTTP logs (access, Squid, W3C) parse their lines on a second thread, a few blocks ahead of the "
    "thread that maps them to requests in order, and the CacheLab CSV is read on a second thread ahead of replay: "
    "there reading and replay overlap, so the figure is what reading costs a whole run (start-up included), not a "
    "parser's speed alone.",
    "sampling": "`cachelab sweep` of lru, sieve, s3fifo and arc at 8 sizes on the scarab trace (object mode), exact "
    "and spatially sampled: time, speed-up and the miss-ratio error against the exact sweep.",
    "calibration": "`cachelab calibrate --disk-backend file:DIR --repeat 5` (sizes 1 KiB–16 MiB) in a folder of the "
    "system's temporary directory, release build: each operation's fitted `fixed + bytes / bandwidth` with 95 % "
    "intervals and its spread (each timed operation's time over its size's median, then the p90 of those ratios "
    "over their median), from the profile it writes; the chart of every timed point is "
    "[latency-calibration.svg](latency-calibration.svg). What each operation times: [latency.md](latency.md).",
    "latency-model": "On `Traces/http-demo.cachelab.csv`, each preset replayed alone with `--disk-backend file:DIR "
    "--fresh` (disk hits timed on real files), then simulated with `--latency-profile` of a `cachelab calibrate "
    "--sizes 1KiB..1MiB` (the trace's object sizes) run just before, release build; `--repeats` rounds (default 3) of "
    "calibration and replays: the disk hits' p50 and p90 as measured and as modelled (medians over the rounds), the "
    "modelled figure's difference from the measured one, and every round's pair.",
    "sweep": "`cachelab sweep` of LRU at 20, 100 and 1000 log-spaced sizes on the policies' trace (after the working-set "
    "pre-pass, one LRU stack-distance pass serves every size; see [sweep](commands/sweep.md)), and at 20 sizes with "
    "`--method simulate` (one cache per size, all in one pass over the trace, on every core), whose rows must be equal. "
    "With `--peer-cachesim`, libCacheSim's `cachesim` at the same absolute capacities with `--num-thread 2` (whole "
    "process, reading included) and its miss ratios (printed to 4 decimals) against ours; with `--peer-python`, the "
    "package's C loop for the 20 capacities, one after another.",
}


def render_section(section: str, rows: list[dict], heading: str = "##") -> str:
    """One section's heading, note, stamp and table (items × metrics)."""
    section_rows = [r for r in rows if r["section"] == section]
    text = f"\n{heading} {TITLES[section]}\n\n"
    if not section_rows:
        return text + f"Not measured yet: `bash Scripts/benchmarks.sh --sections {section}`.\n"
    text += NOTES[section] + "\n\n"
    items, metrics = [], []
    for row in section_rows:
        if row["item"] not in items:
            items.append(row["item"])
        if row["metric"] not in metrics:
            metrics.append(row["metric"])
    # Items measured again alone (`--policies`) carry their own stamp: the page gives the one
    # most items share, and each other item's in a last column.
    stamps = {r["item"]: stamp_of(r) for r in section_rows}
    main = Counter(stamps.values()).most_common(1)[0][0]
    text += f"Measured {main[0]} at commit `{main[1]}` on {main[2]}; {main[3]}.\n\n"
    others = {item: stamp for item, stamp in stamps.items() if stamp != main}
    if others:
        text += ("Rows with an entry under \"measured again\" were measured alone later (`--policies`), "
                 "as it says; every other row as above.\n\n")
    values = {(r["item"], r["metric"]): r["value"] for r in section_rows}
    text += "| | " + " | ".join(metrics) + (" | measured again |" if others else " |") + "\n"
    text += "|---|" + "---|" * (len(metrics) + (1 if others else 0)) + "\n"
    for item in items:
        text += f"| {item} | " + " | ".join(values.get((item, m), "") for m in metrics)
        if others:
            text += " | " + (describe_stamp(others[item], main) if item in others else "")
        text += " |\n"
    return text


def cachesim_cell(ratio: float, ours: float, theirs: str, randomised: bool) -> str:
    """The "× cachesim" cell: the speed ratio where cachesim's printed miss ratio equals ours to
    4 decimals (the check that both ran the same policy); for a randomised policy, which cachesim
    seeds from the clock, where it lies within 5 % of ours, saying so; else why not."""
    if theirs == f"{ours:.4f}":
        return f"{ratio:.1f}×"
    if randomised and ours > 0 and abs(float(theirs) - ours) <= 0.05 * ours:
        return f"{ratio:.1f}× (clock-seeded: miss ratio {theirs})"
    return f"not compared: miss ratio {theirs}"


def stamp_of(row: dict) -> tuple:
    """The date, commit, machine and tools a row was measured with."""
    return (row["date"], row["commit"], row["machine"], row["tools"])


def describe_stamp(stamp: tuple, main: tuple) -> str:
    """`stamp` in words, naming its machine and tools only where they differ from `main`'s."""
    text = f"{stamp[0]} at `{stamp[1]}`"
    if stamp[2] != main[2]:
        text += f" on {stamp[2]}"
    if stamp[3] != main[3]:
        text += f"; {stamp[3]}"
    return text


def merged(previous: list[dict], rows: list[dict], section: str, items: set[str] | None) -> list[dict]:
    """`previous` with `section`'s rows replaced by `rows`: all of them, or only `items`' rows
    (where each stood; new items after the section's others)."""
    if items is None:
        kept = [r for r in previous if r["section"] != section] + rows
        kept.sort(key=lambda r: SECTIONS.index(r["section"]))
        return kept
    result, placed = [], set()
    for row in previous:
        if row["section"] == section and row["item"] in items:
            if row["item"] not in placed:
                result += [r for r in rows if r["item"] == row["item"]]
                placed.add(row["item"])
            continue
        result.append(row)
    rest = [r for r in rows if r["item"] not in placed]
    last = max((i for i, r in enumerate(result) if r["section"] == section), default=None)
    if last is None:
        result += rest
        result.sort(key=lambda r: SECTIONS.index(r["section"]))
    else:
        result[last + 1:last + 1] = rest
    return result


def render(rows: list[dict]) -> str:
    return INTRO + "".join(render_section(section, rows) for section in SECTIONS)


# Pages that show some sections too, between `<!-- measured: ... -->` and `<!-- end measured -->`.
EMBEDS = {DOCS / "latency.md": ["calibration", "latency-model"]}
EMBED_START = "<!-- measured: bash Scripts/benchmarks.sh --sections {} -->"
EMBED_END = "<!-- end measured -->"


def embedded(path: Path, rows: list[dict]) -> str | None:
    """`path`'s text with its measured block re-rendered from `rows` (None: it has no block)."""
    sections = EMBEDS[path]
    start = EMBED_START.format(",".join(sections))
    text = path.read_text() if path.exists() else ""
    if start not in text or EMBED_END not in text:
        return None
    head, rest = text.split(start, 1)
    _, tail = rest.split(EMBED_END, 1)
    body = "".join(render_section(section, rows, "###") for section in sections)
    return head + start + "\n" + body + "\n" + EMBED_END + tail


def write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def save(rows: list[dict]) -> None:
    """Writes benchmarks.csv and benchmarks.md, each atomically."""
    DOCS.mkdir(exist_ok=True)
    temporary = CSV_PATH.with_name(CSV_PATH.name + ".tmp")
    with open(temporary, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(temporary, CSV_PATH)
    write_atomically(MD_PATH, render(rows))
    for path in EMBEDS:
        text = embedded(path, rows)
        if text is not None:
            write_atomically(path, text)


def write_http_logs(http: Path, combined: Path, nginx: Path, har: Path) -> None:
    """Writes the parsing section's HTTP traces from the `gen http` CSV (see Bench.http_logs).
    Runs in a child process: the rows it holds must not count in the readers' peak memory
    (a forked child starts with its parent's peak)."""
    with open(http) as source:
        rows = [row for row in csv.DictReader(source) if row.get("op", "get") in ("get", "")]
    span = max(float(row["time"]) for row in rows) + 1
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    def http_date(seconds: float) -> str:
        return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(seconds))

    with open(str(combined) + ".tmp", "w") as clf, open(str(nginx) + ".tmp", "w") as ngx:
        for copy in range(4):
            for number, row in enumerate(rows):
                latency = float(row.get("latency") or 0.05)
                end = 1_700_000_000 + copy * span + float(row["time"]) + latency
                url = row["key"]
                host_end = url.index("/", url.index("//") + 2)
                host, path = url[url.index("//") + 2:host_end], url[host_end:]
                stamp = time.gmtime(end)
                clf.write(f'10.0.{number % 250}.{copy} - - [{stamp.tm_mday:02d}/{months[stamp.tm_mon - 1]}/'
                          f'{stamp.tm_year}:{stamp.tm_hour:02d}:{stamp.tm_min:02d}:{stamp.tm_sec:02d} +0000] '
                          f'"GET {path} HTTP/1.1" 200 {row["size"]} "https://{host}/" '
                          f'"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"\n')
                etag = (row.get("etag") or "-").replace('"', "\\x22")
                modified = http_date(1_700_000_000 + float(row["last_modified"])) if row.get("last_modified") else "-"
                kind = "image/jpeg" if row.get("class") == "image" else "application/json"
                ngx.write(f'{end:.3f} https {host} "GET {path} HTTP/1.1" 200 {row["size"]} {latency:.3f} '
                          f'"{row.get("cache_control") or "-"}" "{etag}" "{modified}" "{kind}" MISS {latency:.3f}\n')
    os.replace(str(combined) + ".tmp", combined)
    os.replace(str(nginx) + ".tmp", nginx)
    with open(str(har) + ".tmp", "w") as out:
        out.write('{"log": {"version": "1.2", "creator": {"name": "CacheLab benchmarks", "version": "1"}, '
                  '"pages": [], "entries": [\n')
        for number, row in enumerate(rows):
            started = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1_700_000_000 + float(row["time"])))
            latency = float(row.get("latency") or 0.05) * 1000
            headers = [("Cache-Control", row.get("cache_control")), ("ETag", row.get("etag")),
                       ("Content-Type", "image/jpeg" if row.get("class") == "image" else "application/json")]
            entry = {
                "startedDateTime": started + f".{int(float(row['time']) * 1000) % 1000:03d}Z", "time": latency,
                "request": {"method": "GET", "url": row["key"], "httpVersion": "HTTP/1.1", "headers": [],
                            "cookies": [], "queryString": [], "headersSize": -1, "bodySize": 0},
                "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                             "headers": [{"name": n, "value": v} for n, v in headers if v],
                             "content": {"size": int(row["size"]), "mimeType": headers[2][1]},
                             "redirectURL": "", "headersSize": -1, "bodySize": int(row["size"])},
                "cache": {}, "timings": {"send": 0, "wait": latency * 0.8, "receive": latency * 0.2},
            }
            out.write(("," if number else "") + json.dumps(entry) + "\n")
        out.write("]}}\n")
    os.replace(str(har) + ".tmp", har)

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--sections", default=",".join(DEFAULT_SECTIONS),
                        help="comma-separated sections to measure (default: all but test-suite)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per measurement; the best is kept (default 3)")
    parser.add_argument("--requests", type=int, default=10_000_000,
                        help="requests in the policies' Zipf trace (default 10 M; generated once into Traces/local)")
    parser.add_argument("--policies", help="only these policies in the policies section (comma-separated); their "
                        "rows replace their old ones, the others stay, and the page stamps them apart (give the "
                        "section's --requests)")
    parser.add_argument("--peer-cachesim", help="libCacheSim's cachesim binary: the policies, engine and sweep sections run it "
                        "beside CacheLab "
                        "(CACHESIM_BUILD names its build in the stamp, e.g. \"libCacheSim aa0fc40, CMake Release\")")
    parser.add_argument("--peer-python", help="a Python with libcachesim 0.3.5 installed (e.g. .venv-peer/bin/python)")
    parser.add_argument("--render-only", action="store_true", help="rewrite benchmarks.md from benchmarks.csv")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless benchmarks.md is what benchmarks.csv renders to (no figure typed by hand)")
    args = parser.parse_args()
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown or args.repeats < 1 or args.requests < 1000:
        parser.print_usage(sys.stderr)
        print(f"benchmarks: unknown section(s) {', '.join(unknown)}; known: {', '.join(SECTIONS)}" if unknown
              else "benchmarks: --repeats ≥ 1 and --requests ≥ 1000", file=sys.stderr)
        return 64
    previous = []
    if CSV_PATH.exists():
        with open(CSV_PATH, newline="") as f:
            previous = list(csv.DictReader(f))
    if args.check:
        current = MD_PATH.read_text() if MD_PATH.exists() else ""
        stale = [MD_PATH] if current != render(previous) else []
        for path in EMBEDS:
            text = embedded(path, previous)
            if text is None or text != path.read_text():
                stale.append(path)
        for path in stale:
            print(f"benchmarks: {path.relative_to(ROOT)} differs from what {CSV_PATH.relative_to(ROOT)} renders to; "
                  "run `python3 Scripts/benchmarks.py --render-only` or measure again", file=sys.stderr)
        return 1 if stale else 0
    if not args.render_only:
        bench = Bench(args)
        try:
            tools = swift_version()
            if args.peer_python:
                version = run_text([args.peer_python, "-c",
                                    "import importlib.metadata as m; print(m.version('libcachesim'))"])
                if not version:
                    print(f"benchmarks: {args.peer_python} has no libcachesim package", file=sys.stderr)
                    return 64
                tools += f", libcachesim {version}"
            if args.peer_cachesim:
                tools += f", libCacheSim cachesim ({os.environ.get('CACHESIM_BUILD', 'built from source')})"
            for section in SECTIONS:
                if section not in sections:
                    continue
                print(f"benchmarks: measuring {section}", file=sys.stderr)
                bench.rows = []
                getattr(bench, section.replace("-", "_"))(Stamp(tools))
                # Each finished section is kept at once: a later failure loses only its own.
                # A `--policies` run replaces only those policies' rows.
                items = ({f"`{n}`" for n in args.policies.split(",") if n}
                         if section == "policies" and args.policies else None)
                previous = merged(previous, bench.rows, section, items)
                save(previous)
        finally:
            shutil.rmtree(bench.scratch, ignore_errors=True)
    save(previous)
    print(f"benchmarks: wrote {MD_PATH.relative_to(ROOT)} and {CSV_PATH.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
