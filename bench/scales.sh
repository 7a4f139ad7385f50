#!/usr/bin/env bash
# The peer benchmark at 1M, 5M and 10M synthetic events: each store is
# synthesized once (kept under $STORES), then the registry runs on the
# native engine, DuckDB and PostgreSQL, every answer checked equal before
# timing. Each run's table, with the load average before and after, goes
# to $OUT/peers-<events>-<run>.txt.
#
#   bench/scales.sh [OUT] [STORES]     RUNS=2 SCALES="1000000 5000000 10000000"
#
# Needs the duckdb-tagged binary (built here) and postgresql-15 (Debian).
set -euo pipefail
out=${1:-bench-results}
stores=${2:-st}
runs=${RUNS:-1}
scales=${SCALES:-"1000000 5000000 10000000"}
mkdir -p "$out" "$stores"
go build -tags duckdb -o bin/tgms-duckdb ./cmd/tgms
for n in $scales; do
  st="$stores/synth$n"
  if [ ! -d "$st" ]; then
    bin/tgms-duckdb synth --store "$st" --events "$n" --seed 1 --corrections 0.01 --no-sync
  fi
  # Fewer rounds at the larger scales: the slowest PostgreSQL queries take
  # tens of seconds each there. Every answer is still checked first.
  flags="--warmups 2 --reps 15 --min-reps 3 --budget 20s"
  if [ "$n" -ge 5000000 ]; then flags="--warmups 0 --reps 3 --min-reps 1 --budget 10s"; fi
  for r in $(seq 1 "$runs"); do
    f="$out/peers-$n-$r.txt"
    { echo "loadavg before: $(cat /proc/loadavg)"
      /usr/bin/time -f "wall %e s, max RSS %M KiB (tgms and DuckDB; PostgreSQL is a separate server)" \
        bin/tgms-duckdb bench --store "$st" --vs duckdb,postgres $flags 2>&1
      echo "loadavg after: $(cat /proc/loadavg)"; } > "$f" 2>&1 || { cat "$f"; exit 1; }
    cat "$f"
  done
done
