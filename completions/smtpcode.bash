# bash completion for smtpcode(1).  Provider names come from the program
# itself, so they follow the data.

_smtpcode() {
	local cur prev
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	-f|--field)
		COMPREPLY=($(compgen -W "input code kind known registered severity final
			name scope acts retry suppress bounce reason basic meaning causes
			fixes related group provider sources warnings verdict_from
			reason_phrase" -- "$cur"))
		return ;;
	-p|--provider)
		COMPREPLY=($(compgen -W "all $(smtpcode --providers --tsv 2>/dev/null |
			cut -f1)" -- "$cur"))
		return ;;
	--color|--colour)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return ;;
	-w|--width)
		return ;;
	--rules)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "-j --json -t --tsv -f --field -b --brief
			-q --quiet -l --list -s --search -p --provider --providers
			--stdin --rules
			--color= -w --width -h --help -V --version" -- "$cur"))
		[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace
	fi
}
complete -F _smtpcode smtpcode
