#!/usr/bin/env bash
# The demo's "test suite": prints its marker only when every assertion passed.
set -euo pipefail
out=$(node src/greet.js Ada)
[ "$out" = "Hello, Ada!" ] || { echo "unexpected greeting: $out"; exit 1; }
echo "GREET-TESTS-OK"
