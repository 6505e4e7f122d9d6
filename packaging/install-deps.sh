#!/usr/bin/env bash
# Installs everything SegStudio needs to build, test and run on Debian 12.
# Idempotent: packages already present are left alone. Works as root or through sudo.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  qt6-base-dev qt6-qpa-plugins qt6-svg-dev libgl-dev
  libqcustomplot-dev libqcustomplot2.1-qt6
  libtorch-dev libgloo-dev
  libopencv-dev libpng-dev libdeflate-dev
  libonnx-dev libprotobuf-dev python3-onnx
  nlohmann-json3-dev libcli11-dev
  python3-torch python3-numpy python3-pil
  xvfb xauth fonts-dejavu-core
  librsvg2-bin desktop-file-utils shared-mime-info dpkg-dev binutils
  # The suite's real launchers (issue 64): a one-node SLURM cluster and two hosts in network
  # namespaces, both started by the tests themselves, in their own folders.
  slurmctld slurmd slurm-client munge iproute2
  # Training on another machine (issue 64.2): ssh and rsync; the tests' far side is an sshd.
  openssh-client rsync openssh-server
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# munge, SLURM and sshd are for the tests, which start their own daemons: the packages must not
# start the system's (a policy-rc.d that says "no" for this install only, where none is set).
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod +x "$policy"
  trap '$sudo rm -f "$policy"' EXIT
fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
