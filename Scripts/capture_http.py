#!/usr/bin/env python3
"""Makes a real HTTP capture on loopback: a `cachelab gen http` workload served by a local
origin (Python's http.server, with each request's Cache-Control, ETag and Last-Modified from
the workload), behind a real proxy, replayed by a keep-alive client; the proxy's own log is
the capture. Beside it, FILE.format holds the `--format` value CacheLab reads it with.

- nginx: a proxy_cache (reverse proxy); its access log, with $upstream_cache_status.
- squid: a Squid reverse proxy (`accel vhost`) with a memory cache; its native access.log
  (`logformat squid`) with `log_mime_hdrs on` (request and reply headers in brackets).
- mitmproxy: mitmdump in front of the origin (upstream mode: the client sends absolute URLs
  to it, as to any forward proxy); the HAR it writes on exit (`hardump`). No cache on the
  path: every request reaches the origin.

Usage: capture_http.py {nginx,squid,mitmproxy} --output FILE [--requests N] [--objects N]
                       [--seed S] [--time-scale K] [--size-scale K] [--pace SECONDS]
                       [--cachelab PATH] [--mitmdump PATH]

The workload's clock is compressed: requests are sent `--pace` seconds apart in trace order,
and every max-age / s-maxage is divided by `--time-scale` (at least 1 s), so that expiry and
revalidation happen within the capture. Every body is divided by `--size-scale` (at least
1 byte; mitmproxy's HAR holds each body as text). The origin answers a conditional request
with 304 when the workload's ETag for that request is unchanged. Needs nginx (Debian:
nginx-light), Squid (Debian: squid) or mitmproxy (pip: mitmproxy; `--mitmdump`, else
$MITMDUMP, else .venv-capture/bin/mitmdump, else mitmdump on the PATH)."""
import argparse
import csv
import glob
import http.client
import http.server
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from email.utils import formatdate

LOG_FORMAT = ('$msec $scheme $host "$request" $status $body_bytes_sent $request_time "$sent_http_cache_control" '
              '"$sent_http_etag" "$sent_http_last_modified" "$sent_http_content_type" $upstream_cache_status '
              '$upstream_response_time')
FORMATS = {'nginx': f"access-log:log-format='{LOG_FORMAT}'", 'squid': 'squid', 'mitmproxy': 'har'}


def write_format(capture, server):
    """Writes CAPTURE.format: the `--format` value that reads the capture."""
    with open(capture + '.format.tmp', 'w') as out:
        out.write(FORMATS[server] + '\n')
    os.replace(capture + '.format.tmp', capture + '.format')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('server', choices=['nginx', 'squid', 'mitmproxy'])
    parser.add_argument('--output', required=True)
    parser.add_argument('--requests', type=int, default=3000)
    parser.add_argument('--objects', type=int, default=150)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--time-scale', type=float, default=600.0)
    parser.add_argument('--size-scale', type=float, default=1.0)
    parser.add_argument('--pace', type=float, default=0.004)
    parser.add_argument('--cachelab', default=os.environ.get('CACHELAB', '.build/release/cachelab'))
    parser.add_argument('--mitmdump', default=os.environ.get('MITMDUMP'))
    args = parser.parse_args()
    # The servers are stopped with SIGTERM: a parent that blocked or ignored it (a test
    # runner may) would pass that on to them, and they would never stop.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    tool = find_tool(args)
    work = tempfile.mkdtemp(prefix='cachelab-capture-')
    try:
        rows = workload(args, work)
        origin, origin_port = start_origin(rows, args.time_scale, args.size_scale)
        start, stop = SERVERS[args.server]
        try:
            process, proxy_port, log = start(work, origin_port, tool)
            try:
                replay(rows, proxy_port, args.pace, absolute=args.server == 'mitmproxy')
            finally:
                stop(process)
        finally:
            origin.shutdown()
        tmp = args.output + '.tmp'
        shutil.copyfile(log, tmp)
        os.replace(tmp, args.output)
        write_format(args.output, args.server)
        if args.server == 'mitmproxy':
            with open(args.output) as handle:
                entries = len(json.load(handle)['log']['entries'])
            print(f'capture_http.py: {entries} entries of mitmproxy HAR in {args.output}')
        else:
            lines = sum(1 for _ in open(args.output))
            print(f'capture_http.py: {lines} lines of {args.server} access log in {args.output}')
    finally:
        shutil.rmtree(work, ignore_errors=True)


def find_tool(args):
    """The server's executable; exits with how to install it when it is missing."""
    if args.server == 'nginx':
        tool = shutil.which('nginx')
        hint = 'nginx is not installed (Debian: apt-get install nginx-light)'
    elif args.server == 'squid':
        tool = shutil.which('squid') or shutil.which('squid', path='/usr/sbin:/usr/local/sbin')
        hint = 'squid is not installed (Debian: apt-get install squid)'
    else:
        venv = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '.venv-capture', 'bin', 'mitmdump')
        tool = args.mitmdump or shutil.which(venv) or shutil.which('mitmdump')
        hint = ('mitmproxy is not installed (python3 -m venv .venv-capture && '
                '.venv-capture/bin/pip install mitmproxy, or --mitmdump PATH)')
        if tool is not None and shutil.which(tool) is None:
            tool = None
    if tool is None:
        sys.exit('capture_http.py: ' + hint)
    return tool


def workload(args, work):
    """The get rows of a seeded `cachelab gen http` workload, without origin failures."""
    path = os.path.join(work, 'workload.cachelab.csv')
    subprocess.run([args.cachelab, 'gen', 'http', '--requests', str(args.requests), '--objects', str(args.objects),
                    '--seed', str(args.seed), '--failure-rate', '0', '--quiet', '--output', path], check=True)
    rows = []
    with open(path, newline='') as handle:
        for row in csv.DictReader(handle):
            if row['op'] == 'get' and row['key']:
                rows.append(row)
    return rows


def scaled(cache_control, scale):
    def shorten(match):
        return f'{match.group(1)}={max(1, round(int(match.group(2)) / scale))}'
    return re.sub(r'(max-age|s-maxage|stale-while-revalidate|stale-if-error)=(\d+)', shorten, cache_control)


def start_origin(rows, scale, size_scale):
    # Last-Modified is anchored to the origin's start, so that a URL's validator changes only
    # when the workload's does.
    started = time.time()

    class Origin(http.server.BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'
        # The headers and the body go out in two writes: without TCP_NODELAY, Nagle's
        # algorithm and the proxy's delayed ACK hold the body ~40 ms.
        disable_nagle_algorithm = True

        def do_GET(self):
            row = rows[int(self.headers.get('X-Row', '0'))]
            etag = row['etag'] or '"v%s"' % row['version']
            status = 200
            if self.headers.get('If-None-Match') == etag:
                status = 304
            size = int(row['size'])
            length = max(1, round(size / size_scale)) if size else 0
            body = b'' if status == 304 else b'x' * length
            self.send_response(status)
            if row['cache_control']:
                self.send_header('Cache-Control', scaled(row['cache_control'], scale))
            self.send_header('ETag', etag)
            if row['last_modified']:
                self.send_header('Last-Modified', formatdate(float(row['last_modified']) - 5184000 + started - 86400, usegmt=True))
            self.send_header('Content-Type', 'image/jpeg' if row['class'] == 'image' else 'application/json')
            # A 304's Content-Length, if any, must be the 200's (RFC 9110 §8.6): a cache
            # (Squid) updates its stored response with the 304's headers.
            self.send_header('Content-Length', str(length))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Origin)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def start_nginx(work, origin_port, nginx):
    port = free_port()
    log = os.path.join(work, 'access.log')
    config = os.path.join(work, 'nginx.conf')
    with open(config, 'w') as handle:
        # Run as root (as here), nginx's workers would be `nobody`, which cannot write the
        # private scratch folder: keep them as the invoking user.
        user = 'user root;\n' if os.geteuid() == 0 else ''
        handle.write(f'''daemon off;
{user}worker_processes 1;
error_log {work}/error.log;
pid {work}/nginx.pid;
events {{ worker_connections 64; }}
http {{
  access_log off;
  client_body_temp_path {work}/body; proxy_temp_path {work}/proxy; fastcgi_temp_path {work}/fastcgi;
  uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
  log_format capture '{LOG_FORMAT}';
  proxy_cache_path {work}/cache keys_zone=capture:1m max_size=16m inactive=10m;
  server {{
    listen 127.0.0.1:{port};
    access_log {log} capture;
    location / {{
      proxy_pass http://127.0.0.1:{origin_port};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_cache capture;
      proxy_cache_revalidate on;
      proxy_cache_key $host$request_uri;
    }}
  }}
}}
''')
    errors = os.path.join(work, 'nginx.stderr')
    with open(errors, 'w') as stderr:
        process = subprocess.Popen([nginx, '-c', config, '-p', work], stdout=subprocess.DEVNULL, stderr=stderr)
    wait_for_port(process, port, 'nginx', [errors, os.path.join(work, 'error.log')])
    return process, port, log


def stop_nginx(process):
    terminate(process)


def start_squid(work, origin_port, squid):
    """Squid as a reverse proxy (`accel vhost`: the URL is http://Host/path, as nginx's
    $scheme://$host$request_uri) to the origin as its only parent, with a 16 MB memory cache
    and no disk cache; everything (config, logs, pid file) in WORK/squid. Squid refuses to
    run as root: started as root, it runs as `nobody`, which then owns WORK/squid."""
    port = free_port()
    home = os.path.join(work, 'squid')
    os.mkdir(home)
    user = ''
    if os.geteuid() == 0:
        nobody = pwd.getpwnam('nobody')
        os.chown(home, nobody.pw_uid, nobody.pw_gid)
        os.chmod(work, 0o711)
        user = 'cache_effective_user nobody\n'
    log = os.path.join(home, 'access.log')
    config = os.path.join(home, 'squid.conf')
    with open(config, 'w') as handle:
        handle.write(f'''{user}http_port 127.0.0.1:{port} accel vhost
cache_peer 127.0.0.1 parent {origin_port} 0 no-query no-digest originserver name=origin
cache_peer_access origin allow all
never_direct allow all
http_access allow all
cache allow all
cache_mem 16 MB
maximum_object_size_in_memory 1 MB
refresh_pattern . 0 20% 4320
access_log stdio:{log} squid
log_mime_hdrs on
{squid_housekeeping(home, 'cachelab-capture')}''')
    # `-n`: Squid names its shared-memory segments (/dev/shm/NAME-*) after the service;
    # a name of our own keeps them apart from any other Squid's.
    service = f'cachelab{os.getpid()}'
    errors = os.path.join(work, 'squid.stderr')
    with open(errors, 'w') as stderr:
        process = subprocess.Popen([squid, '-N', '-n', service, '-f', config], stdout=subprocess.DEVNULL, stderr=stderr)
    process.service = service
    wait_for_port(process, port, 'squid', [errors, os.path.join(home, 'cache.log')])
    return process, port, log


def squid_housekeeping(home, name):
    """squid.conf lines that keep a loopback Squid to itself: its logs, pid file and core dumps
    in HOME, no peers' protocols, no pinger or digests, a 1 s shutdown, VISIBLE host NAME."""
    return f'''cache_log {home}/cache.log
cache_store_log none
pid_filename {home}/squid.pid
coredump_dir {home}
netdb_filename none
icp_port 0
htcp_port 0
pinger_enable off
digest_generation off
shutdown_lifetime 1 seconds
visible_hostname {name}
'''


def terminate(process):
    """SIGTERM, then up to 60 s for the process to exit (killed after that); whether it exited."""
    process.terminate()
    try:
        process.wait(timeout=60)
        return True
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return False


def stop_squid(process):
    """SIGTERM: Squid closes its port, waits `shutdown_lifetime` for open connections, writes
    its logs and exits (and removes its shared memory)."""
    terminate(process)
    for segment in glob.glob(f'/dev/shm/{process.service}-*'):
        os.remove(segment)


def start_mitmproxy(work, origin_port, mitmdump):
    """mitmdump on loopback, forwarding every request to the origin as its upstream proxy (so
    the HAR's URLs are the client's http://host/path), its certificates in WORK/mitmproxy;
    the HAR is written when it exits."""
    port = free_port()
    har = os.path.join(work, 'capture.har')
    errors = os.path.join(work, 'mitmdump.stderr')
    with open(errors, 'w') as stderr:
        process = subprocess.Popen([mitmdump, '--listen-host', '127.0.0.1', '--listen-port', str(port),
                                    '--mode', f'upstream:http://127.0.0.1:{origin_port}',
                                    '--set', f'confdir={work}/mitmproxy', '--set', f'hardump={har}',
                                    '--set', 'flow_detail=0', '--quiet'],
                                   stdout=subprocess.DEVNULL, stderr=stderr)
    process.har = har
    process.errors = errors
    wait_for_port(process, port, 'mitmdump', [errors])
    return process, port, har


def stop_mitmproxy(process):
    """SIGTERM: mitmdump shuts down, and its `done` hook writes the HAR before it exits."""
    if not terminate(process):
        sys.exit('capture_http.py: mitmdump did not exit within 60 s of SIGTERM; no HAR')
    if process.returncode != 0 or not os.path.exists(process.har):
        sys.exit(f'capture_http.py: mitmdump exited with {process.returncode} without a HAR: ' + tail([process.errors]))


SERVERS = {'nginx': (start_nginx, stop_nginx), 'squid': (start_squid, stop_squid),
           'mitmproxy': (start_mitmproxy, stop_mitmproxy)}


def listening(process, port):
    """Waits until PROCESS accepts connections on PORT: None, else why not: 'exited' (it
    exited first) or 'timeout' (not within 60 s; then it is killed)."""
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=1).close()
            return None
        except OSError:
            if process.poll() is not None:
                return 'exited'
            time.sleep(0.05)
    process.kill()
    process.wait()
    return 'timeout'


def wait_for_port(process, port, name, logs):
    """Returns when PROCESS accepts connections on PORT; exits with the end of its LOGS if it
    exits first or does not listen within 60 s."""
    problem = listening(process, port)
    if problem == 'exited':
        sys.exit(f'capture_http.py: {name} did not start: ' + tail(logs))
    if problem:
        sys.exit(f'capture_http.py: {name} did not listen within 60 s: ' + tail(logs))


def tail(paths, limit=500):
    """The last LIMIT characters of the files at PATHS (those that exist), concatenated."""
    text = ''
    for path in paths:
        if os.path.exists(path):
            with open(path, errors='replace') as handle:
                text += handle.read()
    return text[-limit:]


def replay(rows, port, pace, absolute=False):
    """Sends the rows over one keep-alive connection: origin-form with a Host header to a
    reverse proxy, or the absolute http:// URL (ABSOLUTE) to a forward proxy."""
    connection = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    start = time.monotonic()
    for number, row in enumerate(rows):
        delay = start + number * pace - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        url = urllib.parse.urlsplit(row['key'])
        target = url.path + (('?' + url.query) if url.query else '')
        if absolute:
            target = f'http://{url.netloc}{target}'
        connection.request('GET', target, headers={'Host': url.netloc, 'X-Row': str(number)})
        response = connection.getresponse()
        response.read()
    connection.close()


if __name__ == '__main__':
    main()
