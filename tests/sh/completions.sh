#!/bin/sh
# The bash, zsh and fish completions: valid syntax, and they offer options,
# field names and the provider names the program knows.
# usage: completions.sh SMTPCODE COMPLETIONS-DIR
set -u
bin=$1
dir=$2
PATH=$(dirname "$bin"):$PATH
export PATH
fails=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# bash: COMPREPLY for a few command lines.
complete_bash() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
		_smtpcode; printf "%s\n" "${COMPREPLY[@]}"' _ "$dir/smtpcode.bash" "$@"
}
complete_bash smtpcode --provider g | grep -qx gmail && ok || bad "bash: --provider g"
complete_bash smtpcode -f sup | grep -qx suppress && ok || bad "bash: -f sup"
complete_bash smtpcode --js | grep -qx -- --json && ok || bad "bash: --js"
complete_bash smtpcode --color ne | grep -qx never && ok || bad "bash: --color ne"

if command -v zsh >/dev/null; then
	zsh -n "$dir/_smtpcode" && ok || bad "zsh: syntax"
	grep -q "providers --tsv" "$dir/_smtpcode" && ok || bad "zsh: providers"
else
	bad "zsh is not installed (apt-get install zsh)"
fi

if command -v fish >/dev/null; then
	fish -n "$dir/smtpcode.fish" && ok || bad "fish: syntax"
	out=$(fish -c "source '$dir/smtpcode.fish'; complete -C 'smtpcode --provider g'")
	echo "$out" | grep -q '^gmail' && ok || bad "fish: --provider g: $out"
	out=$(fish -c "source '$dir/smtpcode.fish'; complete -C 'smtpcode --field sev'")
	echo "$out" | grep -q '^severity' && ok || bad "fish: --field sev: $out"
else
	bad "fish is not installed (apt-get install fish)"
fi

echo "completions: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
