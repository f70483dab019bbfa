#!/bin/sh
# Runs the real pre-commit, offline, on a sample git repository that uses the hooks of
# the fabc repository's .pre-commit-hooks.yaml (copied into a local hooks repository,
# as a clone of fabc would serve them). Prints what happened, step by step.
# usage: run.sh SRC_ROOT WORKDIR
set -u
src=$1
t=$2
rm -rf "$t" && mkdir -p "$t/home" "$t/hooks" "$t/repo"
export HOME="$t/home" PRE_COMMIT_HOME="$t/cache" GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
git config --global init.defaultBranch main
git config --global advice.detachedHead false

cd "$t/hooks" && git init -q . && cp "$src/.pre-commit-hooks.yaml" . && git add . && git commit -qm hooks
rev=$(git rev-parse HEAD)

cd "$t/repo" && git init -q .
cat > .pre-commit-config.yaml <<CFG
repos:
  - repo: $t/hooks
    rev: $rev
    hooks:
      - id: fabc-check
      - id: fabc-fmt
CFG
cp "$src/tests/lit/Inputs/models.fab" models.fab
cat > good.fab <<'FAB'
import "models.fab";
fabric good {
  leaf : SW400 { tier = "leaf"; };
  srv : Node4;
  for n in 0 .. 4 {
    link srv.nic[n] -- leaf { length = 3 m; };
  }
}
FAB
fabc fmt -i models.fab
git add . && git commit -qm "a good design" --no-verify

step() { echo "== $1"; }
step "run on a clean tree"
pre-commit run --all-files --color=never; echo "exit $?"

step "a design with an error"
printf 'import "models.fab";\nfabric bad {\n  leaf : NoSuchSwitch;\n}\n' > bad.fab
git add bad.fab
pre-commit run --files bad.fab --color=never; echo "exit $?"

step "the installed hook refuses the commit"
pre-commit install -f >/dev/null
git commit -qm "bad" >commit.log 2>&1; echo "exit $?"
cat commit.log
git log --format=%s -1

step "the fixed file, unformatted: fmt rewrites it and fails once"
printf 'import "models.fab";\nfabric bad{leaf:SW400{tier="leaf";};}\n' > bad.fab
git add bad.fab
git commit -qm "fixed" >commit.log 2>&1; echo "exit $?"
cat commit.log
cat bad.fab

step "added again, the commit passes"
git add bad.fab
git commit -qm "fixed" >commit.log 2>&1; echo "exit $?"
cat commit.log
git log --format=%s -1
