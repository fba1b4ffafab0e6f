# Sourced by bench/reference.sh and bench/compare.sh: copies HPCC ns-3's fat-tree benchmark
# (examples/hpcc, or HPCC_FORMAT_DIR) into folder $1 and sets `config` to its config
# path there: the whole case, or with $2 = 1 only the flows arriving in the first 0.5 ms (365
# flows), for quick checks.
prepare_hpcc_case() {
  local work=$1 small=$2
  local src=${HPCC_FORMAT_DIR:-$here/examples/hpcc}
  cp -r "$src/." "$work/" && chmod -R u+w "$work"
  config=mix/config_fat_ws30_5ms_dcqcn.txt
  if ((small)); then
    (cd "$work" && /usr/bin/python3 - <<'PY'
lines = open('mix/ws_320_30_5ms.txt').read().split('\n')
flows = [l for l in lines[1:] if l.strip() and float(l.split()[5]) < 2.0005]
open('mix/ws_small.txt', 'w').write('%d\n' % len(flows) + '\n'.join(flows) + '\n')
cfg = open('mix/config_fat_ws30_5ms_dcqcn.txt').read()
open('mix/config_small.txt', 'w').write(cfg.replace('mix/ws_320_30_5ms.txt', 'mix/ws_small.txt'))
PY
    )
    config=mix/config_small.txt
  fi
}
