# fish completion for smtpcode(1).  Provider names, scopes and reasons come
# from the program itself, so they follow the data.

# The values of an entry's field (scope, reason) that the table holds, the
# providers' entries included.
function __smtpcode_values
	begin
		smtpcode --list -f $argv[1]
		smtpcode --list -p all -f $argv[1]
	end 2>/dev/null | sort -u
end

# After --probe the words are smtpcode-probe's, which smtpcode --probe runs
# with them: its options replace smtpcode's.
function __smtpcode_probing
	__fish_seen_argument -l probe
end

# The log and bounce modes read files and folders; the others take codes,
# replies and words, which nothing here can guess.
complete -c smtpcode -f
complete -c smtpcode -n '__fish_seen_argument -l annotate -l extract -l summary -l mail -l suppressions' -F

complete -c smtpcode -n 'not __smtpcode_probing' -s j -l json -d 'one JSON object per result'
complete -c smtpcode -n 'not __smtpcode_probing' -s t -l tsv -d 'tab-separated lines'
# The verdict's fields (the keys of `smtpcode -j`) and a record's
# (src/cli/record_fields.def); the program prints no list of them a shell
# could read, and tests/sh/completions.sh checks this one.
complete -c smtpcode -n 'not __smtpcode_probing' -s f -l field -x -d 'one field per result' -a 'input code kind known registered severity final name scope acts retry suppress bounce reason basic meaning causes fixes related group provider sources warnings verdict_from reason_phrase frequency duration avoid faq file line index recipient domain relay stage status side seen_basic seen_enhanced dsn reply message_kind feedback_type message'
complete -c smtpcode -n 'not __smtpcode_probing' -s b -l brief -d 'one line per result'
complete -c smtpcode -n 'not __smtpcode_probing' -s q -l quiet -d 'exit status only'
complete -c smtpcode -n 'not __smtpcode_probing' -s c -l count -d 'only the number of results'
complete -c smtpcode -n 'not __smtpcode_probing' -s l -l list -d 'list codes matching a pattern'
complete -c smtpcode -n 'not __smtpcode_probing' -s s -l search -d 'search the texts'
complete -c smtpcode -n 'not __smtpcode_probing' -l providers -d 'list the providers'
complete -c smtpcode -n 'not __smtpcode_probing' -l probe -d "ask a domain's mail servers (the probe's options follow)"
complete -c smtpcode -n 'not __smtpcode_probing' -l stdin -d 'one code, reply or text per input line'
complete -c smtpcode -n 'not __smtpcode_probing' -l annotate -d 'mail logs, each line with its verdict'
complete -c smtpcode -n 'not __smtpcode_probing' -l extract -d 'mail logs, one record per delivery'
complete -c smtpcode -n 'not __smtpcode_probing' -l summary -d 'mail logs, counted'
complete -c smtpcode -n 'not __smtpcode_probing' -l mail -d 'explain bounces: messages, mbox, Maildir'
complete -c smtpcode -n 'not __smtpcode_probing' -l suppressions -d 'the addresses to stop mailing, from logs and bounces'
complete -c smtpcode -n 'not __smtpcode_probing' -s p -l provider -x -d 'codes as one provider uses them; records from it' -a 'all (smtpcode --providers --tsv 2>/dev/null | cut -f1)'
complete -c smtpcode -n 'not __smtpcode_probing' -l severity -x -d 'records of this severity' -a 'success temporary permanent'
complete -c smtpcode -n 'not __smtpcode_probing' -l scope -x -d 'records of this scope' -a '(__smtpcode_values scope)'
# vacation and feedback come from the kind of message (an auto-reply, an ARF
# report), mailererror from a reply's words only, filtered from the SMTP step
# (a refusal after DATA): no entry of the table has them.
complete -c smtpcode -n 'not __smtpcode_probing' -l reason -x -d 'records of this reason' -a '(__smtpcode_values reason) vacation feedback mailererror filtered'
complete -c smtpcode -n 'not __smtpcode_probing' -l suppress -x -d 'records whose suppress is this' -a 'yes no unknown'
complete -c smtpcode -n 'not __smtpcode_probing' -l domain -x -d 'records to this recipient domain'
complete -c smtpcode -n 'not __smtpcode_probing' -l rules -r -F -d "a site's rules file"
# No -x: --color alone means always, and only --color=WHEN takes a value.
complete -c smtpcode -n 'not __smtpcode_probing' -l color -d 'colour the text output' -a 'auto always never'
complete -c smtpcode -n 'not __smtpcode_probing' -s w -l width -x -d 'wrap at COLUMNS'
complete -c smtpcode -n 'not __smtpcode_probing' -s h -l help -d 'show the help'
complete -c smtpcode -n 'not __smtpcode_probing' -s V -l version -d 'show the version'

# The probe's options; its target (a domain, HOST:PORT or an IP) is nothing
# a shell could list.
complete -c smtpcode -n __smtpcode_probing -l rcpt -x -d 'send RCPT TO for this address'
complete -c smtpcode -n __smtpcode_probing -l from -x -d 'the sender of MAIL FROM'
complete -c smtpcode -n __smtpcode_probing -l helo -x -d 'the name given in EHLO'
complete -c smtpcode -n __smtpcode_probing -l port -x -d 'the port of the mail servers'
complete -c smtpcode -n __smtpcode_probing -l resolver -x -d 'the DNS server to ask: IP[:PORT]'
complete -c smtpcode -n __smtpcode_probing -l timeout -x -d 'one time-out for every step'
complete -c smtpcode -n __smtpcode_probing -l no-tls -d 'do not use STARTTLS'
complete -c smtpcode -n __smtpcode_probing -l tls-on-connect -d 'TLS before the banner, as on port 465'
complete -c smtpcode -n __smtpcode_probing -l watch -x -d 'probe again at this interval until accepted'
complete -c smtpcode -n __smtpcode_probing -l attempts -x -d 'with --watch, give up after N probes'
complete -c smtpcode -n __smtpcode_probing -s j -l json -d 'one JSON object per step'
complete -c smtpcode -n __smtpcode_probing -s h -l help -d 'show the help'
complete -c smtpcode -n __smtpcode_probing -s V -l version -d 'show the version'
