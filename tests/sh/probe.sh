#!/bin/sh
# smtpcode-probe against real servers on loopback: the scripted server
# (tests/probe/smtp-server.py), Postfix's smtp-sink, a listener that never
# accepts (tests/probe/no-accept.py), and the test DNS server
# (tests/probe/dns-server.py) for the MX lookups, never the system's
# resolver.  Each case checks the exit status and fragments of the
# output, in text and, where it matters, JSON.  Every wait is bounded, and
# the servers end by themselves (--max-seconds) if this script does not
# kill them.  Skipped (77) where smtpcode-probe was not built.
# usage: probe.sh SMTPCODE SMTPCODE-PROBE
name=probe
bin=$1
probe=$2
dir=$(cd "$(dirname "$0")/../probe" && pwd)
. "$(dirname "$0")/lib.sh"
if [ ! -x "$probe" ]; then
	echo "$name: skipped: smtpcode-probe was not built (c-ares or OpenSSL missing)"
	exit 77
fi
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
sink=/usr/sbin/smtp-sink
[ -x "$sink" ] || sink=$(command -v smtp-sink)

# wait_file FILE: until it is there and not empty (50 x 0.1 s at most).
wait_file() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$1" ]
}

# serve NAME ARGS...: the scripted server; its port in $port, log NAME.log.
serve() {
	n=$1
	shift
	python3 "$dir/smtp-server.py" --port-file "$tmp/$n.port" \
		--log "$tmp/$n.log" --max-seconds 120 "$@" >"$tmp/$n.srv" 2>&1 &
	pids="$pids $!"
	if wait_file "$tmp/$n.port"; then
		port=$(cat "$tmp/$n.port")
	else
		bad "server $n did not start: $(cat "$tmp/$n.srv")"
		port=1
	fi
}

# free_port: a port nothing listens on now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# can_bind PORT: whether this user may listen on 127.0.0.1:PORT now.
can_bind() {
	python3 -c 'import socket, sys; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null
}

# sink ADDRESS:PORT ARGS...: smtp-sink there, when it is installed.
start_sink() {
	a=$1
	shift
	"$sink" -u nobody "$@" "$a" 10 >/dev/null 2>&1 &
	pids="$pids $!"
	i=0
	until python3 -c "import socket,sys; socket.create_connection(('${a%:*}', ${a##*:}), 1).close()" 2>/dev/null ||
		[ $i -ge 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# run NAME CMD...: stdout to NAME.out, stderr to NAME.err, status to $st.
run() {
	n=$1
	shift
	"$@" >"$tmp/$n.out" 2>"$tmp/$n.err"
	st=$?
}

# want NAME STATUS FRAGMENT...: that status, and each fragment (a fixed
# string) in the output or on stderr.
want() {
	n=$1
	s=$2
	shift 2
	[ "$st" = "$s" ] && ok ||
		bad "$n: exit $st, not $s: $(cat "$tmp/$n.out" "$tmp/$n.err" | head -c 1500)"
	for f; do
		cat "$tmp/$n.out" "$tmp/$n.err" | grep -qF -- "$f" && ok ||
			bad "$n: no '$f' in: $(cat "$tmp/$n.out" "$tmp/$n.err" | head -c 1500)"
	done
}

# lacks NAME FRAGMENT: the output does not hold it.
lacks() {
	grep -qF -- "$2" "$tmp/$1.out" && bad "$1: '$2' in: $(head -c 1500 "$tmp/$1.out")" || ok
}

P="$probe --helo tester.example"

# ---- Accepting servers ----
serve accept
run accept $P "127.0.0.1:$port" --rcpt bob@example.org
want accept 0 "the server accepts mail for bob@example.org now" \
	"  banner" "220 mx.test ESMTP smtpcode-test" "  rset" "  quit"
run accept_json $P -j "127.0.0.1:$port" --rcpt bob@example.org
want accept_json 0 '{"step":"connect","host":"127.0.0.1","address":"127.0.0.1","port":'"$port" \
	'"step":"rcpt"' '"code":"2.1.5"' '"severity":"success"' \
	'{"step":"result","outcome":"accepted","sentence":"the server accepts mail for bob@example.org now","exit":0}'
run accept_nul $P "127.0.0.1:$port"
want accept_nul 0 "accepts mail from <> now; give --rcpt ADDRESS"
# DATA never, QUIT always (after RSET).
grep -q '^DATA' "$tmp/accept.log" && bad "DATA was sent: $(cat "$tmp/accept.log")" || ok
grep -q '^QUIT' "$tmp/accept.log" && ok || bad "no QUIT: $(cat "$tmp/accept.log")"
grep -q '^MAIL FROM:<>$' "$tmp/accept.log" && ok || bad "no MAIL FROM:<>: $(cat "$tmp/accept.log")"

# smtpcode --probe runs smtpcode-probe beside it.
if [ "$(dirname "$bin")" = "$(dirname "$probe")" ]; then
	run dispatch "$bin" --probe --helo tester.example "127.0.0.1:$port" --rcpt bob@example.org
	want dispatch 0 "the server accepts mail for bob@example.org now"
fi
# ... and says so in one line when it is not there.
mkdir "$tmp/alone"
cp "$bin" "$tmp/alone/smtpcode"
run alone env PATH=/nonexistent "$tmp/alone/smtpcode" --probe example.org
want alone 2 "smtpcode: --probe needs smtpcode-probe"
[ "$(wc -l <"$tmp/alone.err")" -eq 1 ] && ok || bad "alone: not one line: $(cat "$tmp/alone.err")"

# ---- Failure codes ----
serve full --reply 'rcpt=452 4.3.1 Insufficient system storage'
run full $P "127.0.0.1:$port" --rcpt bob@example.org
want full 1 "452 4.3.1 Insufficient system storage  => 4.3.1 temporary (system): Mail system full" \
	"refused RCPT TO:<bob@example.org> for now: Mail system full (4.3.1), the whole receiving mail system; the sending server retries by itself."
lacks full "  rset"
run full_json $P --json "127.0.0.1:$port" --rcpt bob@example.org
want full_json 1 '"reply":"452 4.3.1 Insufficient system storage","code":"4.3.1","kind":"enhanced"' \
	'"severity":"temporary"' '"scope":"system"' '"outcome":"failed"' '"exit":1}'
grep -q '^QUIT' "$tmp/full.log" && ok || bad "no QUIT after 452: $(cat "$tmp/full.log")"

serve denied --reply 'mail=550 5.7.1 Sender rejected by policy'
run denied $P "127.0.0.1:$port" --from alice@example.net --rcpt bob@example.org
want denied 1 "5.7.1 permanent" "refused MAIL FROM:<alice@example.net>:"
lacks denied "  rcpt"
run denied_json $P -j "127.0.0.1:$port" --rcpt bob@example.org
want denied_json 1 '"code":"5.7.1"' '"severity":"permanent"'

serve multi --reply 'ehlo=250-mx.test says hello\n250-SIZE 1000\n250 HELP'
run multi $P "127.0.0.1:$port"
want multi 0 "250-mx.test says hello 250-SIZE 1000 250 HELP  => 250 success"
run multi_json $P -j "127.0.0.1:$port"
want multi_json 0 '"reply":"250-mx.test says hello\n250-SIZE 1000\n250 HELP"'

serve helo --reply 'ehlo=500 5.5.1 Command unrecognized'
run helo $P "127.0.0.1:$port" --rcpt bob@example.org
want helo 0 "  ehlo" "500 5.5.1 Command unrecognized" "  helo" "250 mx.test" "accepts mail for bob@example.org"
grep -q '^HELO tester.example' "$tmp/helo.log" && ok || bad "no HELO: $(cat "$tmp/helo.log")"

serve busy --reply 'banner=421 4.3.2 Service not available, closing channel'
run busy $P "127.0.0.1:$port"
want busy 1 "421 4.3.2 Service not available" "refused the connection for now"

# ---- Unreachable servers ----
closed=$(free_port)
run refused $P "127.0.0.1:$closed"
want refused 3 "connection refused" "no server could be reached: connection refused"
run refused_json $P -j "127.0.0.1:$closed"
want refused_json 3 '"step":"connect"' '"error":"connection refused","reply":null' '"outcome":"unreachable"' '"exit":3}'

serve silent --silent
t0=$(date +%s)
run silent $P --timeout 1 "127.0.0.1:$port"
t1=$(date +%s)
want silent 3 "  banner" "timed out"
[ $((t1 - t0)) -le 5 ] && ok || bad "silent: --timeout 1 took $((t1 - t0)) s"

lacks silent "port 25"
# Silence at connect on port 25: the probing network's blocking is named
# as the likely cause (where 127.0.0.1:25 can be bound).
if can_bind 25; then
	python3 "$dir/no-accept.py" --port-file "$tmp/drop.port" --bind-port 25 \
		--max-seconds 30 >"$tmp/drop.srv" 2>&1 &
	pids="$pids $!"
	wait_file "$tmp/drop.port" || bad "no-accept.py did not start: $(cat "$tmp/drop.srv")"
	run drop $P --timeout 1 127.0.0.1
	want drop 3 "  connect" "timed out at connect (many networks block outgoing port 25"
else
	echo "probe: port 25 cannot be bound here: the connect time-out's hint not checked"
fi

serve cut --cut
run cut $P --timeout 5 "127.0.0.1:$port"
want cut 3 "connection closed mid-reply"

serve flood --flood 10000000
t0=$(date +%s)
run flood $P --timeout 20 "127.0.0.1:$port"
t1=$(date +%s)
want flood 3 "reply too long"
[ $((t1 - t0)) -le 15 ] && ok || bad "flood: took $((t1 - t0)) s"
[ "$(wc -c <"$tmp/flood.out")" -lt 10000 ] && ok || bad "flood: $(wc -c <"$tmp/flood.out") bytes of output"

# Hostile text: a terminal's escape sequences are shown, not obeyed.
esc=$(printf '\033')
serve hostile --reply "banner=220 mx.test ${esc}[2J${esc}]0;owned${esc}\\ hi"
run hostile $P "127.0.0.1:$port"
want hostile 0 '220 mx.test \x1b[2J\x1b]0;owned'
grep -q "$esc" "$tmp/hostile.out" && bad "hostile: a raw ESC reached the output" || ok

# ---- STARTTLS ----
if sh "$dir/certs.sh" "$tmp/certs" >"$tmp/certs.out" 2>&1; then
	c=$tmp/certs
	# The certificates name 127.0.0.1 too (certs.sh): no DNS needed.
	for cert in good self expired other; do
		serve "tls_$cert" --cert "$c/$cert.pem" --key "$c/$cert.key"
		SSL_CERT_FILE=$c/ca.pem run "tls_$cert" $P --timeout 10 "127.0.0.1:$port" --rcpt bob@example.org
		want "tls_$cert" 0 "  starttls" "  tls " "; certificate " ", expires " "accepts mail for bob@example.org"
		grep -q '^STARTTLS' "$tmp/tls_$cert.log" && ok || bad "tls_$cert: no STARTTLS"
		[ "$(grep -c '^EHLO' "$tmp/tls_$cert.log")" -eq 2 ] && ok || bad "tls_$cert: not two EHLO: $(cat "$tmp/tls_$cert.log")"
	done
	want tls_good 0 "; verified" "CN=localhost"
	lacks tls_good "not verified"
	want tls_self 0 "not verified: "
	want tls_expired 0 "not verified: " "expire" "2020-"
	want tls_other 0 "not verified: "
	SSL_CERT_FILE=$c/ca.pem run tls_json $P -j "127.0.0.1:$port" --rcpt bob@example.org
	want tls_json 0 '"step":"tls"' '"tls":{"version":"TLS' '"verified":false'
	serve notls --cert "$c/good.pem" --key "$c/good.key"
	run notls $P --no-tls "127.0.0.1:$port"
	want notls 0 "accepts mail from <>"
	lacks notls "starttls"
	grep -q '^STARTTLS' "$tmp/notls.log" && bad "--no-tls sent STARTTLS" || ok
	# Implicit TLS (--tls-on-connect, port 465's default): the handshake
	# first, then the banner; no STARTTLS, one EHLO.
	serve implicit --tls-on-connect --cert "$c/good.pem" --key "$c/good.key"
	SSL_CERT_FILE=$c/ca.pem run implicit $P --tls-on-connect --timeout 10 "127.0.0.1:$port" --rcpt bob@example.org
	want implicit 0 "  tls " "; verified" "accepts mail for bob@example.org"
	lacks implicit "starttls"
	[ "$(grep -n '^  \(tls\|banner\) ' "$tmp/implicit.out" | cut -d' ' -f3 | tr '\n' ' ')" = "tls banner " ] && ok ||
		bad "implicit: the handshake did not come before the banner: $(cat "$tmp/implicit.out")"
	grep -q '^STARTTLS' "$tmp/implicit.log" && bad "implicit: STARTTLS sent over TLS" || ok
	[ "$(grep -c '^EHLO' "$tmp/implicit.log")" -eq 1 ] && ok || bad "implicit: not one EHLO: $(cat "$tmp/implicit.log")"
	# A plain server's banner is no handshake: a clear failure at once,
	# not a wait for a banner.
	serve plain465
	run plain465 $P --tls-on-connect --timeout 10 "127.0.0.1:$port"
	want plain465 3 "TLS handshake failed"
	# Port 465 is implicit TLS without being asked, where it can be bound.
	if can_bind 465; then
		serve port465 --bind-port 465 --tls-on-connect --cert "$c/good.pem" --key "$c/good.key"
		SSL_CERT_FILE=$c/ca.pem run port465 $P --timeout 10 127.0.0.1:465
		want port465 0 "  tls " "accepts mail from <>"
	else
		echo "probe: port 465 cannot be bound here: its default not checked"
	fi
	serve badtls --bad-tls
	run badtls $P --timeout 5 "127.0.0.1:$port"
	want badtls 3 "TLS handshake failed"
	grep -q '^QUIT' "$tmp/badtls.log" && bad "badtls: QUIT sent on a broken session" || ok
else
	bad "certs.sh failed: $(cat "$tmp/certs.out")"
fi

# ---- MX lookups through the test DNS server ----
serve mx --reply 'banner=220 mx.test ESMTP MX-ONE'
mxport=$port
v6=no
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
	serve six --host ::1 --reply 'banner=220 six.test ESMTP over IPv6'
	[ -s "$tmp/six.port" ] && v6=yes
	sixport=$port
fi
cat >"$tmp/zone" <<ZONE
two.test MX 20 mx2.two.test
two.test MX 10 mx1.two.test
mx1.two.test A 127.0.0.3
mx2.two.test A 127.0.0.1
busy.test MX 10 mx1.busy.test
busy.test MX 20 mx2.busy.test
mx1.busy.test A 127.0.0.1
mx2.busy.test A 127.0.0.2
plain.test A 127.0.0.1
six.test AAAA ::1
null.test MX 0 .
none.test NONE
noaddr.test MX 10 gone.noaddr.test
slow.test DROP
ZONE
python3 "$dir/dns-server.py" --port-file "$tmp/dns.port" --zone "$tmp/zone" \
	--max-seconds 120 >"$tmp/dns.srv" 2>&1 &
pids="$pids $!"
wait_file "$tmp/dns.port" && ok || bad "the DNS server did not start: $(cat "$tmp/dns.srv")"
R="--resolver 127.0.0.1:$(cat "$tmp/dns.port")"

run mx_order $P $R --port "$mxport" --timeout 5 two.test
want mx_order 0 "two.test: MX 10 mx1.two.test, 20 mx2.two.test" \
	"mx1.two.test [127.0.0.3]:$mxport" "connection refused" \
	"mx2.two.test [127.0.0.1]:$mxport" "MX-ONE" "accepts mail from <>"
run mx_json $P $R -j --port "$mxport" --timeout 5 two.test
want mx_json 0 '"step":"mx","host":"two.test"' \
	'"mx":[{"preference":10,"host":"mx1.two.test","implicit":false},{"preference":20,"host":"mx2.two.test","implicit":false}]'

run fallback $P $R --port "$mxport" plain.test
want fallback 0 "plain.test: no MX, its own address" "plain.test [127.0.0.1]:$mxport" "MX-ONE"

if [ "$v6" = yes ]; then
	run six $P $R --port "$sixport" six.test
	want six 0 "six.test [::1]:$sixport" "over IPv6"
	run six_literal $P "[::1]:$sixport"
	want six_literal 0 "[::1]:$sixport" "over IPv6"
else
	echo "$name: IPv6 loopback not available: its cases skipped"
fi

run nx $P $R nx.test
want nx 3 "nx.test: no such domain" "no server could be reached"
run nodata $P $R none.test
want nodata 3 "none.test: no MX and no address"
run nullmx $P $R null.test
want nullmx 3 "null MX"
run noaddr $P $R noaddr.test
want noaddr 3 "gone.noaddr.test"
t0=$(date +%s)
run dnsdrop $P $R --timeout 1 slow.test
t1=$(date +%s)
want dnsdrop 3 "timed out"
[ $((t1 - t0)) -le 8 ] && ok || bad "dnsdrop: took $((t1 - t0)) s"
run nx_json $P $R -j nx.test
want nx_json 3 '"step":"mx"' '"outcome":"unreachable"'

# 421 at the first MX: the next one is tried, and both are shown.
if [ -n "$sink" ] && [ -x "$sink" ]; then
	serve busy1 --reply 'banner=421 4.3.2 Too busy, try later'
	start_sink "127.0.0.2:$port"
	run busy_mx $P $R --port "$port" busy.test --rcpt bob@example.org
	want busy_mx 0 "mx1.busy.test [127.0.0.1]" "421 4.3.2 Too busy" \
		"mx2.busy.test [127.0.0.2]" "220 smtp-sink" "accepts mail for bob@example.org"

	# smtp-sink: an accepting server, and its soft and hard rejections.
	sp=$(free_port)
	start_sink "127.0.0.1:$sp"
	run sink $P "127.0.0.1:$sp" --rcpt bob@example.org
	want sink 0 "220 smtp-sink ESMTP" "accepts mail for bob@example.org"
	sp=$(free_port)
	start_sink "127.0.0.1:$sp" -r RCPT
	run sink_soft $P "127.0.0.1:$sp" --rcpt bob@example.org
	want sink_soft 1 "  rcpt" " temporary" "refused RCPT TO:<bob@example.org> for now"
	sp=$(free_port)
	start_sink "127.0.0.1:$sp" -f MAIL
	run sink_hard $P -j "127.0.0.1:$sp" --rcpt bob@example.org
	want sink_hard 1 '"step":"mail"' '"severity":"permanent"' '"outcome":"failed"'
else
	echo "$name: smtp-sink (postfix) not installed: its cases skipped"
fi

# ---- Usage errors ----
run u_none $P
want u_none 2 "no target"
run u_port $P 127.0.0.1:99999
want u_port 2 "not a port"
run u_port2 $P --port 0 example.test
want u_port2 2 "not a port"
run u_resolver $P --resolver not-an-address example.test
want u_resolver 2 "--resolver"
run u_timeout $P --timeout 0 127.0.0.1:25
want u_timeout 2 "--timeout"
run u_timeout2 $P --timeout 1x 127.0.0.1:25
want u_timeout2 2 "--timeout"
run u_crlf $P --rcpt "$(printf 'bob@example.org\r\nDATA')" 127.0.0.1:25
want u_crlf 2 "--rcpt" "refused"
run u_long $P --rcpt "$(printf '%0300d' 0)@example.org" 127.0.0.1:25
want u_long 2 "--rcpt" "longer than the 254 bytes SMTP allows"
run u_angle $P --from 'a>b' 127.0.0.1:25
want u_angle 2 "--from"
run u_space $P --helo 'a b' 127.0.0.1:25
want u_space 2 "--helo"
run u_tls $P --tls-on-connect --no-tls 127.0.0.1:25
want u_tls 2 "--tls-on-connect and --no-tls: give one"
run u_option $P --frobnicate 127.0.0.1:25
want u_option 2 "unknown option"
# The watch's interval against a machine elsewhere: refused before any
# connection (192.0.2.1 is TEST-NET-1; the check comes first).
run u_watch $P --watch 5 192.0.2.1:25
want u_watch 2 "loopback"
run help $P --help
want help 0 "Exit status" "--watch"
[ "$(wc -l <"$tmp/help.out")" -le 24 ] && ok || bad "--help is $(wc -l <"$tmp/help.out") lines"
run version $P --version
want version 0 "smtpcode-probe "

# ---- --watch ----
serve watch --reply 'rcpt=452 4.3.1 Insufficient system storage' \
	--then-after 2 --then 'rcpt=250 2.1.5 Ok'
run watch $P --watch 1 "127.0.0.1:$port" --rcpt bob@example.org
want watch 0 "cleared after 3 attempts" "attempt 2 (+" "attempt 3 (+" \
	"accepts mail for bob@example.org"
[ "$(grep -c '  banner' "$tmp/watch.out")" -eq 1 ] && ok ||
	bad "watch: the unchanged banner shown again: $(cat "$tmp/watch.out")"
[ "$(grep -c '  rcpt' "$tmp/watch.out")" -eq 2 ] && ok ||
	bad "watch: rcpt not shown twice (452, then 250): $(cat "$tmp/watch.out")"
serve watch_json --reply 'rcpt=452 4.3.1 Insufficient system storage' \
	--then-after 1 --then 'rcpt=250 2.1.5 Ok'
run watch_json $P -j --watch 1 "127.0.0.1:$port" --rcpt bob@example.org
want watch_json 0 '"attempt":1' '"attempt":2' '"cleared_after_ms":'
serve stuck --reply 'rcpt=452 4.3.1 Insufficient system storage'
run stuck $P --watch 1 --attempts 2 "127.0.0.1:$port" --rcpt bob@example.org
want stuck 1 "still failing after 2 attempts" "attempt 2 (+"
[ "$(grep -c 'Connection\|  rcpt' "$tmp/stuck.out")" -eq 1 ] && ok ||
	bad "stuck: the same refusal shown again: $(cat "$tmp/stuck.out")"
# A watch that would run until it clears stops at the first attempt whose
# output cannot be written (a full disk), exit 2 with the error named.
serve full --reply 'rcpt=452 4.3.1 Insufficient system storage'
timeout 60 $P --watch 1 "127.0.0.1:$port" --rcpt bob@example.org \
	>/dev/full 2>"$tmp/full.err"
st=$?
: >"$tmp/full.out"
want full 2 "write error: No space left on device"

finish
