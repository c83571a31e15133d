# bash completion for smtpcode(1).  Provider names, scopes and reasons come
# from the program itself, so they follow the data.

# The values of an entry's field (scope, reason) that the table holds, the
# providers' entries included.
_smtpcode_values() {
	{ smtpcode --list -f "$1"; smtpcode --list -p all -f "$1"; } 2>/dev/null |
		sort -u
}

# After --probe the words are smtpcode-probe's, which smtpcode --probe runs
# with them: its options; its target (a domain, HOST:PORT or an IP) is
# nothing a shell could list.
_smtpcode_probe() {
	case $prev in
	--rcpt|--from|--helo|--port|--resolver|--timeout|--watch|--attempts)
		return ;;
	esac
	[[ $cur == -* ]] &&
		COMPREPLY=($(compgen -W "--rcpt --from --helo --port --resolver
			--timeout --no-tls --tls-on-connect --watch --attempts -j --json -h --help
			-V --version" -- "$cur"))
}

_smtpcode() {
	local cur prev word
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}

	for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
		if [[ $word == --probe ]]; then
			_smtpcode_probe
			return
		fi
	done

	# --color=WHEN: bash splits the word at '=' (COMP_WORDBREAKS), so the
	# value is the word after a '=' that follows --color.  "--color WHEN"
	# is not taken: --color alone means always.
	if [[ $cur == = ]]; then
		prev=$prev=
		cur=
	elif [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD-2]}=
	elif [[ $cur == --colo*=* ]]; then
		# (for a COMP_WORDBREAKS without '=')
		prev=${cur%%=*}=
		cur=${cur#*=}
		COMPREPLY=($(compgen -P "$prev" -W "auto always never" -- "$cur"))
		return
	fi

	case $prev in
	--color=|--colour=)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return ;;
	-f|--field)
		# The verdict's fields (the keys of `smtpcode -j`) and a record's
		# (src/cli/record_fields.def); the program prints no list of them
		# a shell could read, and tests/sh/completions.sh checks this one.
		COMPREPLY=($(compgen -W "input code kind known registered severity final
			name scope acts retry suppress bounce reason basic meaning causes
			fixes related group provider sources warnings verdict_from
			reason_phrase frequency duration avoid faq file line index
			recipient domain relay stage status
			side seen_basic seen_enhanced dsn reply message_kind feedback_type
			message" -- "$cur"))
		return ;;
	-p|--provider)
		COMPREPLY=($(compgen -W "all $(smtpcode --providers --tsv 2>/dev/null |
			cut -f1)" -- "$cur"))
		return ;;
	--severity)
		COMPREPLY=($(compgen -W "success temporary permanent" -- "$cur"))
		return ;;
	--suppress)
		# (as -f prints them; JSON's true and false are taken too)
		COMPREPLY=($(compgen -W "yes no unknown" -- "$cur"))
		return ;;
	--scope)
		COMPREPLY=($(compgen -W "$(_smtpcode_values scope)" -- "$cur"))
		return ;;
	--reason)
		# vacation and feedback come from the kind of message (an
		# auto-reply, an ARF report), mailererror from a reply's words
		# only, filtered from the SMTP step (a refusal after DATA): no
		# entry of the table has them.
		COMPREPLY=($(compgen -W "$(_smtpcode_values reason)
			vacation feedback mailererror filtered" -- "$cur"))
		return ;;
	-w|--width|--domain)
		return ;;
	--rules)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "-j --json -t --tsv -f --field -b --brief
			-q --quiet -c --count -l --list -s --search -p --provider
			--providers --probe --stdin --annotate --extract --summary --mail
			--suppressions --severity --scope --reason --suppress --domain
			--rules --color --color= -w --width -h --help -V --version" \
			-- "$cur"))
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] &&
			compopt -o nospace 2>/dev/null
		return
	fi

	# The log and bounce modes read files and folders; the others take
	# codes, replies and words, which nothing here can guess.
	for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
		case $word in
		--annotate|--extract|--summary|--mail|--suppressions)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return ;;
		esac
	done
}
complete -F _smtpcode smtpcode
