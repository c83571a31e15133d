#!/bin/sh
# Log lines of a known layout with no code but a telling wording (issue
# 21): their records rest on the words after the recipient (and status),
# read by the same matcher as a pasted text without a code: a provider's
# entry its phrase picks (Exim's "Unrouteable address"), else the reason
# alone, its verdict's fields unknown, never guessed; a line whose words
# tell nothing gives no record.
# usage: words.sh SMTPCODE
set -u
bin=$1
name=words
. "$(dirname "$0")/lib.sh"
log=$(dirname "$0")/../logs/words.log

expect() {
	[ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"
}

json=$("$bin" --extract --json "$log")
expect "records" "$(echo "$json" | jq -r .line | tr '\n' ' ')" "1 2 3 "
expect "exim unrouteable" "$(echo "$json" | sed -n 1p | jq -c '[.reply, .verdict_from, .code, .provider.id]')" \
	'["Unrouteable address","phrase","550","exim"]'
expect "exim retry timeout" "$(echo "$json" | sed -n 2p | jq -c '[.reply, .verdict_from, .code, .reason]')" \
	'["retry timeout exceeded","phrase","5.0.0","expired"]'
expect "postfix unknown user" "$(echo "$json" | sed -n 3p | jq -c '[.reply, .verdict_from, .reason_phrase, .code, .reason, .suppress, .bounce, .severity, .side]')" \
	'["unknown user: \"x\"","words","unknown user",null,"userunknown",null,null,null,"delivery"]'
# the same words pasted give the same answer: one matcher
expect "pasted alike" "$("$bin" -j 'unknown user: "x"' | jq -c '[.verdict_from, .reason, .suppress]')" \
	'["words","userunknown",null]'
expect "text" "$("$bin" --extract "$log" | sed -n 3p | sed 's/^[^ ]* //')" \
	"x@example.com no code; by its words: userunknown; reason from the words: unknown user"
expect "tsv" "$("$bin" --extract --tsv "$log" | sed -n 3p | cut -f 5-)" \
	"delivery		-	-	-	userunknown	-"
expect "annotate" "$("$bin" --annotate "$log" | sed -n 6p)" \
	"  => no code; by its words: userunknown; reason from the words: unknown user"
finish
