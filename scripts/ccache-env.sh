# Sourced by setup-debian.sh, test.sh and fuzz.sh: when ccache is installed, compile through
# it, with paths made relative to the checkout, so that a second checkout of the same
# sources (a worktree, CI's clean clone on a machine that built before) reuses the objects.
# CCACHE_LAUNCHER is empty without ccache; FABC_CCACHE=0 turns it off.
CCACHE_LAUNCHER=()
if [ "${FABC_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
  CCACHE_LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
