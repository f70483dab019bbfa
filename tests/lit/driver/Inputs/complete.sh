# Runs the bash completion function for a command line as bash would at the end of it,
# and prints the candidates one a line. COMP_WORDS is split the way readline splits it:
# at blanks, and at each character of COMP_WORDBREAKS ('=' and ':' among them), the
# breaking character a word of its own.
# usage: bash complete.sh SCRIPT 'fabc build --emit=b'
source "$1"
line=$2
COMP_LINE=$line
COMP_POINT=${#line}
COMP_WORDS=()
word=
for ((i = 0; i < ${#line}; i++)); do
  c=${line:i:1}
  if [[ $c == " " ]]; then
    [[ -n $word ]] && COMP_WORDS+=("$word")
    word=
  elif [[ $c == "=" || $c == ":" ]]; then
    [[ -n $word ]] && COMP_WORDS+=("$word")
    COMP_WORDS+=("$c")
    word=
  else
    word+=$c
  fi
done
# The word under the cursor, empty after a blank.
COMP_WORDS+=("$word")
[[ -z $word && ${line: -1} == "=" ]] && COMP_WORDS[-1]=""
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
compopt() { :; } # only inside a real completion
_fabc
printf '%s\n' "${COMPREPLY[@]}"
