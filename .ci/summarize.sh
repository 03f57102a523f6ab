#!/usr/bin/env bash
# Prints one plain closing line, "N passed, N failed", from the vitest summaries in a test log.
log="$1"
sed -E 's/\x1b\[[0-9;]*m//g' "$log" | awk '
  /^[^ ]*:?test: +Tests +/ || /^ +Tests +/ {
    for (i = 1; i <= NF; i++) {
      if ($(i+1) ~ /^passed/) passed += $i
      if ($(i+1) ~ /^failed/) failed += $i
    }
  }
  END { printf "Tests: %d passed, %d failed\n", passed, failed }'
