#!/usr/bin/env bash
# Once, not in CI: cargo-semver-checks on the generated crates of consecutive goal versions,
# for the comparison with schemac's Rust API class in README.md ("Schema versions").
#
#   cargo install cargo-semver-checks --version 0.51.0 --locked --root target/semver-checks/root
#   tests/history/semver-checks.sh v01 v02 v03 ...   # the versions, in order
#
# Each version's crate is generated into target/semver-checks/crates/vNN/ by `schemac codegen`
# (a scratch repository per version: schemac.toml, schemas/goal.json); its schemac-runtime
# dependency is pointed at this repository's runtime by absolute path, and it is made a
# workspace of its own. Then every consecutive pair is checked with
# `cargo semver-checks check-release --baseline-root OLD --manifest-path NEW/Cargo.toml`.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$repo/target/semver-checks
semver=$work/root/bin/cargo-semver-checks
schemac=$repo/target/debug/schemac
cargo build -q -p schemac-cli
mkdir -p "$work/crates" "$work/results"
for v in "$@"; do
  dir=$work/crates/$v
  rm -rf "$dir"; mkdir -p "$dir/schemas"
  cp "$repo"/tests/history/goal/"$v"-*.json "$dir/schemas/goal.json"
  cat > "$dir/schemac.toml" <<TOML
[crate]
name = "goal-types"
version = "0.1.0"
description = "The goal schema, version $v"
output = "goal-types"
pages = false

[schemas]
roots = ["schemas"]

[schema."schemas/goal.json"]
root-name = "Goal"
TOML
  (cd "$dir" && "$schemac" codegen --no-cache > /dev/null)
  manifest=$dir/goal-types/Cargo.toml
  sed -i "s|^schemac-runtime = .*|schemac-runtime = { version = \"0.1.0\", path = \"$repo/crates/schemac-runtime\" }|" "$manifest"
  printf '\n[workspace]\n' >> "$manifest"
done
[ -n "${GENERATE_ONLY:-}" ] && exit 0
prev=
for v in "$@"; do
  if [ -n "$prev" ]; then
    out=$work/results/$prev-$v.txt
    start=$(date +%s)
    set +e
    (cd "$work/crates/$v/goal-types" && CARGO_TARGET_DIR=$work/target "$semver" semver-checks check-release \
      --baseline-root "$work/crates/$prev/goal-types" --manifest-path Cargo.toml) > "$out" 2>&1
    rc=$?
    set -e
    echo "$prev -> $v: exit $rc in $(( $(date +%s) - start )) s; $(grep -E 'Summary' "$out" | head -1)"
  fi
  prev=$v
done
