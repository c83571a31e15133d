#!/bin/sh
# bench/bounces.sh: bounce reading, `smtpcode --mail` against Sisimai
# (Debian's libsisimai-perl), on the same folder of bounces, in the same
# run: the real bounces of ../shared/corpus/bounces when that folder is
# there (all of its folders' files, copied into one), else bounces written
# by bench/genmail.  Called by bench/run; prints rows of its
# table: messages per second of both and their ratio (target: smtpcode at
# least 50 times as many), the messages and recipients each read, and on
# how many of the messages both read the two give the same status code.
#
# usage: sh bench/bounces.sh BUILD-DIR TMPDIR
#   BUILD-DIR  a build holding smtpcode and measure
#   TMPDIR     an existing scratch folder (the messages go in a subfolder)
# Environment: BOUNCES (number of generated messages, default 560; set, it
# also chooses generated messages over the real ones), BOUNCES_DIFF (a file
# to write the disagreements to, one per line).
#
# Same status code: per recipient (address, case ignored), smtpcode's
# verdict code (`smtpcode --mail --json`, key code, when kind is enhanced)
# against Sisimai's deliverystatus.  Where a message holds no enhanced code
# (Yahoo's "554: delivery error", Exim's "Unrouteable address") smtpcode
# gives none and Sisimai one of its own pseudo codes X.0.9NN, which counts
# as none.  A message agrees when both read it as a bounce, name at least
# one recipient in common, and give every common recipient the same code.
# Sisimai's records of reason vacation, feedback or delivered (auto-replies,
# feedback reports) do not count as bounces read, as smtpcode labels such
# messages and gives no recipient.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: sh bench/bounces.sh BUILD-DIR TMPDIR" >&2
	exit 2
fi
build=$1
tmp=$2
here=$(dirname "$0")
n=${BOUNCES:-560}
runs=5
bin=$build/smtpcode

row() { # figure smtpcode reference ratio target met
	printf '%-48s %12s %12s %8s %10s %4s\n' "$@"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
met() { awk -v r="$1" -v t="$2" 'BEGIN { print (r >= t ? "yes" : "NO") }'; }

corpus=$here/../../shared/corpus/bounces
if [ -d "$corpus" ] && [ -z "${BOUNCES:-}" ]; then
	what="real bounces"
else
	what="bounces"
fi
speed_fig="mail $what vs Sisimai (x faster)"
if ! perl -MSisimai -e 1 2>/dev/null; then
	skip="skipped: apt-get install libsisimai-perl"
	row "$speed_fig" "" "" "" ">= 50" "$skip"
	row "mail same status code as Sisimai" "" "" "" "" "$skip"
	exit 0
fi
for tool in smtpcode measure; do
	[ -x "$build/$tool" ] || { echo "bench/bounces.sh: $build/$tool is missing" >&2; exit 2; }
done

dir=$tmp/bounces
rm -rf "$dir"
if [ "$what" = "real bounces" ]; then
	mkdir -p "$dir"
	for src in "$corpus"/*/; do
		for f in "$src"*; do
			[ -f "$f" ] && cp "$f" "$dir/$(basename "$src")-$(basename "$f")"
		done
	done
else
	sh "$here/genmail" "$n" "$dir"
fi
set -- "$dir"/*
files=$#

# measure RUNS CMD...: best wall time (s) and peak RSS (KiB), tab-separated
# (the output into a pipe that measure drains, as in bench/run).
measure() { "$build/measure" "$@"; }

# smtpcode is given the files; Sisimai reads the folder as a Maildir, in one
# process too.  smtpcode's run is short (tens of milliseconds), where the
# shared machine's hiccups weigh most: best of more runs.
sc=$(measure 20 "$bin" --mail "$dir"/*)
# --json: records, as Sisimai's are (the text explains each code in full).
sj=$(measure 20 "$bin" --mail --json "$dir"/*)
# shellcheck disable=SC2016
ss=$(measure "$runs" perl -MSisimai -e 'my $r = Sisimai->make($ARGV[0]) // []; print scalar(@$r), "\n"' "$dir")
sc_t=$(echo "$sc" | cut -f1)
sj_t=$(echo "$sj" | cut -f1)
ss_t=$(echo "$ss" | cut -f1)
rate() { awk -v n="$files" -v t="$1" 'BEGIN { printf "%.0f msg/s", (t > 0 ? n / t : 0) }'; }
r=$(ratio "$ss_t" "$sc_t")
row "mail $files $what vs Sisimai (x faster)" "$(rate "$sc_t")" "$(rate "$ss_t")" "$r" ">= 50" "$(met "$r" 50)"
r=$(ratio "$ss_t" "$sj_t")
row "mail --json $files $what vs Sisimai (x faster)" "$(rate "$sj_t")" "$(rate "$ss_t")" "$r" ">= 50" "$(met "$r" 50)"
row "mail $files $what peak RSS" "$(($(echo "$sc" | cut -f2) / 1024)) MiB" "$(($(echo "$ss" | cut -f2) / 1024)) MiB" "" "" ""

# Agreement.
"$bin" --mail --json "$dir"/* > "$tmp/bounces.jsonl" || true
# Six numbers, split into $1..$6.
# shellcheck disable=SC2046
set -- $(BOUNCES_DIFF=${BOUNCES_DIFF:-} perl -MSisimai -MJSON::PP -e '
	my ($dir, $jsonl) = @ARGV;
	my (%sc, %ss, %scmsg, %ssmsg, $scr, $ssr);
	sub base { my $f = shift; $f =~ s{.*/}{}; $f }
	open my $in, "<", $jsonl or die "$jsonl: $!";
	while (<$in>) {
		my $r = JSON::PP->new->utf8->decode($_);
		next unless defined $r->{index}; # a message without recipients
		my $f = base($r->{file});
		my $code = ($r->{kind} // "") eq "enhanced" ? $r->{code} : "none";
		my $a = $r->{recipient} // "";
		utf8::encode($a);	# Sisimai gives bytes
		$a = lc $a;
		$scmsg{$f} = 1;
		$scr++;
		my $reply = $r->{reply} // "";
		utf8::encode($reply);
		$sc{$f}{$a} //= [$code, $reply];
	}
	for my $d (@{ Sisimai->make($dir) // [] }) {
		next if $d->reason =~ /^(vacation|feedback|delivered)$/;
		my $f = base($d->origin);
		my $code = $d->deliverystatus || "none";
		$code = "none" if $code =~ /^\d\.0\.9\d\d$/;
		my $a = lc($d->recipient->address);
		$ssmsg{$f} = 1;
		$ssr++;
		$ss{$f}{$a} //= [$code, $d->diagnosticcode // "", $d->reason];
	}
	my ($both, $agree, $diff) = (0, 0, "");
	for my $f (sort keys %scmsg) {
		next unless $ssmsg{$f};
		$both++;
		my ($common, $same) = (0, 1);
		for my $a (sort keys %{ $sc{$f} }) {
			next unless $ss{$f}{$a};
			$common++;
			my ($x, $y) = ($sc{$f}{$a}, $ss{$f}{$a});
			next if $x->[0] eq $y->[0];
			$same = 0;
			$diff .= "$f\t$a\tsmtpcode $x->[0] ($x->[1])\tsisimai $y->[0] $y->[2] ($y->[1])\n";
		}
		$diff .= "$f\tno recipient in common\n" unless $common;
		$agree++ if $common && $same;
	}
	for my $f (sort keys %scmsg) { $diff .= "$f\tread by smtpcode only\n" unless $ssmsg{$f} }
	for my $f (sort keys %ssmsg) { $diff .= "$f\tread by Sisimai only\n" unless $scmsg{$f} }
	if ($ENV{BOUNCES_DIFF}) {
		open my $o, ">", $ENV{BOUNCES_DIFF} or die "$ENV{BOUNCES_DIFF}: $!";
		print $o $diff;
	}
	printf "%d %d %d %d %d %d\n", scalar(keys %scmsg), scalar(keys %ssmsg),
	    $both, $agree, $scr // 0, $ssr // 0;
' "$dir" "$tmp/bounces.jsonl")
[ $# -eq 6 ] || { echo "bench/bounces.sh: comparing with Sisimai failed" >&2; exit 2; }
row "mail bounces read (of $files messages)" "$1" "$2" "" "" ""
row "mail recipients read" "$5" "$6" "" "" ""
row "mail same status code as Sisimai" "$4 of $3" "" "$(ratio "$4" "$3")" "" ""
rm -rf "$dir" "$tmp/bounces.jsonl"
