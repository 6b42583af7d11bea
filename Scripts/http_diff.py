#!/usr/bin/env python3
"""Differential harness: seeded small HTTP workloads through the real nginx 1.22.1, Squid 5.7
and Varnish 7.1.1 (Debian packages) on loopback; each server's own log says, request by
request, whether it served from its cache; each (workload, server) becomes a CacheLab trace
(`cachelab` CSV with an `observed` column) that CacheLab replays through its presets
`nginx`, `squid` and `varnish` (`cachelab run --disagreements`) to compare request by request.

Usage: http_diff.py [--servers nginx,squid,varnish] [--workloads N] [--seed S] [--out DIR]
                    [--cachelab PATH] [--families LIST] [--per-second K] [--sequential] [--together]
                    [--varnish-keep S] [--squid-memory-policy P]
(`bash Scripts/http-diff.sh ...` runs it.) python3 standard library only.

Families (N workloads each, default 20; seeded by (seed, family, index), so a workload does not
depend on N or on which families run; a workload's URLs draw their kind (Cache-Control, status,
validators, Vary, Set-Cookie, Authorization, size) from a shuffled deck before repeating one, so
even --workloads 1 meets every kind of its family): fresh, expiry, nostore, revalidate, vary, cookie, auth,
status, expires, heuristic, large (10-40 requests over 2-6 URLs, short whole-second TTLs,
validators, version changes), scarce (360-420 requests 30-60 ms apart, 60 % of them to URLs
requested once: nginx with a 32k keys zone, 191 keys, and proxy_cache_min_uses 2, so keys are
forced out and counted; Squid and Varnish as usual; compared request by request), keys (nginx's
keys zone, 32k, 64k or 128k by turns, filled past its capacity with distinct URLs and read back in
reverse: the second pass hits exactly as many URLs as the zone holds) and pressure (40 URLs of 64-200 KiB, max-age=60, 60-90 requests
0.25-0.5 s apart, under a small cache: nginx max_size=1m, Squid cache_mem 2 MB, Varnish
-s malloc,4m; its agreement is reported on its own line: Squid's purge walk evicts
asynchronously, so request-by-request agreement is not expected there; nginx's cache manager
is modelled, its phase measured here: the moment the manager process appears, as
manager-phase).

Timing scheme (keeps every freshness boundary away from request times under each server's clock):
- Requests go out in whole-second "slots": the first request of slot g at base+g+0.30 s, the
  others of that slot right after it (sequentially, one keep-alive connection); a request sent
  later than .75 into its second is counted as late (a warning). At most one request per URL per
  slot, so two requests to a URL are d >= 1 whole slots apart and their real distance is
  d +- 0.45 s.
- TTLs are whole seconds. For a response with max-age/s-maxage N stored at slot s, nginx
  (integer clock, fresh while store_second+N >= now_second) serves it fresh at d <= N, Squid
  (fresh while Date+N > now) at d <= N-1, Varnish (exact: t_origin+N > t) at d <= N-1 and
  ambiguously at d = N. So no request to a URL is placed d = N (nor d = N+10, the end of
  Varnish's 10 s grace) slots after ANY earlier request to that URL (each may have (re)stored
  it: a miss, a 304 refresh, a grace background fetch). With Expires = Date+E (no max-age)
  every server is exact in whole seconds (Varnish: ttl = Expires-now, expiry at the second's
  start), so d = E is allowed: nginx fresh, Squid and Varnish stale.
- Squid's Last-Modified heuristic (fresh while age < 20 % of Date-Last-Modified) gets the same
  treatment: no request within (H-1.5, H+0.5) slots of a store whose heuristic lifetime is H.
- Workloads of one family run interleaved on one server instance (distinct URL prefixes
  /<workload>/..., caches far larger than the family's objects, so they cannot interact),
  packed so that at most --per-second requests share a slot; a fresh server (new cache, log)
  per family; a fresh one per scarce, keys and pressure workload. The servers run in parallel threads (one
  client connection each; --sequential runs them one after another).

Origin: a local ThreadingHTTPServer; each request carries `X-Row: run.workload.row` (all
three servers forward it, Varnish's background fetch included) and is answered from that row:
Date (now), Cache-Control, Expires (Date+E), Last-Modified (per version), ETag ("v<version>"),
Set-Cookie, Vary, Location (3xx), Content-Length; 304 when If-None-Match matches the current
ETag, else when If-Modified-Since >= the current Last-Modified (only for the validators the row
has). Its log (DIR/logs/SERVER/FAMILY.origin.csv) is the ground truth for debugging.

Outcomes: nginx $upstream_cache_status (HIT STALE UPDATING REVALIDATED hit; MISS EXPIRED
BYPASS miss); Squid %Ss (as CacheLab's SquidParser.outcome); Varnish %{Varnish:hitmiss}x via
varnishncsa. Log lines are matched to the requests in order, URL by URL (a mismatch or a missing
line stops the run).

Output in DIR (default Traces/local/http-diff): traces/SERVER/WORKLOAD.cachelab.csv,
logs/SERVER/... (server logs, origin logs), details.csv (every request with the server's raw
status and the origin's answers), workloads.csv (the generated rows), timings.csv,
summary.csv (per server x family: observed hits/misses, compared, agreements, disagreements,
and the 304s the origin sent beside the preset's: revalidations are origin traffic, which the
hit/miss verdicts do not show), disagreements.csv (workload, server, time, key, observed,
simulated) and compare/SERVER/WORKLOAD.{disagreements,report}.csv (cachelab's own files). The
comparison runs `cachelab run --trace T --format cachelab --preset SPEC --disagreements D
--output R` with the presets' parameters set to the servers' configuration; --cachelab PATH (default .build/debug/cachelab,
else .build/release/cachelab); a cachelab without --disagreements skips the comparison.

Exit status 0 when it ran (1: a server is missing or failed, a log did not match; 2: cachelab
failed on a trace). Needs nginx (Debian: nginx-light), squid (squid), varnishd and
varnishncsa (varnish); `bash Scripts/ensure-capture-tools.sh` installs them."""
import argparse
import collections
import concurrent.futures
import csv
import email.utils
import glob
import http.client
import http.server
import math
import os
import pwd
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.dont_write_bytecode = True  # no Scripts/__pycache__ from the import below
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capture_http  # noqa: E402  (the capture script's process helpers)

FAMILIES = ['fresh', 'expiry', 'nostore', 'revalidate', 'vary', 'cookie', 'auth', 'status', 'expires',
            'heuristic', 'large', 'scarce', 'keys', 'pressure']
SERVERS = ['nginx', 'squid', 'varnish']
PACKAGES = {'nginx': 'nginx-light', 'squid': 'squid', 'varnish': 'varnish'}
HEADER = ['time', 'key', 'size', 'op', 'status', 'cache_control', 'expires', 'date', 'last_modified', 'etag',
          'vary', 'authorization', 'set_cookie', 'version', 'observed']
HOST = 'cachelab.test'
GRACE = 10              # Varnish default_grace (s)
SLOT_START = 0.30       # first request of a slot at .30 into its second
SLOT_LATE = 0.75        # a request sent later than this into its slot's second is late
AUTHORIZATION = 'Basic Y2FjaGVsYWI6c2VjcmV0'
LOG_WAIT = 30.0         # seconds to wait for a server's log to hold every line

# Server configurations (the presets get the same values).
NORMAL = {'nginx': {'max_size': None, 'inactive': '10m', 'keys_zone': '10m'},
          'squid': {'cache_mem': '256 MB', 'max_in_memory': '512 KB'},
          'varnish': {'malloc': '256m'}}
PRESSURE = {'nginx': {'max_size': '1m', 'inactive': '10m', 'keys_zone': '10m'},
            'squid': {'cache_mem': '2 MB', 'max_in_memory': '512 KB'},
            'varnish': {'malloc': '4m'}}
# scarce: nginx's keys zone at its measured 191 keys (32k) and proxy_cache_min_uses 2; Squid and
# Varnish have no such settings and run as usual.
SCARCE = {'nginx': {'max_size': None, 'inactive': '10m', 'keys_zone': '32k', 'min_uses': 2},
          'squid': dict(NORMAL['squid']), 'varnish': dict(NORMAL['varnish'])}
# keys: nginx's keys zone filled past its capacity and read back; the workload sets the size.
KEYS = {'nginx': {'max_size': None, 'inactive': '10m', 'keys_zone': '32k'},
        'squid': dict(NORMAL['squid']), 'varnish': dict(NORMAL['varnish'])}
KEYS_ZONES = [('32k', 300), ('64k', 600), ('128k', 1200)]   # size, keys (15 % past nginx's "8,000 per MiB")
# The families that get a fresh server per workload, with their own configuration.
ISOLATED = {'pressure': PRESSURE, 'scarce': SCARCE, 'keys': KEYS}


def config_for(server, workload):
    """SERVER's configuration for WORKLOAD: its family's, with the workload's own settings."""
    return dict(ISOLATED.get(workload.family, NORMAL)[server], **workload.overrides.get(server, {}))
NGINX_MANAGER_PERIOD = 10.0   # s: ngx_http_file_cache_expire's longest wait


def preset(server, config, phase=None):
    """The CacheLab --preset value for a server configured with CONFIG; PHASE (s) is when nginx's
    cache manager next ran after the trace's first request."""
    if server == 'nginx':
        size = config['max_size']
        return (f"nginx:max-size={byte_spec(size) if size else '0'},inactive={config['inactive']},"
                f"keys-zone={byte_spec(config['keys_zone'])},min-uses={config.get('min_uses', 1)}" +
                (f",manager-phase={round(phase * 1000)}ms" if phase is not None else ''))
    if server == 'squid':
        return (f"squid:cache-mem={byte_spec(config['cache_mem'])},"
                f"maximum-object-size-in-memory={byte_spec(config['max_in_memory'])},"
                f"memory-replacement-policy={config.get('policy', 'lru').lower().replace(' ', '-')}")
    # The servers run with lru_interval=0 and shortlived=0, which the preset models (its
    # not-modelled list names the defaults' effects).
    keep = config.get('keep', 0)
    return f"varnish:malloc={byte_spec(config['malloc'])},default-ttl=120s,grace={GRACE}s" + \
        (f",keep={keep}s" if keep else '')


def byte_spec(text):
    """'1m', '2 MB', '512 KB' (nginx, Squid and Varnish all mean powers of 1024) -> '1MiB'."""
    match = re.fullmatch(r'(\d+)\s*([kKmMgG])[bB]?', text.strip())
    return f'{match.group(1)}{match.group(2).upper()}iB'


class HarnessError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Workloads


class Spec:
    """The origin's response for a URL at some moment."""
    __slots__ = ('status', 'cc', 'expires', 'lm', 'etag', 'cookie', 'vary', 'size', 'version')

    def __init__(self, status=200, cc=None, expires=None, lm=None, etag=False, cookie=False, vary='', size=1000,
                 version=1):
        self.status, self.cc, self.expires, self.lm, self.etag = status, cc, expires, lm, etag
        self.cookie, self.vary, self.size, self.version = cookie, vary, size, version

    def explicit_ttl(self):
        """s-maxage, else max-age, in seconds (None without either)."""
        for name in ('s-maxage', 'max-age'):
            match = re.search(r'(?:^|[,\s])' + name + r'=(\d+)', self.cc or '')
            if match:
                return int(match.group(1))
        return None


class Request:
    __slots__ = ('index', 'second', 'at', 'path', 'auth', 'spec')

    def __init__(self, index, second, at, path, auth, spec):
        self.index, self.second, self.at, self.path, self.auth, self.spec = index, second, at, path, auth, spec


class Workload:
    def __init__(self, name, family, requests, paced, overrides=None):
        self.name, self.family, self.requests, self.paced = name, family, requests, paced
        self.overrides = overrides or {}   # server -> settings that replace the family's for this workload

    def span(self):
        return max(r.second for r in self.requests) + 1 if not self.paced else math.ceil(self.requests[-1].at) + 1


class URLPlan:
    """A URL's versions: (first slot, Spec), and who sends Authorization (never/always/mixed)."""

    def __init__(self, name, versions, auth='never'):
        self.name, self.versions, self.auth = name, versions, auth

    def spec_at(self, second):
        spec = self.versions[0][1]
        for start, candidate in self.versions:
            if start <= second:
                spec = candidate
        return spec


class Deck:
    """Draws that cover every option before repeating: each key's options in a shuffled order
    (one deck per workload), then at random; so even a small workload meets each kind."""

    def __init__(self, rng):
        self.rng, self.decks = rng, {}

    def pick(self, key, options):
        if key not in self.decks:
            deck = list(options)
            self.rng.shuffle(deck)
            self.decks[key] = deck
        deck = self.decks[key]
        return deck.pop() if deck else self.rng.choice(options)


def validators(rng, deck):
    kind = deck.pick('validators', ['none', 'etag', 'lm', 'both'])
    return kind in ('lm', 'both'), kind in ('etag', 'both')


def chain(rng, horizon, changes, make, first_lm=None):
    """Versions of a URL: MAKE(version) gives the Spec fields (with has_lm); a new version
    starts at `changes` random slots in [2, horizon]; Last-Modified grows with each version
    and is at most its first slot - 1 (relative to the workload's slot 0)."""
    starts = [0] + sorted(rng.sample(range(2, max(horizon, changes + 2) + 1), changes))
    lm = -rng.choice(range(20, 305, 5)) if first_lm is None else first_lm
    versions = []
    for version, start in enumerate(starts, 1):
        if version > 1:
            lm = max(lm + 1, start - rng.choice((1, 3, 5)))
        fields = make(version)
        has_lm = fields.pop('has_lm')
        versions.append((start, Spec(lm=lm if has_lm else None, version=version, **fields)))
    return versions


def small_size(rng):
    return rng.randint(500, 20000)


NOSTORE = {'no-store': ['no-store', 'no-store, max-age=60'],
           'private': ['private', 'private, max-age=60', 'max-age=60, private'],
           'no-cache': ['no-cache', 'no-cache, max-age=60', 'max-age=60, no-cache', 'public, no-cache'],
           'control': ['max-age=5', 'max-age=3']}


def url_plan(rng, deck, family, name, horizon):
    """One URL of a workload of FAMILY."""
    auth = 'never'
    size = small_size(rng)
    has_lm, etag = validators(rng, deck)

    def fixed(**fields):
        def make(version):
            result = dict(has_lm=has_lm, etag=etag, size=size if version == 1 or rng.random() < 0.5
                          else small_size(rng))
            result.update(fields)
            return result
        return make

    if family == 'fresh':
        cc = deck.pick('cc', ['max-age=30', 'max-age=60', 'max-age=120', 'public, max-age=60', 'max-age=20',
                              's-maxage=60'])
        return URLPlan(name, chain(rng, horizon, 0, fixed(cc=cc)))
    if family == 'expiry':
        cc = f'max-age={rng.randint(1, 6)}'
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 0, 1, 2]), fixed(cc=cc)))
    if family == 'nostore':
        cc = rng.choice(NOSTORE[deck.pick('kind', list(NOSTORE))])
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 0, 1]), fixed(cc=cc)))
    if family == 'revalidate':
        has_lm, etag = deck.pick('revalidators', [(False, True), (True, False), (True, True)])
        cc = deck.pick('cc', ['max-age=1', 'max-age=2', 'max-age=3', 'max-age=0', 'no-cache',
                              'max-age=0, must-revalidate', 'no-cache, max-age=30', 'max-age=2, must-revalidate'])
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 1, 1, 2]), fixed(cc=cc, has_lm=has_lm, etag=etag)))
    if family == 'vary':
        cc = rng.choice(['max-age=60', 'max-age=3', 'max-age=5'])
        vary = deck.pick('vary', ['Accept-Encoding', 'Accept-Encoding', '*'])
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 0, 1]), fixed(cc=cc, vary=vary)))
    if family == 'cookie':
        cc = rng.choice(['max-age=60', 'max-age=3', 'max-age=5', 'public, max-age=60'])
        base = deck.pick('cookie', [True, True, False])

        def make(version):
            fields = fixed(cc=cc)(version)
            fields['cookie'] = base if version == 1 else rng.random() < 0.6
            return fields
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 0, 1]), make))
    if family == 'auth':
        auth = deck.pick('auth', ['always', 'never', 'mixed'])
        cc = deck.pick('cc', ['max-age=60', 'max-age=4', 'public, max-age=60', 's-maxage=60', 'max-age=5, s-maxage=60',
                              'private, max-age=60', 'must-revalidate, max-age=60', 'no-cache', 'public, max-age=3'])
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 0, 1]), fixed(cc=cc)), auth)
    if family == 'status':
        def status_fields(status):
            if status == 200:
                return dict(status=200, cc=rng.choice(['max-age=60', 'max-age=2', 'max-age=5']), has_lm=has_lm,
                            etag=etag, size=size)
            cc = rng.choice([None, None, 'max-age=60', 'max-age=3', 'max-age=5'])
            expires = None
            if cc is None and status in (301, 302) and rng.random() < 0.5:
                expires = rng.choice([3, 5, 30])
            return dict(status=status, cc=cc, expires=expires, has_lm=False, etag=False, size=rng.randint(100, 2000))
        sequence = deck.pick('statuses', [[404], [301], [302], [410], [500], [200, 500], [200, 404, 200],
                                          [200, 500, 200], [404, 200]])
        fields = [status_fields(status) for status in sequence]
        return URLPlan(name, chain(rng, horizon, len(sequence) - 1, lambda version: dict(fields[version - 1])))
    if family == 'expires':
        expires = rng.choice([1, 2, 3, 4, 5, 6, 30])
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 0, 1]), fixed(expires=expires)))
    if family == 'heuristic':
        if deck.pick('heuristic', [True, True, True, False]) is False:   # neither validator nor freshness
            return URLPlan(name, chain(rng, horizon, 0, fixed(has_lm=False, etag=False)))
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 1, 1, 2]), fixed(has_lm=True, etag=False),
                                   first_lm=-5 * rng.randint(1, 12)))
    if family == 'large':
        size = deck.pick('size', [614400, 102400])
        cc = rng.choice(['max-age=60', 'max-age=3', 'max-age=5'])

        def make(version):
            return dict(has_lm=has_lm, etag=etag, size=size, cc=cc)
        return URLPlan(name, chain(rng, horizon, rng.choice([0, 0, 1]), make))
    raise ValueError(family)


def forbidden(history, second):
    """Whether a request at SECOND would sit on a freshness boundary of any earlier request to
    the URL (HISTORY: (slot, spec)) under some server's clock (see the module docstring)."""
    for earlier, spec in history:
        d = second - earlier
        ttl = spec.explicit_ttl()
        if ttl is not None:
            if d == ttl or (ttl > 0 and d == ttl + GRACE):
                return True
        elif spec.expires is None and spec.lm is not None:
            lifetime = 0.2 * (earlier - spec.lm)
            if lifetime - 1.5 < d < lifetime + 0.5:
                return True
    return False


def place(rng, plans, count):
    """COUNT requests over PLANS in slots: at most 3 per slot, one per URL per slot, none on a
    freshness boundary."""
    slot = 0
    per_slot = collections.Counter()
    history = {plan.name: [] for plan in plans}
    placed = []
    for number in range(count):
        if number:
            slot += rng.choice((0, 1, 1, 1, 2))
        plan = rng.choice(plans)
        past = history[plan.name]
        second = max(slot, past[-1][0] + 1 if past else 0)
        while per_slot[second] >= 3 or forbidden(past, second):
            second += 1
        spec = plan.spec_at(second)
        past.append((second, spec))
        per_slot[second] += 1
        auth = plan.auth == 'always' or (plan.auth == 'mixed' and rng.random() < 0.5)
        placed.append((second, number, plan.name, auth, spec))
    placed.sort(key=lambda item: (item[0], item[1]))
    return [Request(index, second, second + SLOT_START, path, auth, spec)
            for index, (second, _, path, auth, spec) in enumerate(placed)]


def make_workload(seed, family, index):
    rng = random.Random(f'{seed}:{family}:{index}')
    name = f'{family}-{index:02d}'
    if family == 'pressure':
        sizes = [rng.randint(64 * 1024, 200 * 1024) for _ in range(40)]
        weights = [1 / (rank + 1) ** 0.8 for rank in range(40)]
        order = list(range(40))
        rng.shuffle(order)
        requests = []
        at = 0.0
        for number in range(rng.randint(60, 90)):
            url = order[rng.choices(range(40), weights)[0]]
            requests.append(Request(number, None, at, f'u{url}', False,
                                    Spec(cc='max-age=60', size=sizes[url])))
            at += rng.uniform(0.25, 0.5)
        return Workload(name, family, requests, paced=True)
    if family == 'scarce':
        return scarce_workload(rng, name, family)
    if family == 'keys':
        return keys_workload(rng, name, family, index)
    large = family == 'large'
    urls = rng.randint(2, 4) if large else rng.randint(2, 6)
    count = rng.randint(10, 20) if large else rng.randint(10, 40)
    horizon = max(4, int(count / 1.3))
    deck = Deck(rng)
    plans = [url_plan(rng, deck, family, f'u{number}', horizon) for number in range(urls)]
    return Workload(name, family, place(rng, plans, count), paced=False)


def scarce_workload(rng, name, family):
    """360-420 requests 30-60 ms apart: 40 % to 80 URLs (Zipf 0.7), the others each to a URL of its
    own, max-age=600, 1-16 KiB: about 300 keys, well past the scarce nginx's 191, so nginx forces
    keys out (the less popular URLs' among them), sets its watermark and trims at its manager's
    runs, and min_uses=2 stores only URLs seen twice while their key lives."""
    sizes = [rng.randint(1024, 16 * 1024) for _ in range(80)]
    weights = [1 / (rank + 1) ** 0.7 for rank in range(80)]
    requests = []
    at = 0.0
    for number in range(rng.randint(360, 420)):
        if rng.random() < 0.6:
            path, size = f'o{number}', rng.randint(1024, 16 * 1024)
        else:
            url = rng.choices(range(80), weights)[0]
            path, size = f'u{url}', sizes[url]
        requests.append(Request(number, None, at, path, False, Spec(cc='max-age=600', size=size)))
        at += rng.uniform(0.03, 0.06)
    return Workload(name, family, requests, paced=True)


def keys_workload(rng, name, family, index):
    """nginx's keys zone (32k, 64k, 128k by turns) filled with more distinct URLs than it holds, in
    a seeded order, then every URL again in reverse, 2 ms apart (as fast as the server answers):
    nginx forced the oldest keys out, so the second pass hits exactly as many URLs as the zone
    holds, then misses; Squid and Varnish (large caches) hit every one."""
    zone, count = KEYS_ZONES[index % len(KEYS_ZONES)]
    order = list(range(count))
    rng.shuffle(order)
    paths = [f'k{key}' for key in order + order[::-1]]
    requests = [Request(number, None, number * 0.002, path, False, Spec(cc='max-age=600', size=1000))
                for number, path in enumerate(paths)]
    return Workload(name, family, requests, paced=True, overrides={'nginx': {'keys_zone': zone}})


def pack(workloads, per_second):
    """Start offsets (whole seconds) so that at most PER_SECOND requests share a second."""
    load = collections.Counter()
    offsets = []
    for workload in workloads:
        counts = collections.Counter(r.second for r in workload.requests)
        offset = 0
        while any(load[offset + second] + n > per_second for second, n in counts.items()):
            offset += 1
        for second, n in counts.items():
            load[offset + second] += n
        offsets.append(offset)
    return offsets


# ---------------------------------------------------------------------------------------------
# Origin


class Run:
    """One server's run of some workloads: what the origin needs to answer their rows."""

    def __init__(self, run_id, server, workloads, offsets, base):
        self.run_id, self.server, self.workloads, self.offsets, self.base = run_id, server, workloads, offsets, base
        self.log = []   # (time, workload, row, inm, ims, status, authorization seen)


class Origin:
    def __init__(self):
        self.runs = {}
        self.seen = collections.Counter()
        self.condition = threading.Condition()
        self.bodies = {}
        self.strays = []
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'
            disable_nagle_algorithm = True   # headers and body in two writes: no 40 ms Nagle/delayed-ACK stall

            def do_GET(self):
                origin.answer(self)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def body(self, size):
        if size not in self.bodies:
            self.bodies[size] = b'x' * size
        return self.bodies[size]

    def answer(self, handler):
        now = time.time()
        key = handler.headers.get('X-Row')
        parts = (key or '').split('.')
        run = self.runs.get(parts[0]) if len(parts) == 3 else None
        if run is None:
            # a readiness probe (or a request without its row: recorded as a stray)
            if not handler.path.startswith('/__probe'):
                self.strays.append((now, handler.path, key))
            handler.send_response(200)
            handler.send_header('Date', email.utils.formatdate(now, usegmt=True))
            handler.send_header('Cache-Control', 'no-store')
            handler.send_header('Content-Length', '5')
            handler.end_headers()
            handler.wfile.write(b'probe')
            return
        number, row = int(parts[1]), int(parts[2])
        workload, offset = run.workloads[number], run.offsets[number]
        spec = workload.requests[row].spec
        date = int(now)
        modified = run.base + offset + spec.lm if spec.lm is not None else None
        etag = f'"v{spec.version}"' if spec.etag else None
        inm = handler.headers.get('If-None-Match')
        ims = handler.headers.get('If-Modified-Since')
        status = spec.status
        if status == 200:
            if inm is not None and etag is not None:
                tags = [tag.strip().removeprefix('W/') for tag in inm.split(',')]
                if etag in tags or '*' in tags:
                    status = 304
            elif ims is not None and modified is not None:
                try:
                    since = email.utils.parsedate_to_datetime(ims).timestamp()
                except (TypeError, ValueError):
                    since = None
                if since is not None and since >= modified:
                    status = 304
        handler.send_response(status)
        handler.send_header('Date', email.utils.formatdate(now, usegmt=True))
        if spec.cc is not None:
            handler.send_header('Cache-Control', spec.cc)
        if spec.expires is not None:
            handler.send_header('Expires', email.utils.formatdate(date + spec.expires, usegmt=True))
        if modified is not None:
            handler.send_header('Last-Modified', email.utils.formatdate(modified, usegmt=True))
        if etag is not None:
            handler.send_header('ETag', etag)
        if spec.vary:
            handler.send_header('Vary', spec.vary)
        if spec.cookie and status != 304:
            handler.send_header('Set-Cookie', f'sid={workload.name}-{row}; Path=/')
        if spec.status in (301, 302, 307, 308):
            handler.send_header('Location', f'/{workload.name}/elsewhere')
        handler.send_header('Content-Type', 'application/octet-stream')
        # a 304's Content-Length is the 200's (RFC 9110 §8.6): Squid updates its entry with it
        handler.send_header('Content-Length', str(spec.size))
        handler.end_headers()
        if status != 304:
            handler.wfile.write(self.body(spec.size))
        handler.wfile.flush()
        with self.condition:
            run.log.append((now, workload.name, row, inm or '', ims or '', status,
                            'Authorization' in handler.headers))
            self.seen[key] += 1
            self.condition.notify_all()

    def count(self, key):
        with self.condition:
            return self.seen[key]

    def wait_seen(self, key, count, timeout):
        deadline = time.time() + timeout
        with self.condition:
            while self.seen[key] < count:
                left = deadline - time.time()
                if left <= 0:
                    return False
                self.condition.wait(left)
        return True

    def shutdown(self):
        self.server.shutdown()


# ---------------------------------------------------------------------------------------------
# Servers


free_port = capture_http.free_port


def tail(paths, limit=800):
    return capture_http.tail(paths, limit)


def wait_for_port(process, port, name, logs):
    """Returns when PROCESS listens on PORT; HarnessError with its LOGS' end otherwise."""
    problem = capture_http.listening(process, port)
    if problem == 'exited':
        raise HarnessError(f'{name} did not start (exit {process.returncode}): ' + tail(logs))
    if problem:
        raise HarnessError(f'{name} did not listen within 60 s: ' + tail(logs))


def cache_manager_start(master, timeout=60):
    """When nginx's cache manager process (a child of MASTER) appeared: it runs its first pass at
    once and then every 10 s (ngx_process_cycle.c:59-60, 1128), so this fixes the preset's
    manager-phase. Polled every millisecond; None when it did not appear within TIMEOUT s."""
    deadline = time.time() + timeout
    while time.time() < deadline and master.poll() is None:
        for entry in os.listdir('/proc'):
            if not entry.isdigit():
                continue
            try:
                with open(f'/proc/{entry}/stat') as handle:
                    parent = int(handle.read().rsplit(')', 1)[1].split()[1])
                if parent != master.pid:
                    continue
                with open(f'/proc/{entry}/cmdline', 'rb') as handle:
                    if b'cache manager' in handle.read():
                        return time.time()
            except (OSError, ValueError, IndexError):
                continue
        time.sleep(0.001)
    return None


def terminate(process):
    """capture_http.terminate (SIGTERM, up to 60 s, then SIGKILL) for a process still running."""
    return process.poll() is not None or capture_http.terminate(process)


def tool(name):
    return shutil.which(name) or shutil.which(name, path='/usr/sbin:/usr/local/sbin:/usr/bin')


def check_installed(server):
    needed = {'nginx': ['nginx'], 'squid': ['squid'], 'varnish': ['varnishd', 'varnishncsa']}[server]
    for name in needed:
        if tool(name) is None:
            raise HarnessError(f'{server}: {name} is not installed (Debian: apt-get install {PACKAGES[server]}; '
                               f'or bash Scripts/ensure-capture-tools.sh)')


def version(server):
    command = {'nginx': [tool('nginx'), '-v'], 'squid': [tool('squid'), '-v'],
               'varnish': [tool('varnishd'), '-V']}[server]
    done = subprocess.run(command, capture_output=True, text=True)
    text = (done.stdout + done.stderr).strip().splitlines()
    return text[0] if text else '?'


class Server:
    """A running server: port, its log path and how to stop it."""

    def __init__(self, name, home, config, origin_port):
        self.name, self.home, self.config, self.origin_port = name, home, config, origin_port
        self.processes = []
        self.port = free_port()
        self.log = os.path.join(home, 'access.log')
        os.makedirs(home, mode=0o711)
        try:
            getattr(self, 'start_' + name)()
        except BaseException:
            self.stop()
            raise

    # nginx: research-33 §5.1
    def start_nginx(self):
        home = self.home
        user = 'user root;\n' if os.geteuid() == 0 else ''
        size = f" max_size={self.config['max_size']}" if self.config['max_size'] else ''
        config = os.path.join(home, 'nginx.conf')
        with open(config, 'w') as handle:
            handle.write(f'''daemon off;
master_process on;
{user}worker_processes 1;
error_log {home}/error.log info;
pid {home}/nginx.pid;
events {{ worker_connections 256; }}
http {{
  access_log off;
  log_format cachelab '$msec "$request_method $request_uri" $status cs=$upstream_cache_status '
                      'us=$upstream_status ut=$upstream_response_time bytes=$body_bytes_sent';
  client_body_temp_path {home}/body; proxy_temp_path {home}/ptemp; fastcgi_temp_path {home}/fastcgi;
  uwsgi_temp_path {home}/uwsgi; scgi_temp_path {home}/scgi;
  proxy_cache_path {home}/cache levels=1:2 keys_zone=cl:{self.config['keys_zone']} inactive={self.config['inactive']}{size} use_temp_path=off;
  proxy_cache_min_uses {self.config.get('min_uses', 1)};
  keepalive_requests 100000;
  server {{
    listen 127.0.0.1:{self.port};
    access_log {self.log} cachelab;
    location / {{
      proxy_pass http://127.0.0.1:{self.origin_port};
      proxy_cache cl;
      add_header X-Cache-Status $upstream_cache_status always;
    }}
  }}
}}
''')
        errors = os.path.join(home, 'nginx.stderr')
        with open(errors, 'w') as stderr:
            process = subprocess.Popen([tool('nginx'), '-c', config, '-p', home], stdout=subprocess.DEVNULL,
                                       stderr=stderr, start_new_session=True)
        self.processes.append(process)
        self.manager_started = cache_manager_start(process)
        wait_for_port(process, self.port, 'nginx', [errors, os.path.join(home, 'error.log')])
        if self.manager_started is None:
            raise HarnessError("nginx's cache manager process did not appear within 60 s, so the preset's "
                               f'manager-phase is unknown (log {home}/error.log)')

    # Squid: research-33 §5.2 (memory only), as nobody when run as root
    def start_squid(self):
        home = self.home
        user = ''
        if os.geteuid() == 0:
            # Squid refuses to run as root: it runs as nobody, which owns its folder (the
            # scratch folders above it are 0711)
            nobody = pwd.getpwnam('nobody')
            os.chown(home, nobody.pw_uid, nobody.pw_gid)
            user = 'cache_effective_user nobody\n'
        config = os.path.join(home, 'squid.conf')
        with open(config, 'w') as handle:
            handle.write(f'''{user}http_port 127.0.0.1:{self.port} accel defaultsite=127.0.0.1:{self.origin_port} no-vhost
cache_peer 127.0.0.1 parent {self.origin_port} 0 no-query no-digest no-netdb-exchange originserver name=origin
cache_peer_access origin allow all
never_direct allow all
http_access allow all
cache_mem {self.config['cache_mem']}
maximum_object_size_in_memory {self.config['max_in_memory']}
memory_replacement_policy {self.config.get('policy', 'lru')}
refresh_pattern ^ftp:           1440    20%     10080
refresh_pattern ^gopher:        1440    0%      1440
refresh_pattern -i (/cgi-bin/|\\?) 0     0%      0
refresh_pattern .               0       20%     4320
collapsed_forwarding off
workers 1
logformat cachelab %ts.%03tu "%rm %ru" %>Hs %Ss %Sh/%<a rt=%tr bytes=%<st
access_log stdio:{self.log} logformat=cachelab
logfile_rotate 0
{capture_http.squid_housekeeping(home, 'cachelab-http-diff')}''')
        self.service = f'cachelabdiff{os.getpid()}x{self.port}'
        errors = os.path.join(home, 'squid.stderr')
        with open(errors, 'w') as stderr:
            process = subprocess.Popen([tool('squid'), '-N', '-n', self.service, '-f', config],
                                       stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
        self.processes.append(process)
        wait_for_port(process, self.port, 'squid', [errors, os.path.join(home, 'cache.log')])

    # Varnish: research-33 §5.3, builtin VCL; vcl_deliver only marks grace hits for the client
    def start_varnish(self):
        home = self.home
        vcl = os.path.join(home, 'cachelab.vcl')
        with open(vcl, 'w') as handle:
            handle.write(f'''vcl 4.1;
backend origin {{ .host = "127.0.0.1"; .port = "{self.origin_port}"; }}
# Only marks a grace hit (a stale object delivered while a background fetch refreshes it),
# so that the client waits for that fetch; builtin.vcl decides everything else.
sub vcl_deliver {{
    if (obj.hits > 0 && obj.ttl < 0s) {{ set resp.http.X-CL-Grace = "1"; }}
}}
''')
        workdir = os.path.join(home, 'varnish')
        errors = os.path.join(home, 'varnishd.stderr')
        with open(errors, 'w') as stderr:
            process = subprocess.Popen(
                [tool('varnishd'), '-F', '-j', 'none', '-n', workdir, '-a', f'127.0.0.1:{self.port}', '-T', 'none',
                 '-f', vcl, '-s', f"malloc,{self.config['malloc']}", '-p', 'default_ttl=120',
                 '-p', f'default_grace={GRACE}', '-p', f"default_keep={self.config.get('keep', 0)}", '-p', 'lru_interval=0', '-p', 'shortlived=0',
                 # the client's one connection may idle longer than the default 5 s between slots
                 '-p', 'timeout_idle=3600'],
                stdout=stderr, stderr=stderr, start_new_session=True)
        self.processes.append(process)
        wait_for_port(process, self.port, 'varnishd', [errors])
        form = ('%{%s}t "%m %U%q" %s hm=%{Varnish:hitmiss}x h=%{Varnish:handling}x hitttl=%{VSL:Hit[2]}x '
                'hfm=%{VSL:HitMiss[1]}x hfp=%{VSL:HitPass[1]}x')
        ncsa_errors = os.path.join(home, 'varnishncsa.stderr')
        with open(ncsa_errors, 'w') as stderr:
            ncsa = subprocess.Popen([tool('varnishncsa'), '-n', workdir, '-c', '-w', self.log, '-F', form],
                                    stdout=stderr, stderr=stderr, start_new_session=True)
        self.processes.insert(0, ncsa)   # stopped first
        # varnishncsa logs only what happens after it attached: probe until a probe line shows
        deadline = time.time() + 60
        number = 0
        while True:
            if ncsa.poll() is not None:
                raise HarnessError('varnishncsa exited: ' + tail([ncsa_errors]))
            connection = http.client.HTTPConnection('127.0.0.1', self.port, timeout=10)
            connection.request('GET', f'/__probe/{number}', headers={'Host': HOST})
            connection.getresponse().read()
            connection.close()
            number += 1
            until = time.time() + 1
            while time.time() < until:
                if os.path.exists(self.log) and '/__probe/' in open(self.log, errors='replace').read():
                    return
                time.sleep(0.05)
            if time.time() > deadline:
                raise HarnessError('varnishncsa wrote no line within 60 s: ' + tail([ncsa_errors, errors]))

    def stop(self):
        for process in self.processes:
            terminate(process)
        if self.name == 'squid' and hasattr(self, 'service'):
            for segment in glob.glob(f'/dev/shm/{self.service}-*'):
                os.remove(segment)

    def keep(self, folder):
        """Copies the configuration, logs and stderr to FOLDER."""
        os.makedirs(folder, exist_ok=True)
        for name in sorted(os.listdir(self.home)):
            path = os.path.join(self.home, name)
            if os.path.isfile(path) and name.endswith(('.log', '.conf', '.vcl', '.stderr')):
                shutil.copyfile(path, os.path.join(folder, name))


NGINX_HIT = {'HIT', 'STALE', 'UPDATING', 'REVALIDATED'}
NGINX_MISS = {'MISS', 'EXPIRED', 'BYPASS'}
SQUID_HIT = {'TCP_HIT', 'TCP_MEM_HIT', 'TCP_IMS_HIT', 'TCP_INM_HIT', 'TCP_NEGATIVE_HIT', 'TCP_OFFLINE_HIT',
             'TCP_REFRESH_UNMODIFIED', 'TCP_REFRESH_FAIL_OLD', 'TCP_REFRESH_HIT', 'TCP_REF_FAIL_HIT', 'TCP_STALE_HIT'}
SQUID_MISS = {'TCP_MISS', 'TCP_REFRESH_MODIFIED', 'TCP_REFRESH', 'TCP_CLIENT_REFRESH_MISS', 'TCP_SWAPFAIL_MISS',
              'TCP_REFRESH_FAIL_ERR', 'TCP_REFRESH_MISS', 'TCP_IMS_MISS'}
LINE = re.compile(r'^(\S+) "(\S+) (\S+)" (\S+) (.*)$')


def outcome(server, rest):
    """(observed, raw) from the rest of a log line (after the status)."""
    if server == 'nginx':
        raw = re.search(r'cs=(\S*)', rest).group(1)
        if raw in NGINX_HIT:
            return 'hit', raw
        if raw in NGINX_MISS:
            return 'miss', raw
        return None, raw
    if server == 'squid':
        raw = rest.split()[0]
        tag = raw.upper()
        for suffix in ('_ABORTED', '_TIMEDOUT', '_IGNORED'):
            tag = tag.removesuffix(suffix)
        if tag.startswith('TCP_CF_'):
            tag = 'TCP_' + tag[len('TCP_CF_'):]
        if tag in SQUID_HIT:
            return 'hit', raw
        if tag in SQUID_MISS:
            return 'miss', raw
        return None, raw
    fields = {name: value for name, value in (part.split('=', 1) for part in rest.split() if '=' in part)
              if value != '-'}
    hm = fields.get('hm', '')
    raw = fields.get('h', '') + ('/grace' if re.fullmatch(r'-\d.*', fields.get('hitttl', '')) else '') + \
        ('/hfm' if fields.get('hfm') else '') + ('/hfp' if fields.get('hfp') else '')
    return (hm if hm in ('hit', 'miss') else None), raw


def read_log(server, path):
    """(path, observed, raw) for each workload line of a server's log (probes and Squid's
    connection-only lines skipped)."""
    lines = []
    if not os.path.exists(path):
        return lines
    with open(path, errors='replace') as handle:
        for text in handle:
            match = LINE.match(text.strip())
            if not match:
                continue
            url = match.group(3)
            if server == 'squid':
                if not url.startswith('http://'):
                    continue   # NONE_NONE error:transaction-end-before-headers (a port probe)
                url = '/' + url.split('/', 3)[3] if url.count('/') >= 3 else '/'
            if url.startswith('/__probe'):
                continue
            observed, raw = outcome(server, match.group(5))
            lines.append((url, observed, raw, text.strip()))
    return lines


# ---------------------------------------------------------------------------------------------
# Runs


class Sent:
    __slots__ = ('time', 'late', 'status', 'grace', 'header')

    def __init__(self):
        self.time, self.late, self.status, self.grace, self.header = None, False, None, False, ''


class Harness:
    def __init__(self, args, origin, scratch):
        self.args, self.origin, self.scratch = args, origin, scratch
        self.out = args.out
        self.lock = threading.Lock()
        self.results = []   # (server, workload, [(request, sent, observed, raw, origin answers, offset, base)])
        self.phases = {}    # (server, workload name) -> nginx's next cache manager run after its first request, s
        self.interrupted = threading.Event()
        self.timings = []
        self.warnings = []
        self.run_counter = 0

    def warn(self, text):
        with self.lock:
            self.warnings.append(text)
        print('warning: ' + text, file=sys.stderr, flush=True)

    def new_run_id(self):
        with self.lock:
            self.run_counter += 1
            return f'r{self.run_counter}'

    def run_server(self, server, plan):
        """Every family of PLAN ([(family, workloads)]) through SERVER: one server instance per
        family, or (--together) one for every family without capacity pressure."""
        ordinary = [(family, workloads) for family, workloads in plan if family not in ISOLATED]
        if self.args.together and ordinary:
            mixed = [workload for _, workloads in ordinary for workload in workloads]
            self.run_workloads(server, 'together', mixed, NORMAL[server], 'together')
        else:
            for family, workloads in ordinary:
                self.run_workloads(server, family, workloads, NORMAL[server], family)
        for family, workloads in plan:
            if family in ISOLATED:
                for workload in workloads:
                    self.run_workloads(server, family, [workload], config_for(server, workload), workload.name)

    def run_workloads(self, server, family, workloads, config, label):
        home = os.path.join(self.scratch, server, label)
        kept = os.path.join(self.out, 'logs', server, label)
        os.makedirs(os.path.dirname(home), mode=0o711, exist_ok=True)
        began = time.time()
        instance = Server(server, home, config, self.origin.port)
        started = time.time()
        paced = workloads[0].paced
        offsets = [0] * len(workloads) if paced else pack(workloads, self.args.per_second)
        base = math.floor(time.time()) + 2
        run = Run(self.new_run_id(), server, workloads, offsets, base)
        self.origin.runs[run.run_id] = run
        events = []
        for number, workload in enumerate(workloads):
            for request in workload.requests:
                events.append((offsets[number] + request.at, number, request))
        events.sort(key=lambda event: (event[0], event[1], event[2].index))
        sent = {}
        try:
            connection = http.client.HTTPConnection('127.0.0.1', instance.port, timeout=60)
            for at, number, request in events:
                workload = workloads[number]
                delay = base + at - time.time()
                if delay > 0:
                    self.interrupted.wait(delay)
                if self.interrupted.is_set():
                    raise HarnessError('interrupted')
                key = f'{run.run_id}.{number}.{request.index}'
                headers = {'Host': HOST, 'Accept-Encoding': 'gzip', 'X-Row': key}
                if request.auth:
                    headers['Authorization'] = AUTHORIZATION
                before = self.origin.count(key)
                record = Sent()
                record.time = time.time()
                if not paced:
                    second = base + offsets[number] + request.second
                    record.late = record.time - second > SLOT_LATE
                connection.request('GET', f'/{workload.name}/{request.path}', headers=headers)
                response = connection.getresponse()
                response.read()
                record.status = response.status
                record.header = response.getheader('X-Cache-Status') or response.getheader('X-Cache') or \
                    response.getheader('X-Varnish') or ''
                if response.getheader('X-CL-Grace'):
                    record.grace = True
                    if not self.origin.wait_seen(key, before + 1, 30):
                        self.warn(f'{server} {workload.name} row {request.index}: grace hit without a '
                                  f'background fetch at the origin within 30 s')
                sent[(number, request.index)] = record
            connection.close()
            finished = time.time()
            expected = [f'/{workloads[number].name}/{request.path}' for _, number, request in events]
            lines = self.wait_log(server, instance.log, len(expected))
        finally:
            instance.stop()
            instance.keep(kept)
            shutil.rmtree(home, ignore_errors=True)
            self.write_origin_log(os.path.join(kept, 'origin.csv'), run)
        stopped = time.time()
        lines = read_log(server, os.path.join(kept, 'access.log'))
        if len(lines) != len(expected):
            raise HarnessError(f'{server} {label}: {len(lines)} log lines for {len(expected)} requests '
                               f'(log {kept}/access.log)')
        by_row = {}
        for (at, number, request), url, line in zip(events, expected, lines):
            if line[0] != url:
                raise HarnessError(f'{server} {label}: log line {line[3]!r} does not match request {url}')
            if line[1] is None:
                raise HarnessError(f'{server} {label}: unknown cache status in {line[3]!r}')
            by_row[(number, request.index)] = line
        answers = collections.defaultdict(list)
        for entry in run.log:
            answers[(entry[1], entry[2])].append(entry)
        late = sum(1 for record in sent.values() if record.late)
        if late:
            self.warn(f'{server} {label}: {late} of {len(sent)} requests sent later than .{int(SLOT_LATE * 100)} '
                      f'into their second')
        with self.lock:
            for number, workload in enumerate(workloads):
                rows = []
                for request in workload.requests:
                    line = by_row[(number, request.index)]
                    rows.append((request, sent[(number, request.index)], line[1], line[2],
                                 answers.get((workload.name, request.index), []), offsets[number], base))
                self.results.append((server, workload, rows))
                manager = getattr(instance, 'manager_started', None)
                if manager is not None:
                    first = min(sent[(number, request.index)].time for request in workload.requests)
                    self.phases[(server, workload.name)] = (manager - first) % NGINX_MANAGER_PERIOD
            self.timings.append((server, family, label, len(workloads), len(events), round(started - began, 3),
                                 round(finished - started, 3), round(stopped - finished, 3), late))
        del self.origin.runs[run.run_id]
        print(f'{server:8} {label:14} {len(workloads):3} workloads {len(events):5} requests '
              f'start {started - began:5.2f} s  run {finished - started:6.1f} s  '
              f'log+stop {stopped - finished:4.2f} s', flush=True)

    def wait_log(self, server, path, count):
        deadline = time.time() + LOG_WAIT
        while True:
            lines = read_log(server, path)
            if len(lines) >= count or time.time() > deadline:
                return lines
            time.sleep(0.05)

    @staticmethod
    def write_origin_log(path, run):
        with open(path, 'w', newline='') as handle:
            writer = csv.writer(handle)
            writer.writerow(['time', 'workload', 'row', 'if_none_match', 'if_modified_since', 'status',
                             'authorization'])
            for entry in sorted(run.log):
                writer.writerow([f'{entry[0]:.6f}', *entry[1:6], '1' if entry[6] else ''])


def trace_rows(workload, rows):
    for request, sent, observed, raw, answers, offset, base in rows:
        spec = request.spec
        date = int(sent.time)
        yield [f'{sent.time:.6f}', f'http://{HOST}/{workload.name}/{request.path}', spec.size, 'get', spec.status,
               spec.cc or '', date + spec.expires if spec.expires is not None else '',
               date, base + offset + spec.lm if spec.lm is not None else '',
               f'"v{spec.version}"' if spec.etag else '', spec.vary, '1' if request.auth else '',
               '1' if spec.cookie else '', spec.version, observed]


def write_csv(path, header, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + '.tmp', 'w', newline='') as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    os.replace(path + '.tmp', path)


# ---------------------------------------------------------------------------------------------
# Comparison with CacheLab


def find_cachelab(path):
    if path:
        return path if os.path.exists(path) else None
    for candidate in ('.build/debug/cachelab', '.build/release/cachelab'):
        if os.path.exists(candidate):
            return candidate
    return None


class Comparison:
    def __init__(self, binary, out):
        self.binary, self.out = binary, out
        self.skipped = None
        self.lock = threading.Lock()
        self.notes = []

    def run(self, server, workload, trace, phase=None):
        """(compared, disagreements rows, the preset's 304s) for one trace, or None when skipped; raises
        on failure."""
        if self.skipped:
            return None
        config = config_for(server, workload)
        target = os.path.join(self.out, 'compare', server, workload.name + '.disagreements.csv')
        os.makedirs(os.path.dirname(target), exist_ok=True)
        counters = os.path.join(self.out, 'compare', server, workload.name + '.report.csv')
        command = [self.binary, 'run', '--trace', trace, '--format', 'cachelab', '--preset', preset(server, config, phase),
                   '--disagreements', target, '--output', counters]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode == 64 and 'unknown option' in done.stderr.lower():
            with self.lock:
                self.skipped = 'comparison skipped: cachelab has no --disagreements'
            return None
        if done.returncode != 0:
            raise HarnessError(f'cachelab failed on {trace} (exit {done.returncode}): ' +
                               ' '.join(command) + '\n' + done.stderr[-600:])
        with open(target, newline='') as handle:
            disagreements = list(csv.DictReader(handle))
        match = re.search(r'agrees on [\d.]+ % \((\d+) of (\d+) requests', done.stdout)
        compared = int(match.group(2)) if match else None
        with open(counters, newline='') as handle:
            revalidated = sum(int(row['revalidated_304']) for row in csv.DictReader(handle))
        return compared, disagreements, revalidated


# ---------------------------------------------------------------------------------------------
# Main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--servers', default=','.join(SERVERS))
    parser.add_argument('--workloads', type=int, default=20, help='workloads per family (default 20)')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--out', default='Traces/local/http-diff')
    parser.add_argument('--cachelab', default=None,
                        help='cachelab binary (default .build/debug/cachelab, else .build/release/cachelab)')
    parser.add_argument('--families', default=','.join(FAMILIES))
    parser.add_argument('--per-second', type=int, default=10,
                        help='at most this many requests of one server share a one-second slot (default 10)')
    parser.add_argument('--sequential', action='store_true', help='run the servers one after another')
    parser.add_argument('--varnish-keep', type=int, default=0, metavar='S',
                        help="Varnish's default_keep in seconds (default 0, as packaged); the preset's keep")
    parser.add_argument('--squid-memory-policy', default='lru', choices=['lru', 'heap LRU', 'heap GDSF', 'heap LFUDA'],
                        help="Squid's memory_replacement_policy (default lru, as packaged); the preset's")
    parser.add_argument('--together', action='store_true',
                        help='one server instance for every family without capacity pressure, their workloads '
                             'interleaved (distinct URLs: they cannot interact); faster for small runs')
    args = parser.parse_args()
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    servers = [name for name in args.servers.split(',') if name]
    families = [name for name in args.families.split(',') if name]
    for name in servers:
        if name not in SERVERS:
            sys.exit(f'http_diff.py: unknown server {name!r} (known: {", ".join(SERVERS)})')
    for name in families:
        if name not in FAMILIES:
            sys.exit(f'http_diff.py: unknown family {name!r} (known: {", ".join(FAMILIES)})')
    if args.workloads < 1:
        sys.exit('http_diff.py: --workloads must be at least 1')
    if args.varnish_keep < 0:
        sys.exit('http_diff.py: --varnish-keep must be at least 0')
    for config in (NORMAL, PRESSURE, SCARCE, KEYS):
        config['varnish']['keep'] = args.varnish_keep
        config['squid']['policy'] = args.squid_memory_policy
    try:
        for name in servers:
            check_installed(name)
    except HarnessError as error:
        sys.exit(f'http_diff.py: {error}')
    versions = {name: version(name) for name in servers}
    for name in servers:
        print(f'{name}: {versions[name]}', flush=True)
    for part in ('traces', 'logs', 'compare'):
        shutil.rmtree(os.path.join(args.out, part), ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    plan = [(family, [make_workload(args.seed, family, index) for index in range(args.workloads)])
            for family in families]
    write_csv(os.path.join(args.out, 'workloads.csv'),
              ['workload', 'row', 'second', 'at', 'path', 'authorization', 'status', 'cache_control', 'expires_after',
               'last_modified_rel', 'etag', 'set_cookie', 'vary', 'size', 'version'],
              [[w.name, r.index, '' if r.second is None else r.second, f'{r.at:.3f}', r.path, int(r.auth),
                r.spec.status, r.spec.cc or '', '' if r.spec.expires is None else r.spec.expires,
                '' if r.spec.lm is None else r.spec.lm, int(r.spec.etag), int(r.spec.cookie), r.spec.vary,
                r.spec.size, r.spec.version] for _, workloads in plan for w in workloads for r in w.requests])
    origin = Origin()
    scratch = tempfile.mkdtemp(prefix='cachelab-http-diff-')
    os.chmod(scratch, 0o711)
    harness = Harness(args, origin, scratch)
    failures = []
    began = harness.began = time.time()
    harness.stamp = stamp(began)   # the commit and tree the run started from

    def job(server):
        try:
            harness.run_server(server, plan)
        except HarnessError as error:
            failures.append(f'{server}: {error}')
        except Exception:
            failures.append(f'{server}: {traceback.format_exc()}')

    if args.sequential:
        for server in servers:
            job(server)
    else:
        threads = [threading.Thread(target=job, args=(server,)) for server in servers]
        for thread in threads:
            thread.start()
        try:
            for thread in threads:
                while thread.is_alive():
                    thread.join(0.5)
        except KeyboardInterrupt:
            # the servers run in their own sessions: let each thread stop its own
            harness.interrupted.set()
            for thread in threads:
                thread.join()
            shutil.rmtree(scratch, ignore_errors=True)
            sys.exit('http_diff.py: interrupted')
    origin.shutdown()
    shutil.rmtree(scratch, ignore_errors=True)
    if origin.strays:
        harness.warn(f'{len(origin.strays)} origin requests without a known X-Row, e.g. {origin.strays[0]}')
    if failures:
        for failure in failures:
            print('http_diff.py: ' + failure, file=sys.stderr)
        sys.exit(1)
    print(f'ran in {time.time() - began:.1f} s', flush=True)

    # traces, details
    traces = []
    details = []
    for server, workload, rows in sorted(harness.results, key=lambda item: (item[0], item[1].name)):
        path = os.path.join(args.out, 'traces', server, workload.name + '.cachelab.csv')
        write_csv(path, HEADER, trace_rows(workload, rows))
        traces.append((server, workload, path, rows))
        for request, sent, observed, raw, answers, offset, base in rows:
            details.append([server, workload.family, workload.name, request.index, f'{sent.time:.6f}',
                            f'/{workload.name}/{request.path}', int(request.auth), request.spec.status,
                            request.spec.cc or '', sent.status, raw, observed, int(sent.grace), int(sent.late),
                            len(answers), ' '.join(str(a[5]) + ('c' if a[3] or a[4] else '') for a in answers),
                            ' '.join('1' if a[6] else '0' for a in answers)])
    write_csv(os.path.join(args.out, 'details.csv'),
              ['server', 'family', 'workload', 'row', 'time', 'path', 'authorization', 'origin_status', 'cache_control',
               'client_status', 'server_status', 'observed', 'grace', 'late', 'origin_requests', 'origin_answers',
               'origin_saw_authorization'], details)
    write_csv(os.path.join(args.out, 'timings.csv'),
              ['server', 'family', 'run', 'workloads', 'requests', 'start_s', 'run_s', 'log_and_stop_s', 'late'],
              harness.timings)
    consistency(harness, details)

    # comparison
    binary = find_cachelab(args.cachelab)
    comparison = Comparison(binary, args.out) if binary else None
    compared = {}
    errors = []
    if comparison is None:
        print(f'comparison skipped: no cachelab binary ({args.cachelab or ".build/debug/cachelab"})')
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            futures = {pool.submit(comparison.run, server, workload, path, harness.phases.get((server, workload.name))):
                       (server, workload)
                       for server, workload, path, rows in traces}
            for future, (server, workload) in futures.items():
                try:
                    compared[(server, workload.name)] = future.result()
                except HarnessError as error:
                    errors.append(str(error))
        if comparison.skipped:
            print(comparison.skipped)
        for note in comparison.notes:
            print('note: ' + note)
    report(args, traces, compared, comparison, harness)
    if errors:
        for error in errors[:5]:
            print('http_diff.py: ' + error, file=sys.stderr)
        print(f'http_diff.py: cachelab failed on {len(errors)} traces', file=sys.stderr)
        sys.exit(2)


def consistency(harness, details):
    """Warns where the server's verdict and the origin's log disagree: a miss the origin never
    saw, or a hit the origin answered in full (other than a Varnish grace refresh)."""
    odd = collections.Counter()
    example = {}
    for row in details:
        server, observed, grace, answers = row[0], row[11], row[12], row[15].split()
        full = [a for a in answers if not a.startswith(('304', '5'))]   # Squid serves stale on a 5xx
        if observed == 'miss' and not answers:
            problem = 'miss without an origin request'
        elif observed == 'hit' and full and not grace:
            problem = 'hit with a full origin answer'
        else:
            continue
        odd[(server, problem)] += 1
        example.setdefault((server, problem), row)
    for (server, problem), count in sorted(odd.items()):
        harness.warn(f'{server}: {count} x {problem}, e.g. {example[(server, problem)][2:12]}')
    seen = collections.Counter()
    for row in details:
        if row[6]:
            for flag in row[16].split():
                seen[(row[0], flag)] += 1
    for server in sorted({row[0] for row in details}):
        total = seen[(server, '1')] + seen[(server, '0')]
        if total:
            print(f'{server}: origin got Authorization on {seen[(server, "1")]} of {total} forwarded requests '
                  f'that carried it')


def report(args, traces, compared, comparison, harness):
    families = [family for family in FAMILIES if any(w.family == family for _, w, _, _ in traces)]
    servers = [server for server in SERVERS if any(s == server for s, _, _, _ in traces)]
    cells = {}
    disagreements = []
    for server, workload, path, rows in traces:
        cell = cells.setdefault((server, workload.family), collections.Counter())
        cell['workloads'] += 1
        cell['requests'] += len(rows)
        cell['hits'] += sum(1 for row in rows if row[2] == 'hit')
        cell['misses'] += sum(1 for row in rows if row[2] == 'miss')
        result = compared.get((server, workload.name))
        if result is None:
            continue
        count, rows_disagreeing, revalidated = result
        # 304s the origin sent (foreground and background revalidations) and the preset's
        cell['origin_304'] += sum(1 for row in rows for answer in row[4] if answer[5] == 304)
        cell['preset_304'] += revalidated
        count = len(rows) if count is None else count
        cell['compared'] += count
        cell['disagreements'] += len(rows_disagreeing)
        # The engine's hits: the log's, less those it missed, plus those the log missed.
        cell['simulated_hits'] += (sum(1 for row in rows if row[2] == 'hit')
                                   - sum(1 for row in rows_disagreeing if row.get('observed') == 'hit')
                                   + sum(1 for row in rows_disagreeing if row.get('observed') == 'miss'))
        cell['with_comparison'] += 1
        # cachelab writes hashed keys: the URL back from the request's time
        urls = {f'{sent.time:.6f}': f'http://{HOST}/{workload.name}/{request.path}'
                for request, sent, *_ in rows}
        for row in rows_disagreeing:
            stamp = row.get('time', '')
            try:
                url = urls.get(f'{float(stamp):.6f}', row.get('key', ''))
            except ValueError:
                url = row.get('key', '')
            disagreements.append([workload.name, server, stamp, url, row.get('observed', ''),
                                  row.get('simulated', '')])
    summary = []
    print()
    print(f'{"server":8} {"family":11} {"workloads":>9} {"requests":>8} {"hits":>5} {"misses":>6} '
          f'{"compared":>8} {"agree":>6} {"disagree":>8} {"agree %":>8} {"log hit %":>9} {"sim hit %":>9} '
          f'{"orig 304":>8} {"sim 304":>8}')
    for group in ([f for f in families if f != 'pressure'], [f for f in families if f == 'pressure']):
        if not group:
            continue
        for server in servers:
            total = collections.Counter()
            for family in group:
                cell = cells.get((server, family))
                if cell is None:
                    continue
                total.update(cell)
                summary.append(line(server, family, cell))
                print(format_line(summary[-1]))
            if len(group) > 1:
                summary.append(line(server, 'all' if group[0] != 'pressure' else 'pressure', total))
                print(format_line(summary[-1]))
        print()
    write_csv(os.path.join(args.out, 'summary.csv'),
              ['server', 'family', 'workloads', 'requests', 'observed_hits', 'observed_misses', 'compared',
               'agreements', 'disagreements', 'agreement_pct', 'simulated_hits', 'observed_hit_pct',
               'simulated_hit_pct', 'origin_304', 'simulated_304'], summary)
    write_csv(os.path.join(args.out, 'disagreements.csv'),
              ['workload', 'server', 'time', 'key', 'observed', 'simulated'], disagreements)
    write_markdown(os.path.join(args.out, 'summary.md'), summary, harness.stamp)
    if harness.warnings:
        print(f'{len(harness.warnings)} warnings (above)')
    print(f'wrote {args.out}/traces/, summary.csv, disagreements.csv, details.csv, timings.csv, workloads.csv, logs/')


def stamp(began):
    """One line saying when (the run's start, epoch seconds BEGAN), from which commit, on which
    machine and against which packages."""
    def output(command):
        try:
            return subprocess.run(command, capture_output=True, text=True).stdout.strip()
        except OSError:
            return ''
    commit = output(['git', 'rev-parse', '--short', 'HEAD']) or 'unknown'
    if output(['git', 'status', '--porcelain', '--', 'Sources', 'Scripts/http_diff.py']):
        commit += ' (with uncommitted changes)'
    cpu = ''
    if os.path.exists('/proc/cpuinfo'):
        with open('/proc/cpuinfo') as handle:
            cpu = next((l.split(':', 1)[1].strip() for l in handle if l.startswith('model name')), '')
    packages = output(['dpkg-query', '-W', '-f', '${Package} ${Version}, ', 'nginx-common', 'squid', 'varnish'])
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(began))}, commit {commit}, "
            f"{os.cpu_count()} cores ({cpu or os.uname().machine}), {os.uname().sysname} {os.uname().release}; "
            f"packages: {packages.rstrip(', ') or 'unknown'}")


def write_markdown(path, summary, stamped):
    """summary.md: the agreement table the docs embed (docs/shared-caches.md), STAMPED as the run began."""
    lines = [f'Measured {stamped}, by `python3 Scripts/http_diff.py {" ".join(sys.argv[1:])}`.', '',
             '| server | family | workloads | requests compared | disagreements | agreement | '
             'log hit ratio | preset hit ratio | origin 304s | preset 304s |', '|---|---|---|---|---|---|---|---|---|---|']
    for row in summary:
        if row[6] == '':
            continue
        lines.append(f'| {row[0]} | {row[1]} | {row[2]} | {row[6]} | {row[8]} | {row[9]} % | {row[11]} % | '
                     f'{row[12]} % | {row[13]} | {row[14]} |')
    with open(path + '.tmp', 'w') as handle:
        handle.write('\n'.join(lines) + '\n')
    os.replace(path + '.tmp', path)


def line(server, family, cell):
    compared = cell['compared']
    if not cell['with_comparison']:
        return [server, family, cell['workloads'], cell['requests'], cell['hits'], cell['misses'], '', '', '', '',
                '', '', '', cell['origin_304'], '']
    agree = compared - cell['disagreements']
    stated = cell['hits'] + cell['misses']
    return [server, family, cell['workloads'], cell['requests'], cell['hits'], cell['misses'], compared, agree,
            cell['disagreements'], f'{100 * agree / compared:.2f}' if compared else '', cell['simulated_hits'],
            f'{100 * cell["hits"] / stated:.2f}' if stated else '',
            f'{100 * cell["simulated_hits"] / stated:.2f}' if stated else '', cell['origin_304'], cell['preset_304']]


def format_line(row):
    return (f'{row[0]:8} {row[1]:11} {row[2]:>9} {row[3]:>8} {row[4]:>5} {row[5]:>6} {row[6]:>8} {row[7]:>6} '
            f'{row[8]:>8} {row[9]:>8} {row[11]:>9} {row[12]:>9} {row[13]:>8} {row[14]:>8}')


if __name__ == '__main__':
    main()
