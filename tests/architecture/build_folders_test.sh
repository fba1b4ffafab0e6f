#!/usr/bin/env bash
# The test command builds in folders of its own: never the build/ of the README's first command,
# which it would reconfigure (-DDCQCN_WERROR=ON) and so rebuild from scratch (issue 28, item 11).
set -euo pipefail
cd "$(dirname "$0")/../.."
user=$(grep -m1 -oE 'cmake -S \. -B [^ ]+' README.md | awk '{print $NF}')
[[ -n $user ]] || { echo "README.md: no 'cmake -S . -B DIR' in its set-up command"; exit 1; }
mapfile -t ours < <(grep -oE '(-B|--test-dir|--build) [^ ]+' scripts/test.sh | awk '{print $2}' | sort -u)
[[ ${#ours[@]} -gt 0 ]] || { echo "scripts/test.sh: no build folder found"; exit 1; }
for dir in "${ours[@]}"; do
  if [[ $dir == "$user" ]]; then
    echo "scripts/test.sh builds in $dir, the README's own build folder"; exit 1
  fi
done
echo "README builds in $user; scripts/test.sh in ${ours[*]}"
