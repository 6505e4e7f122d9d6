#!/usr/bin/env bash
# one-node-slurm.sh: a throw-away one-node SLURM cluster (munged + slurmctld + slurmd)
# living entirely inside one directory, for automated tests.
#
#   one-node-slurm.sh start DIR   # writes DIR/slurm.conf, starts the daemons, waits for the node to be idle,
#                                 # then prints the client environment as shell 'export' lines
#   one-node-slurm.sh env DIR     # prints those lines again
#   one-node-slurm.sh stop DIR    # stops the daemons, SIGKILLs running jobs and this cluster's srun/sbatch
#                                 # clients, leaves nothing running (takes 1-2 s)
#
# Needs (Debian 12): apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge
# Nothing under /etc/slurm or /etc/munge is read. Runs the daemons as the calling user (tested as root, and as nobody).
# Usage in a test:  eval "$(one-node-slurm.sh start "$D")"; srun ...; one-node-slurm.sh stop "$D"
# Graceful stop of a job (SIGTERM to every task, SIGKILL KillWait s later): scancel JOBID.
# Tunables (environment): ONS_CPUS (default: max(nproc,2)), ONS_KILLWAIT (seconds between SIGTERM and
# SIGKILL on scancel / time limit, default 30), ONS_TIMEOUT (seconds to wait for the node, default 60).
set -euo pipefail

die() { echo "one-node-slurm: $*" >&2; exit 1; }

# Local TCP ports in use (any state), from /proc/net/tcp{,6}, as decimal numbers.
ports_in_use() {
    local f sl local rest
    for f in /proc/net/tcp /proc/net/tcp6; do
        [[ -r $f ]] || continue
        while read -r sl local rest; do
            [[ $local == *:* ]] && echo $((16#${local##*:}))
        done < <(tail -n +2 "$f")
    done
}

# Print N distinct free TCP ports from 20000-59999.
free_ports() {
    local n=$1 used p tries=0 picked=" "
    used=" $(ports_in_use | sort -un | tr '\n' ' ') "
    while (( n > 0 )); do
        (( ++tries < 1000 )) || die "no free TCP port found"
        p=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
        [[ $used == *" $p "* || $picked == *" $p "* ]] && continue
        # a listener we could not see in /proc (other namespace views): try to connect
        if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then continue; fi
        picked+="$p "; echo "$p"; n=$((n - 1))
    done
}

client_env() {
    local dir=$1
    echo "export SLURM_CONF=$dir/slurm.conf"
    # munge clients (munge/unmunge) take --socket; SLURM's clients and daemons find the socket
    # through AuthInfo=socket=... in slurm.conf (auth/munge and cred/munge both read it), so
    # SLURM_CONF is all srun/sbatch/scontrol need.
    echo "export MUNGE_SOCKET=$dir/munge/munge.socket.2   # for: munge --socket \"\$MUNGE_SOCKET\""
}

# Poll (bounded) until "$@" succeeds.
wait_for() {
    local secs=$1; shift
    local end=$(( SECONDS + secs ))
    until "$@" >/dev/null 2>&1; do
        (( SECONDS < end )) || return 1
        sleep 0.2
    done
}

# wait_up SECS DAEMON DIR CMD...: poll CMD until it succeeds; fail at once if DAEMON died.
wait_up() {
    local secs=$1 daemon=$2 dir=$3; shift 3
    local end=$(( SECONDS + secs ))
    until "$@" >/dev/null 2>&1; do
        if ! pid_alive "$dir/run/$daemon.ons-pid" || (( SECONDS >= end )); then
            pid_alive "$dir/run/$daemon.ons-pid" && echo "one-node-slurm: $daemon not ready after $secs s" >&2 ||
                echo "one-node-slurm: $daemon exited" >&2
            tail -n 15 "$dir/log/$daemon.out" >&2 2>/dev/null || true
            sinfo -N -l >&2 2>/dev/null || true
            stop "$dir" || true
            die "start failed (logs in $dir/log)"
        fi
        sleep 0.2
    done
}

node_idle() { [[ $(sinfo -h -N -o '%t' 2>/dev/null | head -1) == idle ]]; }

# alive = exists and is not a zombie (PID 1 may take a while to reap our orphaned daemons)
proc_alive() { local st; st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) && [[ -n $st && $st != Z ]]; }
pid_alive() { [[ -s $1 ]] && proc_alive "$(cat "$1")"; }

start() {
    local dir=$1
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd -P)
    [[ $dir != *[[:space:]]* ]] || die "DIR must not contain white space (slurm.conf cannot quote it)"
    [[ -e $dir/slurm.conf ]] && pid_alive "$dir/run/slurmctld.ons-pid" && die "$dir already has a running cluster"
    for b in munged slurmctld slurmd sinfo srun; do command -v "$b" >/dev/null || die "$b not installed"; done
    local sock=$dir/munge/munge.socket.2
    (( ${#sock} < 100 )) || die "$dir is too long a path for a unix socket"

    local t0; t0=$(date +%s%N)
    local host; host=$(hostname -s)
    local cpus=${ONS_CPUS:-$(nproc)}; (( cpus >= 2 )) || cpus=2
    local killwait=${ONS_KILLWAIT:-30}
    local user; user=$(id -un)
    local ctldport slurmdport
    { read -r ctldport; read -r slurmdport; } < <(free_ports 2)

    # munged insists: key 0600/0400 owned by us, its dirs not writable by group/others.
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool/slurmd" "$dir/log" "$dir/run"
    chmod 0755 "$dir" "$dir/munge"
    chmod 0700 "$dir/state" "$dir/spool"
    if [[ ! -s $dir/munge/munge.key ]]; then
        (umask 077; dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none)
    fi
    chmod 0600 "$dir/munge/munge.key"

    cat > "$dir/slurm.conf" <<EOF
# generated by one-node-slurm.sh
ClusterName=onenode
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctldport
SlurmdPort=$slurmdport
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
CryptoType=crypto/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=$killwait
MinJobAge=300
InactiveLimit=0
Waittime=0
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
    : > "$dir/plugstack.conf"   # an empty one, so /etc/slurm/plugstack.conf is never read
    printf '%s\n' "$dir" > "$dir/.one-node-slurm"

    # The daemons carry ONS_DIR=$dir in their environment, so that 'stop' can find them (and
    # slurmctld's slurmscriptd) whatever happened to the pid files.
    export ONS_DIR=$dir SLURM_CONF=$dir/slurm.conf
    unset SLURM_JOB_ID SLURM_JOBID

    # Every daemon runs in the foreground (-F/-D) under setsid, its output in DIR/log: no double
    # fork (no zombie left behind), we hold the pids, and none of them keeps our stdout open
    # (so eval "$(one-node-slurm.sh start DIR)" returns).
    setsid munged -F --socket="$sock" --key-file="$dir/munge/munge.key" --pid-file="$dir/run/munged.pid" \
        --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" --force \
        > "$dir/log/munged.out" 2>&1 < /dev/null &
    echo $! > "$dir/run/munged.ons-pid"
    wait_up 10 munged "$dir" munge --socket="$sock" -n

    setsid slurmctld -D -c -f "$dir/slurm.conf" > "$dir/log/slurmctld.out" 2>&1 < /dev/null &
    echo $! > "$dir/run/slurmctld.ons-pid"
    wait_up 20 slurmctld "$dir" scontrol ping

    setsid slurmd -D -N "$host" -f "$dir/slurm.conf" > "$dir/log/slurmd.out" 2>&1 < /dev/null &
    echo $! > "$dir/run/slurmd.ons-pid"
    wait_up "${ONS_TIMEOUT:-60}" slurmd "$dir" node_idle
    echo "# one-node SLURM up in $(( ($(date +%s%N) - t0) / 1000000 )) ms: node $host, $cpus CPUs, slurmctld :$ctldport, slurmd :$slurmdport" >&2
    client_env "$dir"
}

# Processes of this cluster, for 'stop':
#  - the daemons: ONS_DIR=$dir in their environment;
#  - slurmstepd: it wipes its environment for its process title, but holds $dir/log/slurmd.log open;
#    and all descendants of a slurmstepd (job scripts and tasks);
#  - job processes that were reparented: SLURM_JOB_ID set and SLURM_CONF=$dir/slurm.conf;
#  - this cluster's clients (srun, salloc, sbatch, sattach, scontrol, squeue...): SLURM_CONF=$dir/slurm.conf.
cluster_pids() {
    local dir=$1 p st env fd comm
    local -A parent=()
    local -a roots=()
    for p in /proc/[0-9]*; do
        p=${p#/proc/}
        [[ $p == "$$" || $p == "$BASHPID" ]] && continue
        st=$(cat "/proc/$p/stat" 2>/dev/null) || continue
        st=${st##*) }                       # after the command name: "STATE PPID ..."
        [[ ${st%% *} == Z ]] && continue
        st=${st#* }; parent[$p]=${st%% *}
        comm=$(cat "/proc/$p/comm" 2>/dev/null) || continue
        if [[ $comm == slurmstepd ]]; then
            for fd in /proc/$p/fd/*; do
                [[ $(readlink "$fd" 2>/dev/null) == "$dir"/* ]] && { roots+=("$p"); break; }
            done
            continue
        fi
        env=$( { tr '\0' '\n' < "/proc/$p/environ"; } 2>/dev/null ) || continue
        if grep -qxF "ONS_DIR=$dir" <<< "$env"; then
            echo "$p"
        elif grep -qxF "SLURM_CONF=$dir/slurm.conf" <<< "$env" &&
             { grep -q '^SLURM_JOB_ID=' <<< "$env" || [[ $comm =~ ^(srun|salloc|sbatch|sattach|scontrol|squeue|sinfo|scancel|sstat)$ ]]; }; then
            echo "$p"
        fi
    done
    # slurmstepd and everything below it
    local -A mark=(); for p in "${roots[@]}"; do mark[$p]=1; done
    local changed=1
    while (( changed )); do
        changed=0
        for p in "${!parent[@]}"; do
            [[ -z ${mark[$p]:-} && -n ${mark[${parent[$p]}]:-} ]] && { mark[$p]=1; changed=1; }
        done
    done
    for p in "${!mark[@]}"; do echo "$p"; done
}

# stop_daemon DIR NAME: SIGTERM, up to 10 s, then SIGKILL
stop_daemon() {
    local f=$1/run/$2.ons-pid pid
    [[ -s $f ]] || return 0
    pid=$(cat "$f")
    proc_alive "$pid" || return 0
    kill -TERM "$pid" 2>/dev/null || true
    wait_for 10 eval "! proc_alive $pid" && return 0
    kill -KILL "$pid" 2>/dev/null || true
    wait_for 5 eval "! proc_alive $pid" || true
}

# A teardown, not a graceful stop: running jobs are SIGKILLed, not given KillWait.
# (Through SLURM there is no fast way: scancel, and even scancel --signal=KILL of a job or a step,
# sends SIGTERM and waits KillWait before SIGKILL.)
stop() {
    local dir=$1 pids round all f
    [[ -d $dir ]] || die "no directory $dir"
    dir=$(cd "$dir" && pwd -P)
    [[ -e $dir/slurm.conf ]] || die "$dir/slurm.conf missing: not a one-node-slurm directory"
    all=$(cat "$dir"/run/*.ons-pid 2>/dev/null || true)
    stop_daemon "$dir" slurmctld        # first: no new jobs, no requeues
    stop_daemon "$dir" slurmd
    stop_daemon "$dir" munged
    for round in 1 2 3 4 5 6 7 8 9 10; do
        pids=$(cluster_pids "$dir" | sort -un)
        [[ -n $pids ]] || break
        (( round > 1 )) || echo "one-node-slurm: killing job processes and clients: $(echo $pids)" >&2
        kill -KILL $pids 2>/dev/null || true
        all+=" $pids"
        sleep 0.2
    done
    pids=$(cluster_pids "$dir")
    [[ -z $pids ]] || die "still running: $(echo $pids)"
    # Everything is dead; give PID 1 (their parent now) a moment to reap the zombies, so that
    # "pgrep slurm" right after stop is empty (an init that never reaps would leave them listed).
    gone() { local p; for p in $all; do [[ ! -e /proc/$p ]] || return 1; done; }
    wait_for 10 gone || echo "one-node-slurm: note: zombies not yet reaped by PID 1" >&2
    rm -f "$dir"/run/*.pid "$dir"/run/*.ons-pid
    echo "# one-node SLURM in $dir stopped" >&2
}

case ${1:-} in
    start) [[ $# == 2 ]] || die "usage: $0 start DIR"; start "$2" ;;
    stop)  [[ $# == 2 ]] || die "usage: $0 stop DIR"; stop "$2" ;;
    env)   [[ $# == 2 ]] || die "usage: $0 env DIR"; client_env "$(cd "$2" && pwd -P)" ;;
    *) echo "usage: $0 start|stop|env DIR" >&2; exit 2 ;;
esac
