#!/bin/bash
# A single-node Slurm "cluster" on localhost, for checking the job-array scripts against a real
# scheduler: Debian's slurm-wlm and munge (installed when missing), slurmctld + slurmd on
# 127.0.0.1, no systemd needed, run as root. /etc/slurm is left alone: the configuration lives
# in $SLURM_LOCAL (default ${TMPDIR:-/tmp}/cachelab-slurm) and clients read it through SLURM_CONF.
#   bash Scripts/cluster/slurm-local.sh start    # prints: export SLURM_CONF=...
#   bash Scripts/cluster/slurm-local.sh stop     # cancels jobs, stops what start started
#   bash Scripts/cluster/slurm-local.sh status   # exit 0 when slurmctld and slurmd run
# Both are idempotent: start reuses daemons that already run, stop does nothing when none do.
# munged is stopped only when start started it (a munged that was already running stays).
set -euo pipefail

BASE=${SLURM_LOCAL:-${TMPDIR:-/tmp}/cachelab-slurm}
export SLURM_CONF=$BASE/slurm.conf
STATE=$BASE/state
LOG=$BASE/log
say() { printf 'slurm-local: %s\n' "$*" >&2; }
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

# Waits up to $2 tenths of a second for process $1 to end, then sends TERM, then KILL.
reap() {
  local pid=$1 tenths=$2 i
  for signal in none TERM KILL; do
    [ "$signal" = none ] || kill "-$signal" "$pid" 2>/dev/null || true
    for ((i = 0; i < tenths; i++)); do
      kill -0 "$pid" 2>/dev/null || return 0
      sleep 0.1
    done
  done
}

install_packages() {
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null \
    && command -v sbatch >/dev/null && return 0
  say "installing slurm-wlm and munge"
  local attempt updated=0
  for ((attempt = 0; attempt < 60; attempt++)); do
    if DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge \
      >"$BASE/apt.log" 2>&1; then
      return 0
    fi
    if grep -qiE 'could not get lock|dpkg was interrupted|lock-frontend' "$BASE/apt.log"; then
      # Another apt or dpkg holds the lock: wait for it (up to 10 minutes in all).
      sleep 10
    elif [ "$updated" = 0 ]; then
      # A fresh machine has no package lists yet ("Unable to locate package"): fetch them once.
      updated=1
      apt-get update >>"$BASE/apt.log" 2>&1 || true
    else
      cat "$BASE/apt.log" >&2
      say "apt-get install slurm-wlm munge failed (log above)"
      exit 1
    fi
  done
  say "apt-get could not get the dpkg lock in 10 minutes"
  exit 1
}

start_munge() {
  [ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  # systemd would create munged's runtime folder; without it, create it here.
  install -d -o munge -g munge -m 0755 /run/munge
  if munge_works; then
    return 0
  fi
  runuser -u munge -- /usr/sbin/munged
  touch "$STATE/munged.ours"
  local i
  for ((i = 0; i < 100; i++)); do
    munge_works && return 0
    sleep 0.1
  done
  say "munged does not answer"
  tail -n 20 /var/log/munge/munged.log >&2 || true
  exit 1
}

write_configuration() {
  local node hardware cpus memory
  node=$(hostname -s)
  # slurmd -C: "NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ... RealMemory=24105"
  hardware=$(slurmd -C | head -n 1 | cut -d' ' -f2-)
  cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hardware")
  memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hardware")
  # DefMemPerCPU: a job that asks for no memory gets a share, not the whole node.
  cat >"$SLURM_CONF.new" <<EOF
# Written by Scripts/cluster/slurm-local.sh.
ClusterName=cachelab
SlurmctldHost=${node}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$LOG/slurmd.log
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$((memory / cpus))
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$LOG/jobcomp.txt
NodeName=$node NodeAddr=127.0.0.1 $hardware State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$SLURM_CONF.new" "$SLURM_CONF"
}

need_root() {
  [ "$(id -u)" = 0 ] || { say "must run as root (it starts and stops munged, slurmctld and slurmd)"; exit 1; }
}

start() {
  need_root
  mkdir -p "$STATE/ctld" "$STATE/d" "$LOG"
  install_packages
  start_munge
  alive "$STATE/slurmctld.pid" || write_configuration
  alive "$STATE/slurmctld.pid" || slurmctld
  alive "$STATE/slurmd.pid" || slurmd
  local node state i
  node=$(hostname -s)
  for ((i = 0; i < 600; i++)); do
    state=$(sinfo -h -n "$node" -o '%T' 2>/dev/null || true)
    case "$state" in
      idle | mixed | allocated | completing)
        say "node $node is $state"
        echo "export SLURM_CONF=$SLURM_CONF"
        return 0
        ;;
      *drain* | down*) scontrol update nodename="$node" state=resume 2>/dev/null || true ;;
    esac
    sleep 0.1
  done
  say "node $node did not become ready (state '${state:-none}')"
  tail -n 20 "$LOG/slurmctld.log" "$LOG/slurmd.log" >&2 || true
  exit 1
}

stop() {
  need_root
  if [ -f "$SLURM_CONF" ] && alive "$STATE/slurmctld.pid"; then
    scancel --full --quiet --user=root 2>/dev/null || true
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  local file
  for file in "$STATE/slurmctld.pid" "$STATE/slurmd.pid"; do
    alive "$file" && reap "$(cat "$file")" 50
  done
  if [ -f "$STATE/munged.ours" ]; then
    munged --stop >/dev/null 2>&1 || true
    [ -s /run/munge/munged.pid ] && reap "$(cat /run/munge/munged.pid)" 50
    rm -f "$STATE/munged.ours"
  fi
  say "stopped"
}

# Both daemons of this folder's cluster run (by their pid files) and the controller answers.
status() {
  alive "$STATE/slurmctld.pid" && alive "$STATE/slurmd.pid" && [ -f "$SLURM_CONF" ] \
    && scontrol ping >/dev/null 2>&1
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status)
    if status; then
      say "running (SLURM_CONF=$SLURM_CONF)"
    else
      say "not running"
      exit 1
    fi
    ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 64
    ;;
esac
