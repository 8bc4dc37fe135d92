#!/bin/bash
# stop.sh DIR - stops the daemons tests/slurm/start.sh DIR started (by their pid files:
# nothing else), waiting up to 10 s for each.
dir=${1:?usage: stop.sh DIR}
for daemon in slurmd slurmctld munged; do
    pidfile=$dir/$daemon.pid
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
done
exit 0
