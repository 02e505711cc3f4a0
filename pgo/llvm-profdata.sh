#!/usr/bin/env bash
# Prints the path of the llvm-profdata that merges this rustc's raw profiles:
# the toolchain's own (rustup's llvm-tools component, added here when
# missing), whose LLVM is rustc's. A distribution's llvm-profdata of another
# LLVM major version cannot read rustc's raw profiles (Debian 12's LLVM 14
# against rustc 1.95's LLVM 22), so none is looked for elsewhere.
set -euo pipefail
sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata=$sysroot/lib/rustlib/$host/bin/llvm-profdata
if [ ! -x "$profdata" ]; then
  echo "pgo: adding rustup's llvm-tools component (llvm-profdata)" >&2
  rustup component add llvm-tools >&2
fi
[ -x "$profdata" ] || { echo "pgo: no llvm-profdata at $profdata (rustup component add llvm-tools)" >&2; exit 1; }
echo "$profdata"
