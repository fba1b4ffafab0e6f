# Sourced by the benchmarks that time whole commands.
# wall COMMAND...: runs it (output discarded) and prints its wall time in seconds.
wall() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
# median: the median of the numbers on stdin, one a line.
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
