# bash completion for pane(1): generated from the CLI’s command table by kits/node/cli/completions.ts; do not edit.
_pane_subs() {
  case $1 in
    'plumb') echo 'send test read rules' ;;
    'session') echo 'new ls kill attach rename save restore' ;;
    'grant') echo 'new ls revoke' ;;
    'service') echo 'install' ;;
    'agent') echo 'add ls rm run demo worktree-rm' ;;
    'awareness') echo 'prompt tool agents predictions resolve message inbox context' ;;
    'host') echo 'add ls rm connect disconnect show pair pair-serve clients revoke unpair unpair-serve install' ;;
  esac
}
_pane_flags() {
  case $1 in
    'ls') echo '--json --session -l --long --socket -h --help' ;;
    'new') echo '--session --cwd --sig --name --float --app --socket -h --help' ;;
    'split') echo '-t --target -d --direction -r --ratio --cwd --sig --name --socket -h --help' ;;
    'focus') echo '-t --target -d --direction --socket -h --help' ;;
    'close') echo '-t --target --socket -h --help' ;;
    'zoom') echo '-t --target --on --off --socket -h --help' ;;
    'layout') echo '-t --target --session --socket -h --help' ;;
    'move') echo '-t --target -d --direction --new --socket -h --help' ;;
    'hide') echo '-t --target --socket -h --help' ;;
    'show') echo '-t --target --socket -h --help' ;;
    'restart') echo '-t --target --socket -h --help' ;;
    'swap') echo '-t --target --with -d --direction --socket -h --help' ;;
    'resize') echo '-t --target -d --direction -n --cells --socket -h --help' ;;
    'float') echo '-t --target --x --y --w --h --tile --raise --lower --z --layer --hide --show --socket -h --help' ;;
    'tag') echo '-t --target --name --user --append --socket -h --help' ;;
    'attr') echo '-t --target --json --socket -h --help' ;;
    'exec') echo '-t --target --shell --socket -h --help' ;;
    'plumb send') echo '-t --target --click --wdir --port --json --socket -h --help' ;;
    'plumb test') echo '-t --target --click --wdir --port --json --socket -h --help' ;;
    'plumb read') echo '--socket -h --help' ;;
    'plumb rules') echo '-t --target --wdir --json --socket -h --help' ;;
    'send') echo '-t --target -n --no-newline --raw --socket -h --help' ;;
    'wait') echo '-t --target --idle --exit --quiet --agent --state --match --from --since-input -T --timeout --json --socket -h --help' ;;
    'attach') echo '-t --target --detach-key -r --read-only --fit --history --no-mouse-scroll --socket -h --help' ;;
    'output') echo '-t --target --from -f --follow --status --socket -h --help' ;;
    'screen') echo '-t --target --ansi --rows --top --offset --socket -h --help' ;;
    'watch') echo '--state --socket -h --help' ;;
    'session new') echo '--cwd --host --socket -h --help' ;;
    'session ls') echo '--json --host --socket -h --help' ;;
    'session kill') echo '--socket -h --help' ;;
    'session attach') echo '--json --host -t --target --socket -h --help' ;;
    'session rename') echo '--socket -h --help' ;;
    'session save') echo '--socket -h --help' ;;
    'session restore') echo '--name --socket -h --help' ;;
    'serve') echo '' ;;
    'start') echo '' ;;
    'info') echo '--json --socket -h --help' ;;
    'clients') echo '--json --socket -h --help' ;;
    'permit') echo '--socket -h --help' ;;
    'url') echo '--socket -h --help' ;;
    'stop') echo '-y --yes --socket -h --help' ;;
    'grant new') echo '--session --context --rw --read-only --metrics --for --expires --note --name --json --socket -h --help' ;;
    'grant ls') echo '--json --socket -h --help' ;;
    'grant revoke') echo '--socket -h --help' ;;
    'metrics') echo '--listen --token-file --socket -h --help' ;;
    'top') echo '-d --interval -n --iterations --sort --socket -h --help' ;;
    'restore') echo '--list --at --json --socket -h --help' ;;
    'service install') echo '--print --socket -h --help' ;;
    'agent add') echo '--access --app --project --plan --socket -h --help' ;;
    'agent ls') echo '--json --socket -h --help' ;;
    'agent rm') echo '--purge --socket -h --help' ;;
    'agent run') echo '-t --target --app --worktree --cwd -v --vertical --socket -h --help' ;;
    'agent demo') echo '--steps --delay --resume --socket -h --help' ;;
    'agent worktree-rm') echo '-t --target --force --socket -h --help' ;;
    'access') echo '--json --hold --socket -h --help' ;;
    'finger') echo '--json -s --short --hold --socket -h --help' ;;
    'mail') echo '-s --subject --deliver --inbox --all --json --socket -h --help' ;;
    'write') echo '--here --output -n --no-newline --socket -h --help' ;;
    'plan') echo '--edit --socket -h --help' ;;
    'peers') echo '--here -t --target --socket -h --help' ;;
    'hook') echo '--project --http --command --app --event --agent --print --socket -h --help' ;;
    'mcp') echo '--project --socket -h --help' ;;
    'claims') echo '--json --log --socket -h --help' ;;
    'claim') echo '--as -r --reason --shared --ttl --contest --dir --glob --json --socket -h --help' ;;
    'release') echo '--as --force --dir --glob --socket -h --help' ;;
    'handoff') echo '--dry --json --socket -h --help' ;;
    'delegate') echo '--max --json --socket -h --help' ;;
    'awareness prompt') echo '--json --socket -h --help' ;;
    'awareness tool') echo '--write --tool --socket -h --help' ;;
    'awareness agents') echo '--all --json --socket -h --help' ;;
    'awareness predictions') echo '--resolved --json --socket -h --help' ;;
    'awareness resolve') echo '--socket -h --help' ;;
    'awareness message') echo '--as --type -p --priority --socket -h --help' ;;
    'awareness inbox') echo '--peek --json --socket -h --help' ;;
    'awareness context') echo '--socket -h --help' ;;
    'sandbox') echo '--settings --socket -h --help' ;;
    'sandboxd') echo '--listen --unix-sockets --socket -h --help' ;;
    'host add') echo '--read-only --ssh-config --socket -h --help' ;;
    'host ls') echo '--json --socket -h --help' ;;
    'host rm') echo '--socket -h --help' ;;
    'host connect') echo '--socket -h --help' ;;
    'host disconnect') echo '--socket -h --help' ;;
    'host show') echo '-t --target --session -d --direction --float --socket -h --help' ;;
    'host pair') echo '--port --address --socket -h --help' ;;
    'host pair-serve') echo '--socket -h --help' ;;
    'host clients') echo '--json --socket -h --help' ;;
    'host revoke') echo '--socket -h --help' ;;
    'host unpair') echo '--socket -h --help' ;;
    'host unpair-serve') echo '--socket -h --help' ;;
    'host install') echo '--tarball --socket -h --help' ;;
    'cat') echo '--socket -h --help' ;;
    'tail') echo '-n --lines --socket -h --help' ;;
    'mount') echo '-f --foreground --socket -h --help' ;;
    'umount') echo '--socket -h --help' ;;
    'help') echo '--socket -h --help' ;;
  esac
}
# A flag's words when it takes a value (@files for a path, "" for free text); fails for a bool flag.
_pane_value() {
  case "$1 $2" in
    'ls --session') echo '' ;;
    'ls --socket') echo '@files' ;;
    'new --session') echo '' ;;
    'new --cwd') echo '' ;;
    'new --sig') echo '' ;;
    'new --name') echo '' ;;
    'new --app') echo '' ;;
    'new --socket') echo '@files' ;;
    'split -t') echo '' ;;
    'split --target') echo '' ;;
    'split -d') echo 'h v horizontal vertical' ;;
    'split --direction') echo 'h v horizontal vertical' ;;
    'split -r') echo '' ;;
    'split --ratio') echo '' ;;
    'split --cwd') echo '' ;;
    'split --sig') echo '' ;;
    'split --name') echo '' ;;
    'split --socket') echo '@files' ;;
    'focus -t') echo '' ;;
    'focus --target') echo '' ;;
    'focus -d') echo 'left right up down next prev last' ;;
    'focus --direction') echo 'left right up down next prev last' ;;
    'focus --socket') echo '@files' ;;
    'close -t') echo '' ;;
    'close --target') echo '' ;;
    'close --socket') echo '@files' ;;
    'zoom -t') echo '' ;;
    'zoom --target') echo '' ;;
    'zoom --socket') echo '@files' ;;
    'layout -t') echo '' ;;
    'layout --target') echo '' ;;
    'layout --session') echo '' ;;
    'layout --socket') echo '@files' ;;
    'move -t') echo '' ;;
    'move --target') echo '' ;;
    'move -d') echo 'h v horizontal vertical' ;;
    'move --direction') echo 'h v horizontal vertical' ;;
    'move --socket') echo '@files' ;;
    'hide -t') echo '' ;;
    'hide --target') echo '' ;;
    'hide --socket') echo '@files' ;;
    'show -t') echo '' ;;
    'show --target') echo '' ;;
    'show --socket') echo '@files' ;;
    'restart -t') echo '' ;;
    'restart --target') echo '' ;;
    'restart --socket') echo '@files' ;;
    'swap -t') echo '' ;;
    'swap --target') echo '' ;;
    'swap --with') echo '' ;;
    'swap -d') echo 'left right up down next prev' ;;
    'swap --direction') echo 'left right up down next prev' ;;
    'swap --socket') echo '@files' ;;
    'resize -t') echo '' ;;
    'resize --target') echo '' ;;
    'resize -d') echo 'left right up down' ;;
    'resize --direction') echo 'left right up down' ;;
    'resize -n') echo '' ;;
    'resize --cells') echo '' ;;
    'resize --socket') echo '@files' ;;
    'float -t') echo '' ;;
    'float --target') echo '' ;;
    'float --x') echo '' ;;
    'float --y') echo '' ;;
    'float --w') echo '' ;;
    'float --h') echo '' ;;
    'float --z') echo '' ;;
    'float --layer') echo '' ;;
    'float --socket') echo '@files' ;;
    'tag -t') echo '' ;;
    'tag --target') echo '' ;;
    'tag --name') echo '' ;;
    'tag --user') echo '' ;;
    'tag --append') echo '' ;;
    'tag --socket') echo '@files' ;;
    'attr -t') echo '' ;;
    'attr --target') echo '' ;;
    'attr --socket') echo '@files' ;;
    'exec -t') echo '' ;;
    'exec --target') echo '' ;;
    'exec --socket') echo '@files' ;;
    'plumb send -t') echo '' ;;
    'plumb send --target') echo '' ;;
    'plumb send --click') echo '' ;;
    'plumb send --wdir') echo '@files' ;;
    'plumb send --port') echo '' ;;
    'plumb send --socket') echo '@files' ;;
    'plumb test -t') echo '' ;;
    'plumb test --target') echo '' ;;
    'plumb test --click') echo '' ;;
    'plumb test --wdir') echo '@files' ;;
    'plumb test --port') echo '' ;;
    'plumb test --socket') echo '@files' ;;
    'plumb read --socket') echo '@files' ;;
    'plumb rules -t') echo '' ;;
    'plumb rules --target') echo '' ;;
    'plumb rules --wdir') echo '@files' ;;
    'plumb rules --socket') echo '@files' ;;
    'send -t') echo '' ;;
    'send --target') echo '' ;;
    'send --socket') echo '@files' ;;
    'wait -t') echo '' ;;
    'wait --target') echo '' ;;
    'wait --quiet') echo '' ;;
    'wait --state') echo '' ;;
    'wait --match') echo '' ;;
    'wait --from') echo '' ;;
    'wait -T') echo '' ;;
    'wait --timeout') echo '' ;;
    'wait --socket') echo '@files' ;;
    'attach -t') echo '' ;;
    'attach --target') echo '' ;;
    'attach --detach-key') echo '' ;;
    'attach --history') echo '' ;;
    'attach --socket') echo '@files' ;;
    'output -t') echo '' ;;
    'output --target') echo '' ;;
    'output --from') echo '' ;;
    'output --socket') echo '@files' ;;
    'screen -t') echo '' ;;
    'screen --target') echo '' ;;
    'screen --rows') echo '' ;;
    'screen --top') echo '' ;;
    'screen --offset') echo '' ;;
    'screen --socket') echo '@files' ;;
    'watch --socket') echo '@files' ;;
    'session new --cwd') echo '' ;;
    'session new --host') echo '' ;;
    'session new --socket') echo '@files' ;;
    'session ls --host') echo '' ;;
    'session ls --socket') echo '@files' ;;
    'session kill --socket') echo '@files' ;;
    'session attach --host') echo '' ;;
    'session attach -t') echo '' ;;
    'session attach --target') echo '' ;;
    'session attach --socket') echo '@files' ;;
    'session rename --socket') echo '@files' ;;
    'session save --socket') echo '@files' ;;
    'session restore --name') echo '' ;;
    'session restore --socket') echo '@files' ;;
    'info --socket') echo '@files' ;;
    'clients --socket') echo '@files' ;;
    'permit --socket') echo '@files' ;;
    'url --socket') echo '@files' ;;
    'stop --socket') echo '@files' ;;
    'grant new --session') echo '' ;;
    'grant new --context') echo '' ;;
    'grant new --for') echo '' ;;
    'grant new --expires') echo '' ;;
    'grant new --note') echo '' ;;
    'grant new --name') echo '' ;;
    'grant new --socket') echo '@files' ;;
    'grant ls --socket') echo '@files' ;;
    'grant revoke --socket') echo '@files' ;;
    'metrics --listen') echo '' ;;
    'metrics --token-file') echo '@files' ;;
    'metrics --socket') echo '@files' ;;
    'top -d') echo '' ;;
    'top --interval') echo '' ;;
    'top -n') echo '' ;;
    'top --iterations') echo '' ;;
    'top --sort') echo '' ;;
    'top --socket') echo '@files' ;;
    'restore --at') echo '' ;;
    'restore --socket') echo '@files' ;;
    'service install --socket') echo '@files' ;;
    'agent add --access') echo '@files' ;;
    'agent add --app') echo '' ;;
    'agent add --project') echo '@files' ;;
    'agent add --plan') echo '' ;;
    'agent add --socket') echo '@files' ;;
    'agent ls --socket') echo '@files' ;;
    'agent rm --socket') echo '@files' ;;
    'agent run -t') echo '' ;;
    'agent run --target') echo '' ;;
    'agent run --app') echo '' ;;
    'agent run --cwd') echo '@files' ;;
    'agent run --socket') echo '@files' ;;
    'agent demo --steps') echo '' ;;
    'agent demo --delay') echo '' ;;
    'agent demo --resume') echo '' ;;
    'agent demo --socket') echo '@files' ;;
    'agent worktree-rm -t') echo '' ;;
    'agent worktree-rm --target') echo '' ;;
    'agent worktree-rm --socket') echo '@files' ;;
    'access --socket') echo '@files' ;;
    'finger --socket') echo '@files' ;;
    'mail -s') echo '' ;;
    'mail --subject') echo '' ;;
    'mail --socket') echo '@files' ;;
    'write --socket') echo '@files' ;;
    'plan --socket') echo '@files' ;;
    'peers -t') echo '' ;;
    'peers --target') echo '' ;;
    'peers --socket') echo '@files' ;;
    'hook --project') echo '@files' ;;
    'hook --app') echo '' ;;
    'hook --event') echo '' ;;
    'hook --agent') echo '' ;;
    'hook --socket') echo '@files' ;;
    'mcp --project') echo '@files' ;;
    'mcp --socket') echo '@files' ;;
    'claims --socket') echo '@files' ;;
    'claim --as') echo '' ;;
    'claim -r') echo '' ;;
    'claim --reason') echo '' ;;
    'claim --ttl') echo '' ;;
    'claim --socket') echo '@files' ;;
    'release --as') echo '' ;;
    'release --socket') echo '@files' ;;
    'handoff --socket') echo '@files' ;;
    'delegate --max') echo '' ;;
    'delegate --socket') echo '@files' ;;
    'awareness prompt --socket') echo '@files' ;;
    'awareness tool --tool') echo '' ;;
    'awareness tool --socket') echo '@files' ;;
    'awareness agents --socket') echo '@files' ;;
    'awareness predictions --resolved') echo '' ;;
    'awareness predictions --socket') echo '@files' ;;
    'awareness resolve --socket') echo '@files' ;;
    'awareness message --as') echo '' ;;
    'awareness message --type') echo 'info question answer request handoff warning done ack' ;;
    'awareness message -p') echo 'low normal high urgent' ;;
    'awareness message --priority') echo 'low normal high urgent' ;;
    'awareness message --socket') echo '@files' ;;
    'awareness inbox --socket') echo '@files' ;;
    'awareness context --socket') echo '@files' ;;
    'sandbox --settings') echo '' ;;
    'sandbox --socket') echo '@files' ;;
    'sandboxd --listen') echo '' ;;
    'sandboxd --socket') echo '@files' ;;
    'host add --ssh-config') echo '@files' ;;
    'host add --socket') echo '@files' ;;
    'host ls --socket') echo '@files' ;;
    'host rm --socket') echo '@files' ;;
    'host connect --socket') echo '@files' ;;
    'host disconnect --socket') echo '@files' ;;
    'host show -t') echo '' ;;
    'host show --target') echo '' ;;
    'host show --session') echo '' ;;
    'host show -d') echo 'h v horizontal vertical' ;;
    'host show --direction') echo 'h v horizontal vertical' ;;
    'host show --socket') echo '@files' ;;
    'host pair --port') echo '' ;;
    'host pair --address') echo '' ;;
    'host pair --socket') echo '@files' ;;
    'host pair-serve --socket') echo '@files' ;;
    'host clients --socket') echo '@files' ;;
    'host revoke --socket') echo '@files' ;;
    'host unpair --socket') echo '@files' ;;
    'host unpair-serve --socket') echo '@files' ;;
    'host install --tarball') echo '@files' ;;
    'host install --socket') echo '@files' ;;
    'cat --socket') echo '@files' ;;
    'tail -n') echo '' ;;
    'tail --lines') echo '' ;;
    'tail --socket') echo '@files' ;;
    'mount --socket') echo '@files' ;;
    'umount --socket') echo '@files' ;;
    'help --socket') echo '@files' ;;
    *) return 1 ;;
  esac
}
_pane_positional() {
  case $1 in
    'focus') echo 'left right up down next prev last' ;;
    'layout') echo 'even-horizontal even-vertical main-horizontal main-vertical tiled spread next' ;;
    'swap') echo 'left right up down next prev' ;;
    'watch') echo 'pane layout focus session client output config agent awareness host' ;;
    'permit') echo 'rw ro' ;;
    'hook') echo 'install uninstall' ;;
    'mcp') echo 'install' ;;
    'awareness resolve') echo 'prevented occurred false-positive expired' ;;
  esac
}
_pane() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i w
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if [[ -z $cmd ]]; then
      case $w in
        --socket) ((i++)) ;;
        -*) ;;
        *) cmd=$w ;;
      esac
    elif [[ -n $(_pane_subs "$cmd") && $cmd != *' '* && $w != -* ]]; then
      cmd="$cmd $w"
    elif [[ $w == -- ]]; then
      return 0 # a program and its arguments follow: complete as the shell would
    fi
  done
  if [[ -z $cmd ]]; then
    if [[ $prev == --socket ]]; then COMPREPLY=($(compgen -f -- "$cur")); return 0; fi
    COMPREPLY=($(compgen -W 'ls new split focus close zoom layout move hide show restart swap resize float tag attr exec plumb send wait attach output screen watch session serve start info clients permit url stop grant metrics top restore service agent access finger mail write plan peers hook mcp claims claim release handoff delegate awareness sandbox sandboxd host cat tail mount umount help --socket --help -h --version -V' -- "$cur"))
    return 0
  fi
  local subs
  subs=$(_pane_subs "$cmd")
  if [[ -n $subs && $cmd != *' '* ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); return 0; fi
  local values
  if values=$(_pane_value "$cmd" "$prev"); then
    if [[ $values == @files ]]; then COMPREPLY=($(compgen -f -- "$cur")); elif [[ -n $values ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); fi
    return 0
  fi
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$(_pane_flags "$cmd")" -- "$cur")); return 0; fi
  values=$(_pane_positional "$cmd")
  if [[ -n $values ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _pane pane
