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

# The log and bounce modes read files and folders; the others take codes,
# replies and words, which nothing here can guess.
complete -c smtpcode -f
complete -c smtpcode -n '__fish_seen_argument -l annotate -l extract -l summary -l mail -l suppressions' -F

complete -c smtpcode -s j -l json -d 'one JSON object per result'
complete -c smtpcode -s t -l tsv -d 'tab-separated lines'
# The verdict's fields (the keys of `smtpcode -j`) and a record's
# (src/cli/record_fields.def); the program prints no list of them a shell
# could read, and tests/sh/completions.sh checks this one.
complete -c smtpcode -s f -l field -x -d 'one field per result' -a 'input code kind known registered severity final name scope acts retry suppress bounce reason basic meaning causes fixes related group provider sources warnings verdict_from reason_phrase frequency duration avoid faq file line index recipient domain relay stage status side seen_basic seen_enhanced dsn reply message_kind feedback_type message'
complete -c smtpcode -s b -l brief -d 'one line per result'
complete -c smtpcode -s q -l quiet -d 'exit status only'
complete -c smtpcode -s c -l count -d 'only the number of results'
complete -c smtpcode -s l -l list -d 'list codes matching a pattern'
complete -c smtpcode -s s -l search -d 'search the texts'
complete -c smtpcode -l providers -d 'list the providers'
complete -c smtpcode -l stdin -d 'one code, reply or text per input line'
complete -c smtpcode -l annotate -d 'mail logs, each line with its verdict'
complete -c smtpcode -l extract -d 'mail logs, one record per delivery'
complete -c smtpcode -l summary -d 'mail logs, counted'
complete -c smtpcode -l mail -d 'explain bounces: messages, mbox, Maildir'
complete -c smtpcode -l suppressions -d 'the addresses to stop mailing, from logs and bounces'
complete -c smtpcode -s p -l provider -x -d 'codes as one provider uses them; records from it' -a 'all (smtpcode --providers --tsv 2>/dev/null | cut -f1)'
complete -c smtpcode -l severity -x -d 'records of this severity' -a 'success temporary permanent'
complete -c smtpcode -l scope -x -d 'records of this scope' -a '(__smtpcode_values scope)'
# vacation and feedback come from the kind of message (an auto-reply, an ARF
# report), mailererror from a reply's words only: no entry of the table has
# them.
complete -c smtpcode -l reason -x -d 'records of this reason' -a '(__smtpcode_values reason) vacation feedback mailererror'
complete -c smtpcode -l suppress -x -d 'records whose suppress is this' -a 'true false unknown'
complete -c smtpcode -l domain -x -d 'records to this recipient domain'
complete -c smtpcode -l rules -r -F -d "a site's rules file"
# No -x: --color alone means always, and only --color=WHEN takes a value.
complete -c smtpcode -l color -d 'colour the text output' -a 'auto always never'
complete -c smtpcode -s w -l width -x -d 'wrap at COLUMNS'
complete -c smtpcode -s h -l help -d 'show the help'
complete -c smtpcode -s V -l version -d 'show the version'
