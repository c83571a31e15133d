#!/bin/sh
# The bash, zsh and fish completions: each shell's own completion is run for
# a few command lines, and the candidates it offers are checked exactly.
# usage: completions.sh SMTPCODE COMPLETIONS-DIR
set -u
bin=$1
dir=$(cd "$2" && pwd)
# The record keys: the same list the program's records are made from.
def=$dir/../src/cli/record_fields.def
PATH=$(cd "$(dirname "$bin")" && pwd):$PATH
export PATH
LC_ALL=C
export LC_ALL
fails=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The folder the lines are completed in: one log and one folder of bounces,
# so that a file operand has exactly these two candidates.
mkdir "$tmp/work" "$tmp/work/box"
: >"$tmp/work/mail.log"
cd "$tmp/work" || exit 2

# Each complete_SHELL LINE prints the candidates SHELL offers for LINE and a
# TAB, sorted, one a line, a folder without its '/'.

# bash: the completion function with the words bash would give it; bash
# splits a word at '=' (COMP_WORDBREAKS), so --color=al is --color = al.
complete_bash() {
	bash -c '. "$1"; line=${2//=/ = }; read -ra COMP_WORDS <<<"$line"
		[[ $2 == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_smtpcode; printf "%s\n" "${COMPREPLY[@]}"' _ "$dir/smtpcode.bash" "$1" |
		sed '/^$/d' | sort -u
}

# zsh: completion runs in the line editor only, so an interactive zsh on a
# pseudo-terminal (zpty) is given the line and a TAB, and prints each match
# as it is added.
cat >"$tmp/capture.zsh" <<'EOF'
zmodload zsh/zpty || exit 2
zpty z zsh -f -i
zpty -w z "PS1= PROMPT= RPROMPT=; fpath=(${(q)1} \$fpath)"
# (the dump of the first run spares the others the scan of $fpath)
zpty -w z "autoload -Uz compinit && compinit -u -d ${(q)3}"
zpty -w z 'bindkey "^I" complete-word; LISTMAX=100000'
# A mark that the terminal's echo of these lines does not hold; the shell
# ends once the completion is over.
zpty -w z "mark=MATCH\$'\\t'"
zpty -w z 'compadd() { if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi; local -a m; builtin compadd -O m "$@"; (( $#m )) && print -rl -- ${m/#/$mark}; builtin compadd "$@"; }'
zpty -w z 'comppostfuncs=(exit)'
# The line and its TAB go only once the shell has run all of the above
# and waits at its prompt (it prints READY, which the echo of the command,
# spelt ${:-RE}ADY, does not hold): typed earlier, on a loaded machine,
# they could be taken before the line editor reads them.
local line
zpty -w z 'print -r -- ${:-RE}ADY'
zpty -r z line '*READY*' || exit 2
zpty -w -n z "$2"$'\t'
while zpty -r z line; do
	line=${line//[$'\r\n']}
	[[ $line == *MATCH$'\t'* ]] && print -r -- ${line#*MATCH$'\t'}
done
EOF
complete_zsh() {
	timeout 30 zsh -f "$tmp/capture.zsh" "$dir" "$1" "$tmp/zcompdump" | sed 's,/$,,' | sort -u
}

# fish: its own completion of the line, from this folder's smtpcode.fish
# alone; it writes --color=always whole.
complete_fish() {
	fish --no-config -c "set fish_complete_path '$dir'; complete -C '$1'" |
		cut -f1 | sed 's,/$,,; s,^--[a-z]*=,,' | sort -u
}

# check SHELL LINE CANDIDATE...: SHELL offers exactly the CANDIDATEs.
check() {
	sh=$1 line=$2
	shift 2
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort -u)
	got=$(complete_$sh "$line")
	if [ "$got" = "$want" ]; then
		ok
	else
		bad "$sh: '$line<TAB>' gave [$(echo $got)], expected [$(echo $want)]"
	fi
}

# What the program itself says: -f's names are the keys of its JSON and the
# record's keys; the scopes and reasons are those of its table's entries.
if ! command -v jq >/dev/null; then
	bad "jq is not installed (apt-get install jq)"
	echo "completions: $pass passed, $fails failed"
	exit 1
fi
fields=$({ smtpcode -j 4.3.1 | jq -r 'keys[]'
	sed -n 's/^RECORD_FIELD(\([a-z_]*\),.*/\1/p' "$def"; } | sort -u)
table() {
	{ smtpcode --list -j; smtpcode --list -p all -j; } | jq -r ".$1" | sort -u
}
scopes=$(table scope)
# (vacation and feedback come from the kind of message, mailererror from
# a reply's words only, filtered from the SMTP step: no entry has them)
reasons=$(table reason; echo vacation feedback mailererror filtered)
[ -n "$fields" ] && [ -n "$scopes" ] && [ -n "$reasons" ] && ok ||
	bad "no fields, scopes or reasons from $bin"
for f in severity recipient; do
	echo "$fields" | grep -qx $f && ok || bad "-f: $f is not a field"
done

# smtpcode-probe's long options: those of the man page's PROBING A SERVER
# (tests/sh/manpage.sh holds them to the probe's --help).
probe_long=$(sed -n '/^\.SH "PROBING A SERVER"/,/^\.SH /p' "$dir/../doc/smtpcode.1" |
	sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | grep -vx -- --probe | sort -u)
for o in --rcpt --resolver --watch --no-tls; do
	echo "$probe_long" | grep -qx -- $o && ok || bad "$o is not in the man page's PROBING A SERVER"
done

for sh in bash zsh fish; do
	if ! command -v $sh >/dev/null; then
		bad "$sh is not installed (apt-get install $sh)"
		continue
	fi
	check $sh 'smtpcode --ext' --extract
	check $sh 'smtpcode --supp' --suppress --suppressions
	check $sh 'smtpcode --cou' --count
	check $sh 'smtpcode --mail --sev' --severity
	# The log and bounce modes take files and folders; a code is no file.
	check $sh 'smtpcode --extract ' box mail.log
	check $sh 'smtpcode --suppressions --severity permanent ' box mail.log
	check $sh 'smtpcode --mail --color ' box mail.log
	check $sh 'smtpcode --rules ' box mail.log
	check $sh 'smtpcode 4.3.1 '
	check $sh 'smtpcode -f ' $fields
	check $sh 'smtpcode --field rec' recipient
	check $sh 'smtpcode -p gma' gmail
	check $sh 'smtpcode --severity ' success temporary permanent
	check $sh 'smtpcode --suppress ' yes no unknown
	check $sh 'smtpcode --scope ' $scopes
	check $sh 'smtpcode --annotate --reason ' $reasons
	# --color alone means always: only --color=WHEN takes a value.
	check $sh 'smtpcode --color=' auto always never
	check $sh 'smtpcode --color=al' always
	check $sh 'smtpcode --color '
	# --probe, then smtpcode-probe's options in place of smtpcode's; its
	# target is no file.
	check $sh 'smtpcode --prob' --probe
	check $sh 'smtpcode --probe --' $probe_long
	check $sh 'smtpcode --probe -' $probe_long -j -h -V
	check $sh 'smtpcode --probe --r' --rcpt --resolver
	check $sh 'smtpcode --probe example.org --w' --watch
	check $sh 'smtpcode --probe --rcpt bob@example.org --at' --attempts
	check $sh 'smtpcode --probe --no' --no-tls
	check $sh 'smtpcode --probe --tls' --tls-on-connect
	check $sh 'smtpcode --probe --ext'
	check $sh 'smtpcode --probe --resolver '
	check $sh 'smtpcode --probe --watch 60 '
	check $sh 'smtpcode --probe '
done

bash -n "$dir/smtpcode.bash" && ok || bad "bash: syntax"
if command -v zsh >/dev/null; then
	zsh -n "$dir/_smtpcode" && ok || bad "zsh: syntax"
fi
if command -v fish >/dev/null; then
	fish -n "$dir/smtpcode.fish" && ok || bad "fish: syntax"
fi

echo "completions: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
