# fish completion for smtpcode(1).  Provider names come from the program
# itself, so they follow the data.

complete -c smtpcode -s j -l json -d 'one JSON object per result'
complete -c smtpcode -s t -l tsv -d 'tab-separated lines'
complete -c smtpcode -s f -l field -x -d 'one field per result' -a 'input code kind known registered severity final name scope acts retry suppress bounce reason basic meaning causes fixes related group provider sources warnings verdict_from reason_phrase'
complete -c smtpcode -s b -l brief -d 'one line per result'
complete -c smtpcode -s q -l quiet -d 'exit status only'
complete -c smtpcode -s l -l list -d 'list codes matching a pattern'
complete -c smtpcode -s s -l search -d 'search the texts'
complete -c smtpcode -s p -l provider -x -d 'codes as one provider uses them' -a 'all (smtpcode --providers --tsv 2>/dev/null | cut -f1)'
complete -c smtpcode -l providers -d 'list the providers'
complete -c smtpcode -l stdin -d 'one code, reply or text per input line'
complete -c smtpcode -l rules -r -F -d "a site's rules file"
complete -c smtpcode -l color -x -d 'colour the text output' -a 'auto always never'
complete -c smtpcode -s w -l width -x -d 'wrap at COLUMNS'
complete -c smtpcode -s h -l help -d 'show the help'
complete -c smtpcode -s V -l version -d 'show the version'
