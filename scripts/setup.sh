#!/usr/bin/env bash
# Installs the Debian packages the build and tests need. Idempotent: fast when all are present.
set -euo pipefail
pkgs=(g++ cmake ninja-build clang-format libgtest-dev libgmock-dev libbenchmark-dev
      libtomlplusplus-dev libcli11-dev libfmt-dev nlohmann-json3-dev
      libopenmpi-dev openmpi-bin libpcap-dev tshark
      pybind11-dev python3-dev python3-pybind11 python3-pytest jupyter-nbconvert python3-ipykernel
      python3-matplotlib python3-numpy python3-pandas  # `dcqcn report`, under /usr/bin/python3
      python3-optuna python3-scipy python3-sklearn)  # `dcqcn tune`
# Never add libboost1.81-dev: it conflicts with Boost 1.74 and removes python3-matplotlib.
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""; [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
