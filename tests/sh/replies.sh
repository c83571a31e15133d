# Shared by crossmode.sh and invariants.sh (sourced): replies as remote
# servers really word them, one a line, each given to every mode of
# smtpcode (a lookup, --stdin, a DSN to --mail, a Postfix and an Exim log
# line to --extract), which must judge it alike.
#
# A reply ending in "(in reply to end of DATA command)" was refused after
# DATA: the log lines give that stage instead of RCPT TO.  A line "N|TEXT"
# is a reply without any code (TEXT), which a report gives in class N.
#
# replies: print the list; replies_inputs DIR: write the inputs (below).
replies() {
	cat <<'EOF'
550 5.1.1 <a@example.org>: Recipient address rejected: User unknown in local recipient table
550 5.1.1 <a@example.org>: Recipient address rejected: User unknown in virtual mailbox table
550 User unknown
550 <a@example.org>... No such user here
550 sorry, no mailbox here by that name. (#5.1.1)
511 sorry, no mailbox here by that name (#5.1.1 - chkuser)
511 <a@example.org>: unknown recipient
550-5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. For more information, go to 550 5.1.1  https://support.google.com/mail/?p=NoSuchUser d2e1a72fcca58-7a1b2c3d4e5si1234567b3.123 - gsmtp
550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup
550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [DM6NAM12FT045.eop-nam12.prod.protection.outlook.com 2024-01-01T00:00:00.000Z 08DC0A1B2C3D4E5F]
554 delivery error: dd This user doesn't have a yahoo.com account (a@yahoo.com) [0] - mta1021.mail.ne1.yahoo.com
550 Requested action not taken: mailbox unavailable
550 5.1.1 <a@example.org>: Unknown user (in reply to end of DATA command)
550 Unknown user a@example.org (in reply to end of DATA command)
554 5.7.1 Unknown user; message rejected by content filter (in reply to end of DATA command)
452 4.2.2 The email account that you tried to reach is over quota. Please direct the recipient to https://support.google.com/mail/?p=OverQuotaTemp a1si2345678pfb.12 - gsmtp
552 5.2.2 The email account that you tried to reach is over quota and inactive. Please direct the recipient to https://support.google.com/mail/?p=OverQuotaPerm a1si2345678pfb.12 - gsmtp
552 5.2.2 <a@example.org>: Recipient address rejected: Mailbox full
452 4.2.2 Mailbox full
552 Mailbox quota exceeded
550 5.2.2 Quota exceeded (mailbox for user is full)
554 5.7.1 Service unavailable; Client host [192.0.2.10] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/192.0.2.10
554 5.7.1 Service unavailable; Client host [192.0.2.10] blocked using bl.spamcop.net; Blocked - see https://www.spamcop.net/bl.shtml?192.0.2.10
550 5.7.1 Unfortunately, messages from [192.0.2.10] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150). You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors. [BN8NAM12FT012.eop-nam12.prod.protection.outlook.com]
554 Your access to this mail system has been rejected due to the sending MTA's poor reputation. If you believe that this failure is in error, please contact the intended recipient via alternate means.
550 Rejected: 192.0.2.10 listed at zen.spamhaus.org
421 4.7.0 [TSS04] Messages from 192.0.2.10 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes
550 5.7.1 Our system has detected that this message is likely unsolicited mail. To reduce the amount of spam sent to Gmail, this message has been blocked. For more information, go to https://support.google.com/mail/?p=UnsolicitedMessageError a1si2345678pfb.12 - gsmtp
554 5.7.1 Message rejected as spam by Content Filtering
550 High probability of spam
550 5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM. Authentication results: DKIM = did not pass SPF [example.com] with ip: [192.0.2.10] = did not pass - gsmtp
550 5.7.1 Email rejected per DMARC policy for example.com
550 5.7.23 The message was rejected because of Sender Policy Framework violation
550 SPF check failed
550 5.2.1 The email account that you tried to reach is disabled. For more information, go to https://support.google.com/mail/?p=DisabledUser a1si2345678pfb.12 - gsmtp
554 delivery error: dd Sorry, your message to a@yahoo.com cannot be delivered. This mailbox is disabled (554.30). - mta1234.mail.gq1.yahoo.com
550 Mailbox disabled for this recipient
554 5.7.1 <a@example.org>: Relay access denied
550 5.7.1 Unable to relay
553 sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)
421 4.7.0 Try again later, closing connection. (EHLO) a1si2345678pfb.12 - gsmtp
421 Too many concurrent SMTP connections; please try again later.
450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered. Please resend your message at a later time. a1si2345678pfb.12 - gsmtp
421 4.7.28 Gmail has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited. a1si2345678pfb.12 - gsmtp
450 4.7.1 Error: too much mail from 192.0.2.10
451 4.7.500 Server busy. Please try again later from [192.0.2.10]. (S77719) [BN8NAM12FT012.eop-nam12.prod.protection.outlook.com]
452 4.5.3 Too many recipients
450 4.1.2 <a@nonexistent.example>: Recipient address rejected: Domain not found
550 5.1.2 Host unknown (Name server: nonexistent.example: host not found)
450 4.7.1 Client host rejected: cannot find your hostname, [192.0.2.10]
550 5.7.25 The IP address sending this message does not have a PTR record setup, or the corresponding forward DNS entry does not point to the sending IP. As a policy, Gmail does not accept messages from IPs with missing PTR records. a1si2345678pfb.12 - gsmtp
450 4.2.0 <a@example.org>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/example.org.html
451 4.7.1 Please try again later (greylisted)
451 Greylisted, please try again in 300 seconds
552 5.3.4 Message size exceeds fixed limit
552 5.2.3 Message exceeds maximum size
552 Message size exceeds maximum permitted
550 5.7.133 RESOLVER.RST.SenderNotAuthenticatedForGroup; authentication required; Delivery restriction check failed as sender not authenticated
550 5.7.1 Virus found in message
421 4.3.2 Service not available, closing transmission channel
550 5.1.0 Sender address rejected: Access denied
5|Unknown user
5|Mailbox is full
EOF
}

# replies_inputs DIR: the inputs of every mode, in DIR:
#  parts    each reply's parts, tab-separated: index, class, enhanced code
#           (or "-"), the Status: and dsn= its reports give (the reply's
#           own enhanced code, else the class's X.0.0), the step's command,
#           the reply without Postfix's "(in reply to ... command)", the
#           whole reply;
#  replies  the replies, one a line (for --stdin);
#  log      two lines a reply: Postfix's (line 2i-1), Exim's (line 2i), a
#           bounce for class 5, a deferral for class 4;
#  mail/    rNNN.eml: an RFC 3464 DSN of the reply, Action: failed for
#           class 5, delayed for class 4; and rNNN-postfix.eml for a
#           reply after another step than RCPT TO: the same as Postfix
#           writes it, the step told in the text part only.
# (It sets i, class, dsn, cmd, core, reply, f, sec, tab, action, pfx,
# exim, subject, extra, after and exim_tail.)
replies_inputs() {
	replies | jq -R -r '
		(if test("^[245]\\|") then {class: .[0:1], reply: .[2:]}
		 else {class: null, reply: .} end) as $r
		| ($r.reply | capture("^(?<core>.*) \\(in reply to (?<cmd>.+) command\\)$")
		   // {core: $r.reply, cmd: "RCPT TO"}) as $s
		| ($r.reply | capture("^(?<b>[245][0-9][0-9])(?:[ -]|$)").b // null) as $basic
		| ([$r.reply | match("(?:^|[^0-9.])([245]\\.[0-9]{1,3}\\.[0-9]{1,3})(?![0-9]|\\.[0-9])")
		   .captures[0].string][0] // null) as $enh
		| ($basic // $enh // $r.class)[0:1] as $class
		| [$class, ($enh // "-"),
		   (if $enh and ($enh | test("\\.0\\.0$") | not) then $enh else "\($class).0.0" end),
		   $s.cmd, $s.core, $r.reply] | @tsv' | awk '{ print NR "\t" $0 }' > "$1/parts"
	cut -f 7 "$1/parts" > "$1/replies"

	mkdir "$1/mail"
	: > "$1/log"
	tab=$(printf '\t')
	while IFS=$tab read -r i class _ dsn cmd core reply; do
		f=$(printf '%03d' "$i")
		if [ "$class" = 5 ]; then
			action=failed pfx=bounced exim='**' subject='Undelivered Mail Returned to Sender'
			extra=''
		else
			action=delayed pfx=deferred exim='==' subject='Delayed Mail (still being retried)'
			extra='defer (-44) '
		fi
		# The step as Exim names it.
		case $cmd in
		'RCPT TO') after='RCPT TO:<a@example.org>' ;;
		'MAIL FROM') after='MAIL FROM:<s@example.com>' ;;
		'end of DATA') after='end of data' ;;
		*) after=$cmd ;;
		esac
		# The remote server's reply after the step, or, for a reply without
		# a code, Exim's words of its own ("** a@b R=dnslookup
		# T=remote_smtp: Unrouteable address").
		case $core in
		[245][0-9][0-9][\ -]* | [245].[0-9]*.[0-9]*)
			exim_tail=" ${extra}H=mx.example.org [192.0.2.1]: SMTP error from remote mail server after $after: $core" ;;
		*) exim_tail=": $core" ;;
		esac
		sec=$((i % 60))
		[ "$sec" -ge 10 ] || sec=0$sec
		printf '%s\n' "Jan  1 00:00:$sec mx postfix/smtp[123]: 4AB${f}C: to=<a@example.org>, relay=mx.example.org[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=$dsn, status=$pfx (host mx.example.org[192.0.2.1] said: $core (in reply to $cmd command))" \
			"2024-01-01 00:00:$sec 1rA$f-0001Ab-2D $exim a@example.org R=dnslookup T=remote_smtp$exim_tail" >> "$1/log"
		printf '%s\n' "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>" \
			"To: s@example.com" "Subject: $subject" \
			"Date: Mon, 01 Jan 2024 00:00:00 +0000" \
			"Message-ID: <dsn.$f@mx.example.net>" "MIME-Version: 1.0" \
			"Auto-Submitted: auto-replied" \
			"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b$f\"" "" \
			"--b$f" "Content-Type: text/plain; charset=us-ascii" "" \
			"This is the mail system at host mx.example.net." "" \
			"--b$f" "Content-Type: message/delivery-status" "" \
			"Reporting-MTA: dns; mx.example.net" "" \
			"Final-Recipient: rfc822; a@example.org" "Action: $action" \
			"Status: $dsn" "Remote-MTA: dns; mx.example.org" \
			"Diagnostic-Code: smtp; $reply" "" "--b$f--" > "$1/mail/r$f.eml"
		[ "$cmd" = 'RCPT TO' ] && continue
		# A reply after another step, also as Postfix reports it: the
		# step in the text part only, the Diagnostic-Code without it.
		printf '%s\n' "From: MAILER-DAEMON@mx.example.net (Mail Delivery System)" \
			"To: s@example.com" "Subject: $subject" \
			"Date: Mon, 01 Jan 2024 00:00:00 +0000" \
			"Message-ID: <dsn.$f.p@mx.example.net>" "MIME-Version: 1.0" \
			"Auto-Submitted: auto-replied" \
			"Content-Type: multipart/report; report-type=delivery-status; boundary=\"p$f\"" "" \
			"--p$f" "Content-Description: Notification" \
			"Content-Type: text/plain; charset=us-ascii" "" \
			"This is the mail system at host mx.example.net." "" \
			"<a@example.org>: host mx.example.org[192.0.2.1] said: $core" \
			"    (in reply to $cmd command)" "" \
			"--p$f" "Content-Description: Delivery report" \
			"Content-Type: message/delivery-status" "" \
			"Reporting-MTA: dns; mx.example.net" "" \
			"Final-Recipient: rfc822; a@example.org" \
			"Original-Recipient: rfc822;a@example.org" "Action: $action" \
			"Status: $dsn" "Remote-MTA: dns; mx.example.org" \
			"Diagnostic-Code: smtp; $core" "" "--p$f--" > "$1/mail/r$f-postfix.eml"
	done < "$1/parts"
}
