#!/bin/sh
# Colour follows one rule in every text view (issue 22): the severity word
# alone, success green (ESC[32m), temporary yellow (ESC[33m), permanent red
# (ESC[31m), each ended by ESC[0m, the same in the full entry, -b, --list,
# --search, --extract's text record, --annotate's verdict line, --summary's
# text and --mail's text view.  Colour only adds those sequences: without
# them the output is byte for byte the one --color=never writes (so the
# columns of -b and --summary keep their widths).  Never in JSON, TSV or a
# field, and --color=never writes none anywhere.
# usage: color.sh SMTPCODE
set -u
bin=$1
name=color
. "$(dirname "$0")/lib.sh"
logs=$(dirname "$0")/../logs
mail=$(dirname "$0")/../mail

esc=$(printf '\033')
red="${esc}[31m"
green="${esc}[32m"
yellow="${esc}[33m"
off="${esc}[0m"

# has WHAT TEXT FRAGMENT: TEXT holds FRAGMENT (escape sequences and all).
has() {
	case "$2" in
	*"$3"*) ok ;;
	*) bad "$1: lacks '$(printf '%s' "$3" | cat -v)'; got:
$(printf '%s\n' "$2" | cat -v | head -20)" ;;
	esac
}

# line WHAT TEXT N WANT: line N of TEXT is WANT exactly.
line() {
	got=$(printf '%s\n' "$2" | sed -n "$3p")
	[ "$got" = "$4" ] && ok || bad "$1: line $3 is '$(printf '%s' "$got" | cat -v)', want '$(printf '%s' "$4" | cat -v)'"
}

# plain WHAT TEXT: TEXT holds no escape sequence.
plain() {
	case "$2" in
	*"$esc"*) bad "$1: has an escape sequence:
$(printf '%s\n' "$2" | grep "$esc" | cat -v | head -5)" ;;
	*) ok ;;
	esac
}

# views WHAT ARGS...: with --color=always, the output without its colour
# sequences is what --color=never writes, which has none; the output of
# --color=always is left in $out.
views() {
	what=$1
	shift
	out=$("$bin" --color=always "$@" 2>&1)
	never=$("$bin" --color=never "$@" 2>&1)
	plain "$what --color=never" "$never"
	stripped=$(printf '%s\n' "$out" | sed "s/${esc}\[[0-9]*m//g")
	[ "$stripped" = "$never" ] && ok ||
		bad "$what: --color=always without its colour is not --color=never's output"
}

# The full entry: the reference the other views follow.
views "entry" 5.1.1
has "entry" "$out" "  Severity   ${red}permanent${off} ("
views "entry temporary" 4.2.2
has "entry temporary" "$out" "  Severity   ${yellow}temporary${off} ("
views "entry success" 250
has "entry success" "$out" "  Severity   ${green}success${off} ("
# A class-independent code: each class's severity word.
views "topic" X.3.1
has "topic" "$out" "  As 4.3.1   ${yellow}temporary${off}: "
has "topic" "$out" "  As 5.3.1   ${red}permanent${off}: "
views "topic wrapped" -w 50 X.3.1

# -b: the word coloured, its column padded as before.
# (Codes one by one: "4.2.2 250" would be read as one reply.)
views "-b" -b 5.1.1 4.2.2
line "-b" "$out" 1 "5.1.1     ${red}permanent${off}  Bad destination mailbox address"
line "-b" "$out" 2 "4.2.2     ${yellow}temporary${off}  Mailbox full"
views "-b success" -b 250
line "-b success" "$out" 1 "250       ${green}success${off}    Requested mail action okay, completed"
views "-b no severity" -b X.2.2
line "-b no severity" "$out" 1 "X.2.2     -          Mailbox full"

# --list and --search: the -b line.
views "--list" --list '4.2.*'
has "--list" "$out" "4.2.2     ${yellow}temporary${off}  Mailbox full"
views "--search" --search mailbox full
has "--search" "$out" "5.2.2     ${red}permanent${off}  Mailbox full"
has "--search" "$out" "4.2.2     ${yellow}temporary${off}  Mailbox full"

# --extract's text record.
views "--extract" --extract "$logs/postfix.log"
line "--extract" "$out" 1 "$logs/postfix.log:1: ann@example.com 4.2.2 ${yellow}temporary${off} (mailbox): Mailbox full; retry auto, suppress no"
line "--extract" "$out" 3 "$logs/postfix.log:3: cat@example.net 2.0.0 ${green}success${off} (message): Other undefined Status; retry none, suppress no"
has "--extract" "$out" "bob@example.org 5.7.1 ${red}permanent${off} (message): "
has "--extract final" "$out" "kim@example.net 4.4.1 ${yellow}temporary${off}, final (network): "
# One worker and several: the verdict rendered once per verdict (logs.c)
# is coloured alike.
many=$(SMTPCODE_WORKERS=4 "$bin" --color=always --extract "$logs/postfix.log")
[ "$many" = "$out" ] && ok || bad "--extract: four workers colour otherwise than one"
# A record without a code has no severity: nothing coloured.  (Line 1's
# words, "Unrouteable address", decide hostunknown, which brings its
# verdict.)
views "--extract words" --extract "$logs/words.log"
line "--extract words" "$out" 1 "$logs/words.log:1: u@bad.example 550 ${red}permanent${off} (domain): Recipient address cannot be routed; retry never, suppress yes [exim]; reason from the words: unrouteable address"
plain "--extract words, no code" "$(printf '%s\n' "$out" | sed -n 3p)"

# --annotate: the verdict line under each log line.
views "--annotate" --annotate "$logs/postfix.log"
line "--annotate" "$out" 2 "  => 4.2.2 ${yellow}temporary${off} (mailbox): Mailbox full; retry auto, suppress no"
line "--annotate" "$out" 4 "  => 5.7.1 ${red}permanent${off} (message): Delivery not authorized, message refused; retry after-fix, suppress no; reason from the words: rejected as spam"

# --summary's text: the severity column of "By code".
views "--summary" --summary "$logs/postfix.log"
has "--summary" "$out" "        2           2  2.0.0    ${green}success${off}    Other undefined Status"
has "--summary" "$out" "        2           2  4.4.1    ${yellow}temporary${off}  No answer from host"
has "--summary" "$out" "        2           2  5.1.1    ${red}permanent${off}  Bad destination mailbox address"

# --mail's text view: the entry of each recipient's code; -b (the
# --extract text record, or the entry until it is) alike.
views "--mail" --mail "$mail/dsn-base64.eml"
has "--mail" "$out" "  Severity   ${red}permanent${off} ("
views "--mail -b" --mail -b "$mail/dsn-base64.eml"
has "--mail -b" "$out" "${red}permanent${off} ("

# Never in JSON, TSV or a field, whatever --color says.
for args in "-j 5.1.1" "-t 5.1.1" "-f severity 5.1.1" "-t --list 4.2.*" \
	"-j --search mailbox full" "-q 5.1.1"; do
	# shellcheck disable=SC2086 # the words of args are the arguments
	plain "--color=always $args" "$("$bin" --color=always $args 2>&1)"
done
for mode in --extract --annotate --summary; do
	plain "--color=always $mode -j" "$("$bin" --color=always "$mode" -j "$logs/postfix.log" 2>&1)"
done
plain "--color=always --extract -t" "$("$bin" --color=always --extract -t "$logs/postfix.log" 2>&1)"
plain "--color=always --extract -f severity" "$("$bin" --color=always --extract -f severity "$logs/postfix.log" 2>&1)"
plain "--color=always --extract -f file" "$("$bin" --color=always --extract -f file "$logs/postfix.log" 2>&1)"
plain "--color=always --mail -j" "$("$bin" --color=always --mail -j "$mail/dsn-base64.eml" 2>&1)"
plain "--color=always --mail -t" "$("$bin" --color=always --mail -t "$mail/dsn-base64.eml" 2>&1)"
# --color=auto off a terminal (a pipe here): none.
plain "--color=auto --extract" "$("$bin" --color=auto --extract "$logs/postfix.log")"
plain "--color=auto -b" "$("$bin" --color=auto -b 5.1.1)"
finish
