#!/usr/bin/env bash
# Builds a frozen reference binary of an earlier release from a git tag (or
# any commit) for strength matches: `punct match --engine2 "cmd:$(scripts/reference.sh) engine --engine level4"`.
# Prints the binary's path. Default: level4-v1, the AI before issue 13;
# level4-v2 is the AI before issue 34.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-level4-v1}
# The tag's commit, when the clone has no tags (CI clones may not).
case "$rev" in
    level4-v1) fallback=f205d86 ;;
    # The AI before issue 34 (the selective search).
    level4-v2) fallback=d142c8d ;;
    *) fallback=$rev ;;
esac
commit=$(git rev-parse --verify -q "$rev^{commit}" || git rev-parse --verify "$fallback^{commit}")
out="target/reference/$rev"
if [ ! -x "$out/punct" ] || [ "$(cat "$out/commit" 2> /dev/null)" != "$commit" ]; then
    tree=$(mktemp -d)
    trap 'git worktree remove --force "$tree" > /dev/null 2>&1 || rm -rf "$tree"' EXIT
    git worktree add --detach -f "$tree" "$commit" > /dev/null 2>&1
    CARGO_TARGET_DIR="$PWD/target/reference/build" cargo build --release --locked -q \
        --manifest-path "$tree/Cargo.toml" -p punct-cli >&2
    mkdir -p "$out"
    cp target/reference/build/release/punct "$out/punct"
    echo "$commit" > "$out/commit"
fi
echo "$PWD/$out/punct"
