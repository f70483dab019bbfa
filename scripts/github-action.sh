#!/usr/bin/env bash
# The logic of the GitHub Action (action.yml at the repository root), runnable anywhere:
# makes sure a fabc is on PATH (the one there, else the .deb in FABC_ACTION_DEB, else a
# build of this source tree), runs `fabc check` on the tracked designs with the SARIF log
# written to a file, and reports the log's path and the exit status as step outputs.
#
# Environment (the action's inputs):
#   FABC_ACTION_FILES  git pathspecs of the designs (default "*.fab")
#   FABC_ACTION_ARGS   more options for fabc check (split at blanks)
#   FABC_ACTION_SARIF  the SARIF log's path (default fabc.sarif)
#   FABC_ACTION_DEB    a .deb to install when no fabc is on PATH
#   GITHUB_OUTPUT      where step outputs go (GitHub sets it; default: stdout)
# Exits 0 once the log is written, whatever fabc found (the action decides whether
# errors fail the job, after the upload); 2 if fabc could not be run.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
files=${FABC_ACTION_FILES:-*.fab}
sarif=${FABC_ACTION_SARIF:-fabc.sarif}
out=${GITHUB_OUTPUT:-/dev/stdout}

if ! command -v fabc >/dev/null; then
  if [ -n "${FABC_ACTION_DEB:-}" ]; then
    sudo=""
    [ "$(id -u)" != 0 ] && sudo=sudo
    $sudo apt-get install -y -qq "$(realpath "$FABC_ACTION_DEB")" >/dev/null || {
      echo "fabc action: cannot install $FABC_ACTION_DEB" >&2
      exit 2
    }
  else
    echo "fabc action: no fabc on PATH and no deb input: building $here" >&2
    cmake -S "$here" -B "$here/build-action" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFABC_TESTS=OFF >/dev/null &&
      cmake --build "$here/build-action" --target fabc >/dev/null || {
      echo "fabc action: the build failed (install the build dependencies: scripts/setup-debian.sh)" >&2
      exit 2
    }
    PATH="$here/build-action/tools/fabc:$PATH"
  fi
fi

# The designs: the tracked files matching the pathspecs (word-split on purpose).
# shellcheck disable=SC2086
set -f # the pathspecs are git's to match, not the shell's
mapfile -t designs < <(git ls-files -z -- $files | tr '\0' '\n')
set +f
if [ ${#designs[@]} -eq 0 ]; then
  echo "fabc action: no tracked file matches '$files'" >&2
  exit 2
fi
# shellcheck disable=SC2086
fabc check --diagnostics-format=sarif --diagnostics-output="$sarif" ${FABC_ACTION_ARGS:-} -- "${designs[@]}"
status=$?
if [ ! -s "$sarif" ]; then
  echo "fabc action: fabc check wrote no SARIF log (exit $status)" >&2
  exit 2
fi
{
  echo "sarif-file=$sarif"
  echo "exit-code=$status"
} >> "$out"
echo "fabc action: checked ${#designs[@]} design(s), exit $status, log $sarif" >&2
exit 0
