"""The prover's parts that a researcher extends: registered lemmas (:mod:`.researcher`)."""
