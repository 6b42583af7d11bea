#!/usr/bin/env python3
"""Makes a real HTTP capture on loopback: a `cachelab gen http` workload served by a local
origin (Python's http.server, with each request's Cache-Control, ETag and Last-Modified from
the workload), behind a real nginx proxy_cache, replayed by a keep-alive client; nginx's own
access log, with $upstream_cache_status, is the capture. Beside it, FILE.format holds the
`--format` value CacheLab reads it with.

Usage: capture_http.py nginx --output FILE [--requests N] [--objects N] [--seed S]
                       [--time-scale K] [--pace SECONDS] [--cachelab PATH]

The workload's clock is compressed: requests are sent `--pace` seconds apart in trace order,
and every max-age / s-maxage is divided by `--time-scale` (at least 1 s), so that expiry and
revalidation happen within the capture. The origin answers a conditional request with 304
when the workload's ETag for that request is unchanged. Needs nginx (Debian: nginx-light)."""
import argparse
import csv
import http.client
import http.server
import os
import re
import shutil
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


def write_format(capture):
    """Writes CAPTURE.format: the `--format` value that reads the capture's log lines."""
    with open(capture + '.format.tmp', 'w') as out:
        out.write(f"access-log:log-format='{LOG_FORMAT}'\n")
    os.replace(capture + '.format.tmp', capture + '.format')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('server', choices=['nginx'])
    parser.add_argument('--output', required=True)
    parser.add_argument('--requests', type=int, default=3000)
    parser.add_argument('--objects', type=int, default=150)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--time-scale', type=float, default=600.0)
    parser.add_argument('--pace', type=float, default=0.004)
    parser.add_argument('--cachelab', default=os.environ.get('CACHELAB', '.build/release/cachelab'))
    args = parser.parse_args()
    if shutil.which('nginx') is None:
        sys.exit('capture_http.py: nginx is not installed (Debian: apt-get install nginx-light)')
    work = tempfile.mkdtemp(prefix='cachelab-capture-')
    try:
        rows = workload(args, work)
        origin, origin_port = start_origin(rows, args.time_scale)
        nginx, proxy_port, log = start_nginx(work, origin_port)
        try:
            replay(rows, proxy_port, args.pace)
        finally:
            nginx.terminate()
            nginx.wait(timeout=30)
            origin.shutdown()
        tmp = args.output + '.tmp'
        shutil.copyfile(log, tmp)
        os.replace(tmp, args.output)
        write_format(args.output)
        lines = sum(1 for _ in open(args.output))
        print(f'capture_http.py: {lines} lines of nginx access log in {args.output}')
    finally:
        shutil.rmtree(work, ignore_errors=True)


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


def start_origin(rows, scale):
    class Origin(http.server.BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def do_GET(self):
            row = rows[int(self.headers.get('X-Row', '0'))]
            etag = row['etag'] or '"v%s"' % row['version']
            status = 200
            if self.headers.get('If-None-Match') == etag:
                status = 304
            body = b'' if status == 304 else b'x' * int(row['size'])
            self.send_response(status)
            if row['cache_control']:
                self.send_header('Cache-Control', scaled(row['cache_control'], scale))
            self.send_header('ETag', etag)
            if row['last_modified']:
                self.send_header('Last-Modified', formatdate(float(row['last_modified']) - 5184000 + time.time() - 86400, usegmt=True))
            self.send_header('Content-Type', 'image/jpeg' if row['class'] == 'image' else 'application/json')
            self.send_header('Content-Length', str(len(body)))
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


def start_nginx(work, origin_port):
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
    process = subprocess.Popen(['nginx', '-c', config, '-p', work], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=1).close()
            return process, port, log
        except OSError:
            if process.poll() is not None:
                sys.exit('capture_http.py: nginx did not start: ' + process.stderr.read().decode()[-500:])
            time.sleep(0.05)
    process.terminate()
    sys.exit('capture_http.py: nginx did not listen within 60 s')


def replay(rows, port, pace):
    connection = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    start = time.monotonic()
    for number, row in enumerate(rows):
        delay = start + number * pace - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        url = urllib.parse.urlsplit(row['key'])
        connection.request('GET', url.path + (('?' + url.query) if url.query else ''),
                           headers={'Host': url.netloc, 'X-Row': str(number)})
        response = connection.getresponse()
        response.read()
    connection.close()


if __name__ == '__main__':
    main()
