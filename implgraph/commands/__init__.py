"""One module per sub-command: NAME, HELP, add_arguments(parser), run(args) -> int."""
