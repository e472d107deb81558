#!/usr/bin/env bash
# Slurm accounting as a slasim workload, tested on a real Slurm: a private
# single-node cluster (munged, slurmctld, slurmd from Debian's slurm-wlm and
# munge) that records its jobs through slurmdbd in a private MariaDB, every
# daemon on 127.0.0.1, with config, key, sockets, database, state and logs in
# one temporary directory. slurmdbd 22.05 binds every address (it has no
# setting for one), so the whole test runs in a private network namespace
# whose only interface is the loopback.
#
#   1. Jobs of known shapes are submitted as root, nobody and daemon to two
#      partitions: completed, failed with an exit code, hitting their time
#      limit, cancelled while pending and while running, an array with a
#      failing task, a multi-step job (srun) with `|` in its name, time limits
#      written as MM, MM:SS, HH:MM:SS, D-HH, UNLIMITED and none; plus a job
#      still running and an array still pending when the accounting is dumped.
#   2. `sacct --allusers --parsable2 --format=<the documented list> -S <start>`
#      dumps them, with sacct's local times and with SLURM_TIME_FORMAT=%s.
#   3. `slasim trace convert` turns the dump into SWF; every job's SWF fields
#      are checked against its shape (processors, time limit, status, wait and
#      run time, user, group, partition, job name), the running and pending
#      jobs must be skipped and counted, and both dumps must convert alike.
#   4. `slasim run` simulates the converted trace, and the dump itself (read
#      through the same path as an SWF trace), under easy and conservative
#      backfilling; the two stores must be equal. A planning-based run
#      (conservative-backfilling, heuristic-overbooking) must succeed too.
#
# Usage: tests/slurm/accounting.sh   (as root; SLASIM=/path/to/slasim to use another binary)
#        tests/slurm/accounting.sh --install   (installs the packages, exit 0 when it can run)
# Skipped (exit 0) when not root, when Slurm, slurmdbd, munge and MariaDB
# cannot be installed with apt-get, or when no network namespace can be made;
# under CI=true that is a failure (see .ci/skip.sh;
# SLASIM_CI_UNAVAILABLE=slurm-accounting makes it so). Every wait is bounded;
# the daemons it started are stopped by their PIDs and the temporary directory
# is removed on every exit.
set -eEuo pipefail
trap 'echo "slurm accounting test FAILED: line $LINENO: $BASH_COMMAND exited $?" >&2' ERR
cd "$(dirname "$0")/../.."
root="$PWD"
self="$root/tests/slurm/$(basename "$0")"
t0="${SLASIM_ACCT_T0:-$(date +%s)}"
export PATH="$PATH:/usr/sbin:/sbin"

fail() { echo "slurm accounting test FAILED: $*" >&2; exit 1; }
step() { echo; echo "== $*"; }
. "$root/.ci/skip.sh"

have() { local path; path="$(command -v "$1")" && [[ -x "$path" ]]; }
tools=(slurmctld slurmd slurmdbd sbatch srun squeue scancel sacct sacctmgr sinfo munged mariadbd mariadb-install-db
    mariadb runuser unshare ip)
packages="slurm-wlm slurmdbd munge mariadb-server iproute2"
why=""
# Root, the packages installed (with apt-get when missing) and a network
# namespace to be had; else sets $why and fails.
prerequisites() {
    local out tool missing=0
    if unavailable slurm-accounting; then
        why="SLASIM_CI_UNAVAILABLE names slurm-accounting: $packages treated as not installable"; return 1
    fi
    if [[ $(id -u) -ne 0 ]]; then
        why="the Slurm accounting test runs slurmd, munged and MariaDB as root; run it as root"; return 1
    fi
    for tool in "${tools[@]}"; do have "$tool" || missing=1; done
    if ((missing)); then
        # shellcheck disable=SC2086 # the package list splits on purpose
        if ! out="$("$root/.ci/apt-install" $packages 2>&1)"; then
            why="cannot install $packages with apt-get (${out:-apt-get failed})"; return 1
        fi
    fi
    for tool in "${tools[@]}"; do
        have "$tool" || { why="cannot install $packages with apt-get ($tool is still missing)"; return 1; }
    done
    if [[ -z "${SLASIM_ACCT_NETNS:-}" ]] && ! unshare --net -- true 2>/dev/null; then
        why="cannot create a network namespace (unshare --net) to keep slurmdbd, which binds every address, off the network"
        return 1
    fi
}
if [[ "${1:-}" == --install ]]; then
    prerequisites || { echo "$why"; exit 1; }
    # `slurmdbd -V` needs a slurmdbd.conf, written only by the test: ask dpkg.
    echo "slurm accounting test: slurmdbd $(dpkg-query -W -f='${Version}' slurmdbd), $(mariadbd --version | awk '{print $1, $2, $3}')"
    exit 0
fi

slasim="${SLASIM:-$root/target/release/slasim}"
if [[ -z "${SLASIM:-}" && ! -x "$slasim" ]]; then cargo build --release --locked; fi
[[ -x "$slasim" ]] || fail "no slasim binary at $slasim"
# The field list docs/src/guide/slurm-accounting.md tells users to ask for.
format=JobIDRaw,JobID,JobName,User,Group,Partition,Submit,Start,End,Elapsed,Timelimit,AllocCPUS,ReqCPUS,AllocNodes,State

# ---------------------------------------------------------------- install
step "Slurm, slurmdbd, munge and MariaDB"
prerequisites || skip_and_exit "slurm accounting test" "$why"
if [[ -z "${SLASIM_ACCT_NETNS:-}" ]]; then
    echo "re-running in a private network namespace (unshare --net; only lo, brought up)"
    export SLASIM_ACCT_NETNS=1 SLASIM_ACCT_T0="$t0"
    # Slurm resolves with AI_ADDRCONFIG, for which glibc ignores 127.0.0.1: a
    # second loopback address makes IPv4 count as configured.
    exec unshare --net -- bash -c 'ip link set lo up && ip addr add 127.0.0.2/32 dev lo && exec "$@"' bash "$self" "$@"
fi
interfaces="$(awk -F: 'NR > 2 { gsub(/ /, "", $1); print $1 }' /proc/net/dev | paste -sd' ')"
[[ "$interfaces" == lo ]] || fail "the network namespace has interfaces '$interfaces', expected only lo"
echo "$(slurmctld -V), $(mariadbd --version | awk '{print $1, $2, $3}'); network interfaces: $interfaces"

# ---------------------------------------------------------------- daemons
tmp="$(mktemp -d)"
chmod 711 "$tmp" # munged, and the jobs of nobody and daemon, need every directory above the socket searchable
pids=()
cleanup() {
    local status=$?
    if [[ -n "${SLURM_CONF:-}" && -e "${SLURM_CONF:-}" ]] && ((${#pids[@]} > 3)); then
        # The jobs of this private cluster only; slurmstepd outlives slurmd otherwise.
        scancel --quiet --partition=batch >/dev/null 2>&1 || true
        scancel --quiet --partition=debug >/dev/null 2>&1 || true
        scancel --quiet --partition=parked >/dev/null 2>&1 || true
        for _ in $(seq 1 20); do [[ -z "$(squeue -h -t running 2>/dev/null || true)" ]] && break; sleep 0.5; done
    fi
    local pid i
    # Stopped in reverse start order: slurmd, slurmctld, slurmdbd, MariaDB, munged.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid="${pids[i]}"
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if ((status != 0)) && [[ -d "$tmp/log" ]]; then
        echo "--- last lines of the daemon logs ($tmp/log) ---" >&2
        tail -n 15 "$tmp"/log/* >&2 2>/dev/null || true
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
trap 'echo "slurm accounting test interrupted" >&2; exit 130' INT TERM
mkdir -m 755 "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/work"
mkdir -m 700 "$tmp/key" "$tmp/db"

# Four free TCP ports on 127.0.0.1: slurmctld, slurmd, slurmdbd, MariaDB.
port_busy() { grep -qiE "^ *[0-9]+: [0-9A-F]+:$(printf '%04X' "$1") " /proc/net/tcp /proc/net/tcp6 2>/dev/null; }
for _ in $(seq 1 50); do
    base=$((20000 + RANDOM % 20000)) free=1
    for p in 0 1 2 3; do port_busy $((base + p)) && free=0; done
    ((free)) && break
done
((free)) || fail "no four free ports found"
ctld_port=$base slurmd_port=$((base + 1)) dbd_port=$((base + 2)) db_port=$((base + 3))

. "$root/tests/slurm/daemons.sh"
start_munged
start_mariadb
node=acctnode
export SLURM_CONF="$tmp/slurm.conf"
write_slurmdbd_conf
# 8 CPUs on a node that may have fewer (config_overrides): the jobs only sleep.
# AccountingStoragePass names the munge socket for the slurmdbd connection.
cat >"$SLURM_CONF" <<EOF
ClusterName=slasimacct
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$dbd_port
AccountingStoragePass=$socket
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
MinJobAge=3600
KillWait=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=8 State=UNKNOWN
PartitionName=batch Nodes=$node Default=YES MaxTime=INFINITE State=UP
PartitionName=debug Nodes=$node MaxTime=INFINITE State=UP
PartitionName=parked Nodes=$node MaxTime=INFINITE State=DOWN
EOF
slurmdbd -D >"$tmp/log/slurmdbd.out" 2>&1 &
pids+=($!)
registered=0
for _ in $(seq 1 60); do
    kill -0 "${pids[-1]}" 2>/dev/null || fail "slurmdbd exited at start"
    if sacctmgr -i add cluster slasimacct >"$tmp/log/sacctmgr.out" 2>&1; then registered=1; break; fi
    sleep 0.5
done
((registered)) || fail "slurmdbd did not accept the cluster within 30 s: $(tail -n 3 "$tmp/log/sacctmgr.out")"
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 1 60); do
    state="$(sinfo -h -N -n "$node" -o '%T' 2>/dev/null | head -n1 || true)"
    [[ "$state" == idle ]] && break
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || fail "a daemon (pid $pid) exited at start"; done
    sleep 1
done
[[ "$state" == idle ]] || fail "node $node not idle after 60 s (sinfo: '${state}')"
echo "munged, MariaDB, slurmdbd, slurmctld, slurmd started (pids ${pids[*]}); config $SLURM_CONF"

listeners() { # host:port of every listening TCP socket on our four ports
    local file line addr port st
    for file in /proc/net/tcp /proc/net/tcp6; do
        [[ -r "$file" ]] || continue
        while read -r _ line _ st _; do
            [[ "$st" == 0A ]] || continue
            addr="${line%:*}" port=$((16#${line#*:}))
            ((port >= base && port <= base + 3)) || continue
            if [[ ${#addr} -eq 8 ]]; then
                printf '%d.%d.%d.%d:%d\n' $((16#${addr:6:2})) $((16#${addr:4:2})) $((16#${addr:2:2})) $((16#${addr:0:2})) "$port"
            else
                echo "[$addr]:$port"
            fi
        done <"$file"
    done
}
listening="$(listeners | sort -u | paste -sd' ')"
echo "listening: $listening (in the namespace, whose only interface is lo)"
[[ $(wc -w <<<"$listening") -ge 4 ]] || fail "expected slurmctld, slurmd, slurmdbd and MariaDB listening, found: $listening"
for l in $listening; do
    [[ "$l" == 127.0.0.1:* || "$l" == "0.0.0.0:$dbd_port" ]] || fail "a daemon listens on $l, not on 127.0.0.1"
done

# ---------------------------------------------------------------- jobs
step "1. jobs of known shapes"
deadline=$((SECONDS + 180)) # all waiting for jobs together
work="$tmp/work"
chmod 777 "$work"
dump_start="$(date +%Y-%m-%dT%H:%M:%S)"
sleep 1 # sacct -S compares whole seconds
# expect: one line per SWF job: slurm id|user|partition|processors|limit s|status|started|run min|run max|job name
expect="$tmp/expect"
: >"$expect"
submit() { # user partition procs time-arg expected-limit status run-min run-max name command...
    local user=$1 part=$2 procs=$3 time=$4 limit=$5 status=$6 rmin=$7 rmax=$8 name=$9 id
    shift 9
    local args=(--parsable -o /dev/null -D "$work" -p "$part" -n "$procs" -J "$name")
    [[ "$time" == - ]] || args+=(--time="$time")
    id="$(runuser -u "$user" -- sbatch "${args[@]}" "$@" | cut -d';' -f1)"
    [[ "$id" =~ ^[0-9]+$ ]] || fail "sbatch as $user did not print a job id: $id"
    echo "$id|$user|$part|$procs|$limit|$status|yes|$rmin|$rmax|$name" >>"$expect"
    echo "$id"
}
job_state() { squeue -h -j "$1" -o '%T' 2>/dev/null | head -n1 || true; }
wait_state() { # job, state
    local s
    while :; do
        s="$(job_state "$1")"
        [[ "$s" == "$2" ]] && return 0
        ((SECONDS < deadline)) || fail "job $1 not $2 (is '${s}') within the budget"
        sleep 0.5
    done
}

# Jobs in the partition `parked` (State=DOWN) stay pending, eligible, so sacct lists them.
timeout_job=$(submit root batch 1 1 60 0 60 130 limit-hit --wrap 'sleep 300')
cancel_run=$(submit root batch 1 2:00:00 7200 5 1 60 cancel-running --wrap 'sleep 300')
still_running="$(sbatch --parsable -o /dev/null -D "$work" -n1 -J still-running --wrap 'sleep 300')"
pending_array="$(sbatch --parsable -o /dev/null -D "$work" -p parked -n2 --array=1-3 -J still-pending --wrap 'sleep 1')"
cancel_pend="$(sbatch --parsable -o /dev/null -D "$work" -p parked -n6 --time=30 -J cancel-pending --wrap 'sleep 1')"
wait_state "$still_running" RUNNING
wait_state "$cancel_run" RUNNING
[[ "$(job_state "$cancel_pend")" == PENDING ]] || fail "job $cancel_pend in the down partition is not pending"
scancel "$cancel_pend"
echo "$cancel_pend|root|parked|6|1800|5|no|0|0|cancel-pending" >>"$expect"
sleep 2
scancel "$cancel_run"
submit root batch 1 5 300 1 2 30 done-1 --wrap 'sleep 2' >/dev/null
submit root debug 4 1:30 120 1 3 30 done-4 --wrap 'sleep 3' >/dev/null
submit nobody batch 2 0:10:00 600 1 2 30 done-2 --wrap 'sleep 2' >/dev/null
submit daemon debug 3 1-0 86400 0 1 30 exit-3 --wrap 'sleep 1; exit 3' >/dev/null
submit root batch 1 UNLIMITED -1 1 1 30 unlimited --wrap 'sleep 1' >/dev/null
submit root batch 1 - -1 1 1 30 no-limit --wrap 'sleep 1' >/dev/null
steps=$(submit root batch 2 4 240 1 1 30 'steps|with|bars' --wrap 'srun -n2 sleep 1; srun -n1 true; srun -n1 false || true')
array="$(runuser -u nobody -- sbatch --parsable -o /dev/null -D "$work" -n1 --time=3 --array=1-4 -J array \
    --wrap 'sleep 1; exit $((SLURM_ARRAY_TASK_ID == 4))' | cut -d';' -f1)"
for task in 1 2 3 4; do
    echo "${array}_$task|nobody|batch|1|180|$((task == 4 ? 0 : 1))|yes|1|30|array" >>"$expect"
done
users=(root nobody daemon) times=(2 0:45 00:03:00 0-1) limits=(120 60 180 3600)
for i in $(seq 1 12); do
    submit "${users[i % 3]}" "$( ((i % 2)) && echo batch || echo debug)" $((i % 4 + 1)) "${times[i % 4]}" \
        "${limits[i % 4]}" 1 1 30 "batch-$i" --wrap 'sleep 1' >/dev/null
done
echo "submitted $(wc -l <"$expect") jobs and array tasks to convert, array job $pending_array to stay pending, job $still_running to stay running"
echo "cancelled job $cancel_pend while pending and job $cancel_run while running; job $timeout_job has a 1-minute limit"

# Until sacct shows every expected job in a final state (slurmdbd records asynchronously).
final='^(COMPLETED|FAILED|TIMEOUT|CANCELLED.*)$'
want=$(wc -l <"$expect")
while :; do
    done_count=0
    while IFS='|' read -r id s; do
        grep -q "^$id|" "$expect" && [[ "$s" =~ $final ]] && done_count=$((done_count + 1))
    done < <(sacct --allusers -X -n -P -S "$dump_start" --format=JobID,State 2>/dev/null || true)
    ((done_count == want)) && break
    ((SECONDS < deadline)) || fail "only $done_count of $want jobs final in sacct within the budget"
    sleep 2
done
echo "all $want final in the accounting after $(($(date +%s) - t0)) s"

# ---------------------------------------------------------------- dump
step "2. sacct dump"
dump="$work/dump.sacct"
sacct --allusers --parsable2 --format="$format" -S "$dump_start" >"$dump"
SLURM_TIME_FORMAT=%s sacct --allusers --parsable2 --format="$format" -S "$dump_start" >"$work/dump-epoch.sacct"
# The list docs/src/guide/slurm-strategy.md gives, read natively by `slasim slurm`.
native_format=JobIDRaw,JobID,JobName,User,Group,Account,Partition,QOS,Submit,Eligible,Start,End,Elapsed,Timelimit,ReqCPUS,AllocCPUS,ReqNodes,AllocNodes,ReqMem,ReqTRES,AllocTRES,NodeList,State
SLURM_TIME_FORMAT=%s sacct --allusers --parsable2 --format="$native_format" -S "$dump_start" >"$work/dump-native.sacct"
scancel "$still_running" "$pending_array"
echo "sacct --allusers --parsable2 --format=$format -S $dump_start: $(wc -l <"$dump") lines"
head -n 3 "$dump"
grep -F 'steps|with|bars' "$dump" | head -n 2
grep -E "^($cancel_pend|$cancel_run)\|" "$dump"
grep -E "^$pending_array\|${pending_array}_\[" "$dump" || fail "the pending array range line is not in the dump"

# ---------------------------------------------------------------- convert
step "3. slasim trace convert"
swf="$work/converted.swf"
"$slasim" trace convert --from sacct "$dump" --to swf --out "$swf" --capacity 8 --max-nodes 1 | tee "$work/convert.out"
maps="$work/converted.maps.csv"
[[ -s "$swf" && -s "$maps" ]] || fail "convert wrote no $swf or $maps"
grep -q "skipped 1 pending (1 of them array ranges of 3 tasks), 1 running" "$work/convert.out" ||
    fail "convert did not skip the still-pending array range and the still-running job"
grep -q "1 lines had a \`|\` inside JobName" "$work/convert.out" || fail "the job name with | was not resolved"
"$slasim" trace convert "$work/dump-epoch.sacct" --out "$work/epoch.swf" --capacity 8 --max-nodes 1 >/dev/null
cmp -s <(grep -v '^;' "$swf") <(grep -v '^;' "$work/epoch.swf") || fail "epoch and local-time dumps convert differently"
cmp -s "$maps" "$work/epoch.maps.csv" || fail "epoch and local-time dumps give different maps"
grep -q '^; UnixStartTime: [0-9]' "$work/epoch.swf" || fail "no UnixStartTime from the epoch dump"
warning="$("$slasim" trace convert "$dump" --out "$work/guess.swf" --max-nodes 1 2>&1 >/dev/null)"
[[ "$warning" == "warning: MaxProcs not given: 4, the largest allocation in the dump"* ]] ||
    fail "expected a MaxProcs warning (largest started allocation 4), got: $warning"

# Every SWF job against its shape.
declare -A number_of name_of
while IFS=, read -r kind n name; do
    [[ "$kind" == job ]] && number_of[$name]=$n
    name_of[$kind,$n]="$name"
done < <(tail -n +2 "$maps")
declare -A record
while read -r -a f; do record[${f[0]}]="${f[*]}"; done < <(grep -v '^;' "$swf")
((${#record[@]} == want)) || fail "the SWF has ${#record[@]} jobs, expected $want"
checked=0
while IFS='|' read -r id user part procs limit status started rmin rmax name; do
    n="${number_of[$id]:-}"
    [[ -n "$n" ]] || fail "job $id is not in the maps"
    read -r -a f <<<"${record[$n]}"
    what="job $id (SWF $n: ${record[$n]})"
    group="$(id -gn "$user")"
    if [[ "$started" == yes ]]; then
        ((f[2] >= 0 && f[4] == procs)) || fail "$what: wait ${f[2]}, allocated ${f[4]}; expected a start on $procs processors"
        ((f[3] >= rmin && f[3] <= rmax)) || fail "$what: run time ${f[3]} not in [$rmin, $rmax]"
    else
        ((f[2] == -1 && f[3] == 0 && f[4] == -1)) || fail "$what: expected wait -1, run time 0, allocated -1"
    fi
    ((f[7] == procs)) || fail "$what: requested ${f[7]} processors, expected $procs"
    ((f[8] == limit)) || fail "$what: requested time ${f[8]}, expected $limit"
    ((f[10] == status)) || fail "$what: status ${f[10]}, expected $status"
    [[ "${name_of[user,${f[11]}]:-}" == "$user" ]] || fail "$what: user ${f[11]} is '${name_of[user,${f[11]}]:-}', expected $user"
    [[ "${name_of[group,${f[12]}]:-}" == "$group" ]] || fail "$what: group ${f[12]} is '${name_of[group,${f[12]}]:-}', expected $group"
    [[ "${name_of[job-name,${f[13]}]:-}" == "$name" ]] || fail "$what: job name ${f[13]} is '${name_of[job-name,${f[13]}]:-}', expected $name"
    [[ "${name_of[partition,${f[15]}]:-}" == "$part" && ${f[14]} == "${f[15]}" ]] ||
        fail "$what: queue ${f[14]}, partition ${f[15]} ('${name_of[partition,${f[15]}]:-}'), expected $part"
    checked=$((checked + 1))
done <"$expect"
echo "checked $checked SWF jobs field by field against the submitted shapes"
awk '!/^;/' "$swf" | head -n 5

# ---------------------------------------------------------------- simulate
step "4. slasim run on the converted trace and on the dump"
for trace in "$swf" "$dump"; do
    db="$work/$(basename "$trace").sqlite"
    "$slasim" run --trace "$trace" --whole-log --capacity 8 --strategy easy --strategy conservative --failures none \
        --db "$db" >"$db.out" 2>&1 || { cat "$db.out"; fail "slasim run --trace $trace failed"; }
    "$slasim" query --db "$db" --csv "SELECT * FROM jobs ORDER BY strategy, job" >"$db.jobs.csv"
done
cat "$swf.sqlite.out"
rows=$(($(wc -l <"$swf.sqlite.jobs.csv") - 1))
((rows > 0)) || fail "the simulation stored no jobs"
cmp -s <(cut -d, -f2- "$swf.sqlite.jobs.csv") <(cut -d, -f2- "$dump.sqlite.jobs.csv") || # run_id hashes the trace name
    fail "runs on the dump and on its conversion differ"
echo "simulated: $rows job rows, equal for --trace converted.swf and --trace dump.sacct"
# The planning-based strategies on the converted trace (PDFs from the trace itself: it has no history).
"$slasim" run --trace "$swf" --whole-log --capacity 8 --strategy conservative-backfilling \
    --strategy heuristic-overbooking --pof-max 0.3 --oracle-pdfs --failures none --db "$work/planning.sqlite" |
    grep -E '^(strategy|conservative-backfilling|heuristic-overbooking) ' | head -n 3 ||
    fail "slasim run with planning strategies on $swf failed"

# ---------------------------------------------------------------- native
step "5. the dump as a native Slurm workload on this cluster's own slurm.conf"
"$slasim" slurm conf --slurm-conf "$SLURM_CONF" >"$work/conf.out" || { cat "$work/conf.out"; fail "slasim slurm conf refused this cluster's slurm.conf"; }
grep -E '^PartitionName=|^# partition |^# ignored|^#   line ' "$work/conf.out"
grep -q '^PartitionName=batch ' "$work/conf.out" || fail "slasim slurm conf does not print partition batch as a slurm.conf line"
grep -q '^# partition batch ' "$work/conf.out" || fail "slasim slurm conf does not sum up partition batch"
grep -q '^#   line [0-9]*: SlurmctldHost$' "$work/conf.out" || fail "slasim slurm conf does not list SlurmctldHost as ignored"
native_db="$work/native.sqlite"
"$slasim" slurm run --slurm-conf "$SLURM_CONF" --trace "$work/dump-native.sacct" --db "$native_db" >"$work/native.out" 2>&1 ||
    { cat "$work/native.out"; fail "slasim slurm run on the native dump failed"; }
cat "$work/native.out"
# Every job that started is a native job (the SWF conversion also keeps the
# jobs cancelled before they started, with wait −1).
started="$(awk '!/^;/ && $3 != -1 { n++ } END { print n + 0 }' "$swf")"
native="$("$slasim" query --db "$native_db" --csv "SELECT count(*) FROM slurm_jobs" | tail -n1)"
[[ "$native" == "$started" ]] || fail "the native dump has $native jobs, the SWF conversion $started that started"
partitions="$("$slasim" query --db "$native_db" --csv "SELECT DISTINCT partition FROM slurm_jobs ORDER BY 1" | tail -n +2 | paste -sd,)"
[[ "$partitions" == batch,debug ]] || fail "native jobs in partitions '$partitions', expected batch,debug"
echo "native: $native jobs (as many as started), partitions $partitions"
"$slasim" slurm compare --slurm-conf "$SLURM_CONF" "$work/dump-native.sacct" --min-in-order 0 | head -n 5 ||
    fail "slasim slurm compare on the native dump failed"

echo
echo "slurm accounting test passed in $(($(date +%s) - t0)) s"
