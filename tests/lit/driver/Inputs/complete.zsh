# Types a command line and a Tab into an interactive zsh (on a pseudo-terminal, zsh/zpty)
# whose fpath holds the completion, and prints what zsh shows until PATTERN appears
# (exit 1 if it does not within 30 s).
# usage: zsh -f complete.zsh DIR 'fabc build --emi' PATTERN
zmodload zsh/zpty
setopt extendedglob
readUntil() {
  local deadline=$((SECONDS + 30)) chunk
  out=
  while ((SECONDS < deadline)); do
    if zpty -r -t z chunk; then
      out+=${chunk//$'\e'\[[0-9;?]#[a-zA-Z]/} # without the terminal's escapes
      [[ $out == $~1 ]] && return 0
    else
      sleep 0.1
    fi
  done
  return 1
}
zpty z 'TERM=dumb zsh -f -i'
zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; PROMPT='> '; print RE''ADY"
readUntil '*READY*> *' || { print -r -- "$out"; exit 1; }
zpty -w -n z "$2"$'\t'
readUntil "$3"
rc=$?
print -r -- "$out"
zpty -d z
exit $rc
