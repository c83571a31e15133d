#!/bin/sh
# Log lines of a known layout with no code but a telling wording (issue
# 21): their records rest on the words after the recipient (and status),
# read by the same matcher as a pasted text without a code: a provider's
# entry its phrase picks (Exim's "Unrouteable address", an entry that
# leaves the reason to the words, so they decide: hostunknown), else the
# reason alone.  The reason brings its verdict when the line says the
# delivery ended (status=bounced); pasted, with no code and no status,
# the same reason leaves the verdict unknown, never guessed.  A line
# whose words tell nothing gives no record.
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
expect "exim unrouteable" "$(echo "$json" | sed -n 1p | jq -c '[.reply, .verdict_from, .code, .provider.id, .reason, .suppress, .bounce]')" \
	'["Unrouteable address","words","550","exim","hostunknown",true,"hard"]'
expect "exim retry timeout" "$(echo "$json" | sed -n 2p | jq -c '[.reply, .verdict_from, .code, .reason]')" \
	'["retry timeout exceeded","phrase","5.0.0","expired"]'
expect "postfix unknown user" "$(echo "$json" | sed -n 3p | jq -c '[.reply, .verdict_from, .reason_phrase, .code, .reason, .suppress, .bounce, .severity, .side]')" \
	'["unknown user: \"x\"","words","unknown user",null,"userunknown",true,"hard",null,"delivery"]'
# the same words pasted give the same reason: one matcher (its verdict
# unknown there: nothing says the delivery ended)
expect "pasted alike" "$("$bin" -j 'unknown user: "x"' | jq -c '[.verdict_from, .reason, .suppress]')" \
	'["words","userunknown",null]'
expect "text" "$("$bin" --extract "$log" | sed -n 3p | sed 's/^[^ ]* //')" \
	"x@example.com no code; by its words: userunknown, suppress yes; reason from the words: unknown user"
expect "tsv" "$("$bin" --extract --tsv "$log" | sed -n 3p | cut -f 5-)" \
	"delivery		-	mailbox	sender	userunknown	-"
expect "annotate" "$("$bin" --annotate "$log" | sed -n 6p)" \
	"  => no code; by its words: userunknown, suppress yes; reason from the words: unknown user"
finish
