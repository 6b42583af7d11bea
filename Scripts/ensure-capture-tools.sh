#!/usr/bin/env bash
# Installs the real servers and tools the live-capture tests run (LiveCaptureTests, through
# Scripts/capture_http.py) and the differential harness (Scripts/http-diff.sh): nginx, Squid
# and Varnish from Debian's packages, mitmproxy 11.0.2 from PyPI in .venv-capture (git ignores
# it). Does nothing when they are present; safe to run repeatedly. .ci/run calls it; elsewhere
# those tests skip with a message when a tool is missing. The harness runs its own varnishd
# (own -n folder and port), so the Debian varnish service is stopped and disabled after the
# install (Debian starts it on :6081 unless policy-rc.d forbids it).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || packages+=(nginx-light)
command -v squid >/dev/null 2>&1 || [ -x /usr/sbin/squid ] || packages+=(squid)
{ command -v varnishd >/dev/null 2>&1 || [ -x /usr/sbin/varnishd ]; } && command -v varnishncsa >/dev/null 2>&1 \
  || packages+=(varnish)
if [ ${#packages[@]} -gt 0 ]; then
  if [ "$(uname)" = Darwin ]; then
    echo "error: install ${packages[*]} with Homebrew (brew install nginx squid varnish)" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  echo "installing ${packages[*]} ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! $sudo apt-get install -y --no-install-recommends "${packages[@]}" >/dev/null; then
    $sudo apt-get update >/dev/null
    $sudo apt-get install -y --no-install-recommends "${packages[@]}" >/dev/null
  fi
  if [[ " ${packages[*]} " == *" varnish "* ]] && command -v systemctl >/dev/null 2>&1; then
    # the package enables (and, under systemd, starts) varnish.service on :6081 and varnishncsa
    if [ -d /run/systemd/system ]; then
      $sudo systemctl disable --now varnish.service varnishncsa.service >/dev/null 2>&1 || true
    else   # no systemd: the package's init script may have started it
      $sudo systemctl disable varnish.service varnishncsa.service >/dev/null 2>&1 || true
      if [ -x /etc/init.d/varnish ]; then $sudo /etc/init.d/varnish stop >/dev/null 2>&1 || true; fi
    fi
  fi
fi
if [ ! -x .venv-capture/bin/mitmdump ]; then
  echo "installing mitmproxy 11.0.2 into .venv-capture ..." >&2
  python3 -m venv .venv-capture
  .venv-capture/bin/pip install --quiet mitmproxy==11.0.2
fi
