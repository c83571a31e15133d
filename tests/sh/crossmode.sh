#!/bin/sh
# One judgement per reply, whichever way it comes in: the same reply looked
# up (smtpcode -j 'REPLY'), read by --stdin, quoted by a DSN (--mail), by
# a Postfix and an Exim log line (--extract) and, for a reply after
# another step than RCPT TO, by a DSN as Postfix words it (the step in its
# text part only: "mail-postfix") gets the same code, reason, suppress,
# bounce and scope.  The differences the documentation gives are told
# apart, not failed:
#  (a) a DSN's Status: (a log's dsn=) is evidence a pasted reply lacks:
#      where the reply holds no specific enhanced code, a report rests on
#      it (here its code is then the class's X.0.0);
#  (b) a final report (Action: failed, status=bounced, Exim's "**") gives
#      a reply without any code its reason's verdict, where the pasted
#      reply leaves suppress (and bounce) unknown.
# Then the real bounces of the shared corpus (skipped where it is absent):
# each record whose reply holds a code judged as the lookup of that reply,
# save where the DSN's Status: is specific and differs from the reply's
# code, (a), counted apart.
# usage: crossmode.sh SMTPCODE [CORPUS-DIR]
set -u
bin=$1
corpus=${2:-}
name=crossmode
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/replies.sh"

# The inputs of every mode (replies.sh): parts, replies, log, mail/.
replies_inputs "$tmp"
n=$(wc -l < "$tmp/parts")
mkdir "$tmp/lookup"
k=0
while IFS= read -r reply; do
	k=$((k + 1))
	"$bin" -j "$reply" > "$tmp/lookup/$(printf '%03d' "$k").json" 2>/dev/null
done < "$tmp/replies"

# Every record as {i, mode, r}.
jq -c '{i: (input_filename | capture("(?<n>[0-9]+)\\.json$").n | tonumber), mode: "lookup", r: .}' \
	"$tmp"/lookup/*.json > "$tmp/all"
"$bin" --stdin -j < "$tmp/replies" 2>/dev/null |
	jq -c -s 'to_entries[] | {i: (.key + 1), mode: "stdin", r: .value}' >> "$tmp/all"
"$bin" --mail --json -- "$tmp"/mail/*.eml 2>/dev/null |
	jq -c '{i: (.file | capture("r(?<n>[0-9]+)(-postfix)?\\.eml$").n | tonumber),
		mode: (if .file | endswith("-postfix.eml") then "mail-postfix" else "mail" end), r: .}' >> "$tmp/all"
"$bin" --extract --json "$tmp/log" 2>/dev/null |
	jq -c '{i: ((.line + 1) / 2 | floor), mode: (if .line % 2 == 1 then "postfix" else "exim" end), r: .}' >> "$tmp/all"

# One line per disagreement: "REPLY | MODE: FIELD lookup=X MODE=Y", with
# "[documented (a)]" or "[documented (b)]" after the ones told apart.
jq -r -n --rawfile parts "$tmp/parts" '
	($parts | split("\n") | map(select(. != "") | split("\t")
		| {key: .[0], value: {class: .[1], enh: .[2], dsn: .[3], cmd: .[4], reply: .[6]}})
		| from_entries) as $p
	| [inputs] | group_by(.i)[] | . as $g
	| $p[$g[0].i | tostring] as $m
	| (map(select(.mode == "lookup"))[0].r // null) as $lk
	| if $lk == null then "\($m.reply) | lookup: no result" else
	  ("stdin", "mail", "postfix", "exim",
	   if $m.cmd != "RCPT TO" then "mail-postfix" else empty end) as $mode
	  | [$g[] | select(.mode == $mode)] as $recs
	  | if ($recs | length) != 1 then "\($m.reply) | \($mode): \($recs | length) records, want 1"
	    else $recs[0].r as $r
	    | ($mode == "stdin" and $r.input != $m.reply) as $shifted
	    | if $shifted then "\($m.reply) | stdin: input \($r.input | tojson)"
	      else
	      # a report final for a class 5 reply, and one that carries a Status:
	      ($mode != "stdin" and $m.class == "5") as $final
	      | ($mode == "mail" or $mode == "mail-postfix" or $mode == "postfix") as $status
	      | ($m.enh == "-" or ($m.enh | test("\\.0\\.0$"))) as $nospecific
	      | ("code", "reason", "suppress", "bounce", "scope") as $f
	      | select($r[$f] != $lk[$f])
	      | (if $lk.code == null and $final and ($f == "suppress" or $f == "bounce")
	           then " [documented (b)]"
	         elif $status and $nospecific and $f == "code" and $r.code == $m.dsn
	           then " [documented (a)]"
	         else "" end) as $doc
	      | "\($m.reply) | \($mode): \($f) lookup=\($lk[$f] | tojson) \($mode)=\($r[$f] | tojson)\($doc)"
	      end
	    end
	  end' "$tmp/all" > "$tmp/found" || bad "jq could not compare the records"

docs=$(grep -c ' \[documented (.)\]$' "$tmp/found")
grep -v ' \[documented (.)\]$' "$tmp/found" > "$tmp/bad"
while IFS= read -r line; do bad "$line"; done < "$tmp/bad"
# a pass for each reply and mode compared with the lookup (4, or 5 after
# another step than RCPT TO) that agrees
pairs=$(sed 's/^\(.* | [a-z-]*\):.*/\1/' "$tmp/bad" | sort -u | wc -l)
pass=$((pass + n * 4 + $(grep -c -v '	RCPT TO	' "$tmp/parts") - pairs))
if [ "${CROSSMODE_VERBOSE:-0}" = 1 ]; then
	grep ' \[documented (.)\]$' "$tmp/found" | sed 's/^/documented: /'
fi
echo "$name: $n replies in 5 or 6 modes: $(wc -l < "$tmp/bad") disagreements, $docs documented differences (CROSSMODE_VERBOSE=1 lists them)"

# The corpus: each record whose reply holds a code, against the lookup of
# its reply.
if [ -z "$corpus" ] || [ ! -d "$corpus/bounces" ]; then
	finish "corpus ${corpus:-(none given)} absent: its part skipped"
fi
: > "$tmp/recs"
for d in "$corpus"/bounces/*/; do
	(cd "$d" && "$bin" --mail --json -- *) 2>/dev/null |
		jq -c --arg d "$(basename "$d")" '.folder = $d' >> "$tmp/recs"
done
jq -r 'select(.reply != null and .reply != "") | .reply | gsub("[\r\n]"; " ")' "$tmp/recs" > "$tmp/creplies"
"$bin" --stdin -j < "$tmp/creplies" 2>/dev/null > "$tmp/clookups"
if [ "$(wc -l < "$tmp/creplies")" -ne "$(wc -l < "$tmp/clookups")" ]; then
	bad "corpus: $(wc -l < "$tmp/creplies") replies but $(wc -l < "$tmp/clookups") lookups"
	finish
fi
jq -r -n --slurpfile lk "$tmp/clookups" '
	[inputs | select(.reply != null and .reply != "")] as $recs
	| range(0; $recs | length) as $k
	| $recs[$k] as $r | $lk[$k] as $l
	| select($l.code != null)
	| ($r.dsn != null and ($r.dsn | test("\\.0\\.0$") | not) and $r.dsn != $l.code) as $a
	| [("reason", "suppress", "bounce") as $f | select($r[$f] != $l[$f])
	   | "\($f) lookup=\($l[$f] | tojson) mail=\($r[$f] | tojson)"] as $d
	| "\(if $d == [] then "=" elif $a then "A" else "-" end)\t\($r.folder)/\($r.file) <\($r.recipient // "")> \($r.reply | tojson) (dsn=\($r.dsn // "-"), code lookup=\($l.code) mail=\($r.code), verdict_from lookup=\($l.verdict_from // "null") mail=\($r.verdict_from // "null")): \($d | join(", "))"
	' "$tmp/recs" > "$tmp/cfound" || bad "jq could not compare the corpus's records"
a=$(grep -c '^A' "$tmp/cfound")
if [ "${CROSSMODE_VERBOSE:-0}" = 1 ]; then
	grep '^A' "$tmp/cfound" | cut -f 2 | sed 's/^/documented (a): corpus: /'
fi
grep '^-' "$tmp/cfound" | cut -f 2 > "$tmp/cbad"
while IFS= read -r line; do bad "corpus: $line"; done < "$tmp/cbad"
pass=$((pass + $(grep -c -v '^-' "$tmp/cfound")))
finish "corpus: $(wc -l < "$tmp/cfound") records with a coded reply compared, $a differing where the Status: is specific and differs from the reply's code (documented (a))"
