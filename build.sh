#!/usr/bin/env bash
# Set up the project (virtual environment with pinned packages) and run a job:
#   ./build.sh          build every example FMU into fmus/ and verify them against the reference models
#                       (results/verification.html, CSV files and plots in results/)
#   ./build.sh test     run the test suite on every core (builds missing or stale FMUs itself)
#   ./build.sh bench    benchmark FMU build and runs (results/benchmark.md), MuJoCo beside our loop
#                       (results/peers.md), and fmpy's co-simulation beside our loop (results/importers.md)
#   ./build.sh docs     build the documentation site from docs/ (MkDocs, mkdocs.yml) into site/
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "creating .venv" >&2
  "$PYTHON" -m venv .venv
fi
echo "installing the nonholonomic package and its pinned dependencies" >&2
# with the optional peers (MuJoCo, for bench --peers and its tests) and docs (MkDocs, for ./build.sh docs and the
# test that builds the site)
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[peers,docs]" 2>&1 | grep -v -i "warning" >&2 || true
.venv/bin/python -c "import nonholonomic, casadi, rumoca, fmpy, mujoco, mkdocs, mkdocstrings_handlers.python" || { echo "error: installation failed" >&2; exit 1; }
case "${1:-all}" in
  all)
    .venv/bin/nonholonomic build
    .venv/bin/nonholonomic verify --out results
    ;;
  test)
    # every test (pyproject's default run leaves out those marked slow), on every core (pytest-xdist); the FMUs
    # are built once, under a lock, where not up to date
    .venv/bin/python -m pytest -q -n auto -m "slow or not slow"
    ;;
  bench)
    .venv/bin/nonholonomic bench --out results
    .venv/bin/nonholonomic bench --peers --out results
    .venv/bin/nonholonomic bench --importers --out results
    ;;
  docs)
    NO_MKDOCS_2_WARNING=1 .venv/bin/python -m mkdocs build --strict
    echo "documentation: site/index.html" >&2
    ;;
  *)
    echo "error: unknown job '$1' (all, test, bench or docs)" >&2
    exit 2
    ;;
esac
